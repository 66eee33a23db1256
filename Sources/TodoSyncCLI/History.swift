import ArgumentParser
import TodoModel
import TodoSyncKit

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Every unit that changed one item, newest first: when, who, from where, and what, in words.",
        discussion: """
            The item is named as item commands name it: a unique part of its title, or the first digits of its id. Its history follows the id, not lines: through renames, moves within and between files, commits made with plain git, both sides of a sync's merges (a merge is listed where it made of the item what neither side held: a clash), undo and redo. "here" marks the units made on this clone; the others came in by a sync or a pull.

            An item the lists no longer hold is found by its old title with --removed: the commits that removed an item whose title held the words are searched (as git log -i -S<words> finds them), and the history ends with its removal. For an occurrence of a recurring item, the unit that added it names the occurrence before it, and the unit that checked it the next one.

            The first history of an item in a long history costs about what git log -S<id> costs; what it finds is kept (in .git/todosync/cache, safe to delete), so asking again costs a fraction of that.

            Examples:
              todosync history milk
              todosync history milk -p          with the item's lines before and after each unit
              todosync history 0f6c --json
              todosync history "old plan" --removed
            """)

    @OptionGroup var repository: RepositoryOption
    @Argument(
        help: "A unique part of the item's title, or the first digits of its id.", completion: ItemCompletion.of(.all))
    var item: String
    @Flag(name: .customShort("p"), help: "Show the item's lines before and after each unit.") var patch = false
    @Flag(help: "Print a JSON array for scripts (schema: docs/CLI.md).") var json = false
    @Flag(help: "The item is one the lists no longer hold: name it by its old title (or id).") var removed = false

    func run() throws {
        let workspace = try repository.openWorkspace()
        let (found, steps) = try runReportingErrors(on: workspace) {
            try workspace.history(of: ItemQuery(item), removed: removed)
        }
        if json {
            Console.out(JSON.array(steps.map(Self.json)))
            return
        }
        let gone = removed ? ", no longer in the lists" : ""
        Console.out(
            "History of \"\(found.plainTitle)\" (\(found.id.description.prefix(8).lowercased())\(gone)), newest first:")
        Self.print(steps, patch: patch)
    }

    static func print(_ steps: [ItemHistoryStep], patch: Bool) {
        guard !steps.isEmpty else { return Console.out("No unit changed it (its history lies beyond this clone's).") }
        for step in steps {
            let entry = step.entry
            let when = String(entry.authorDate.prefix(16)).replacingOccurrences("T", with: " ")
            let origin = (entry.madeHere ? "here" : "came in") + (entry.kind == "git" ? ", plain git" : "")
            Console.out(
                "\(Console.paint(entry.commit.short, .bold))  \(when)  \(entry.author.name) (\(origin))  \(entry.summary)"
            )
            for change in step.changes {
                let place =
                    change.kind == .removed
                    ? "was \(change.item.file):\(change.item.line)" : "\(change.item.file):\(change.item.line)"
                Console.out("    \(change.phrase)  (\(place))")
            }
            if let previous = step.previousOccurrence {
                Console.out("    The occurrence before: \(Self.occurrence(previous))")
            }
            if let next = step.nextOccurrence { Console.out("    The next occurrence: \(Self.occurrence(next))") }
            guard patch else { continue }
            for line in (step.before ?? "").split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                Console.out(Console.paint("    - " + line, .red))
            }
            for line in (step.after ?? "").split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                Console.out(Console.paint("    + " + line, .green))
            }
        }
    }

    /// A recurring item's occurrence, as history names it: its title, dates and id.
    static func occurrence(_ item: TodoItem) -> String {
        let date =
            item.due.map { ", due \($0)" } ?? item.scheduled.map { ", scheduled \($0)" } ?? item.start.map {
                ", starting \($0)"
            } ?? ""
        return "\"\(item.plainTitle)\"\(date) (\(item.id.description.prefix(8).lowercased()))"
    }

    static func json(_ step: ItemHistoryStep) -> String {
        let entry = step.entry
        return JSON.object([
            ("commit", JSON.string(entry.commit.description)), ("summary", JSON.string(entry.summary)),
            ("kind", JSON.string(entry.kind)), ("author", JSON.string(entry.author.name)),
            ("email", JSON.string(entry.author.email)),
            ("date", JSON.string(entry.authorDate)), ("madeHere", entry.madeHere ? "true" : "false"),
            ("changes", "[" + step.changes.map { JSON.change($0) }.joined(separator: ",") + "]"),
            ("before", step.before.map(JSON.string) ?? "null"), ("after", step.after.map(JSON.string) ?? "null"),
            ("previousOccurrence", step.previousOccurrence.map { JSON.item($0) } ?? "null"),
            ("nextOccurrence", step.nextOccurrence.map { JSON.item($0) } ?? "null"),
        ])
    }
}
