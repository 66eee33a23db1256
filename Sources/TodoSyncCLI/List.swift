import ArgumentParser
import TodoModel
import TodoSyncKit

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the items: state, nesting, priority, due date and id.",
        discussion: """
            Shows the list files as they are now, edits not yet committed included. The first 8 digits of each id are enough to name the item in other commands.

            Examples:
              todosync list
              todosync list --open --sort priority
              todosync list --json | jq '.[] | select(.done == false) | .title'
            """)

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case file, priority, due, title
    }

    @OptionGroup var repository: RepositoryOption
    @Flag(help: "Only items not checked off.") var open = false
    @Flag(help: "Only items checked off.") var done = false
    @Option(help: "file (as written, nested), or priority, due, title (a flat list).") var sort: Sort = .file
    @Flag(help: "Print a JSON array, one object per item, for scripts.") var json = false

    func validate() throws {
        if open && done { throw ValidationError("--open and --done exclude each other") }
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        let (all, withoutID) = try runReportingErrors(on: workspace) { try workspace.items() }
        var items = all.filter { !(open && $0.isDone) && !(done && !$0.isDone) }
        switch sort {
        case .file: break
        case .priority: items.sort { ($0.priority, $1.file, $1.line) > ($1.priority, $0.file, $0.line) }
        case .due: items.sort { ($0.due ?? CalendarDate("9999-12-31")!, $0.file, $0.line) < ($1.due ?? CalendarDate("9999-12-31")!, $1.file, $1.line) }
        case .title: items.sort { ($0.plainTitle.lowercased(), $0.file, $0.line) < ($1.plainTitle.lowercased(), $1.file, $1.line) }
        }
        if json {
            Console.out(JSON.array(items.map(JSON.item)))
            return
        }
        printText(items, all: all)
        if withoutID > 0 { Console.out("(\(withoutID) item\(withoutID == 1 ? "" : "s") without an id yet: run todosync to commit them)") }
    }

    private func printText(_ items: [TodoItem], all: [TodoItem]) {
        guard !items.isEmpty else {
            Console.out(all.isEmpty ? "No items yet." : "No items match.")
            return
        }
        var depth: [ItemID: Int] = [:]
        for item in all { depth[item.id] = item.parent.flatMap { depth[$0] }.map { $0 + 1 } ?? 0 }
        var file: String?
        for item in items {
            if sort == .file, item.file != file {
                Console.out(item.file)
                file = item.file
            }
            let indent = sort == .file ? String(repeating: "  ", count: (depth[item.id] ?? 0) + 1) : ""
            var details: [String] = []
            if item.priority != .none { details.append(item.priority.description) }
            if let due = item.due { details.append("due \(due)") }
            if sort != .file { details.append("\(item.file):\(item.line)") }
            let suffix = details.isEmpty ? "" : "  (" + details.joined(separator: ", ") + ")"
            Console.out("\(indent)\(item.isDone ? "[x]" : "[ ]") \(item.plainTitle)\(suffix)  \(item.id.description.prefix(8).lowercased())")
        }
    }
}

/// Just enough JSON writing for `--json` outputs.
enum JSON {
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func date(_ date: CalendarDate?) -> String { date.map { string($0.description) } ?? "null" }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",\n") + "]" }

    static func item(_ item: TodoItem) -> String {
        object([
            ("id", string(item.id.description)), ("title", string(item.plainTitle)), ("rawTitle", string(item.title)),
            ("done", item.isDone ? "true" : "false"), ("notes", string(item.notes)),
            ("priority", item.priority == .none ? "null" : string(item.priority.description)),
            ("due", date(item.due)), ("start", date(item.start)), ("scheduled", date(item.scheduled)),
            ("created", date(item.created)), ("doneDate", date(item.doneDate)), ("cancelledDate", date(item.cancelledDate)),
            ("recurrence", item.recurrence.map(string) ?? "null"), ("taskID", item.taskID.map(string) ?? "null"),
            ("dependsOn", "[" + item.dependsOn.map(string).joined(separator: ",") + "]"),
            ("onCompletion", item.onCompletion.map(string) ?? "null"),
            ("parent", item.parent.map { string($0.description) } ?? "null"),
            ("position", String(item.position)), ("file", string(item.file)), ("line", String(item.line)),
            ("section", item.section.map(string) ?? "null"),
        ])
    }
}
