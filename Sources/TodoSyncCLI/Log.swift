import ArgumentParser
import TodoModel
import TodoSyncKit

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "The units of the lists' history, newest first: who, when, from where, and which are undone.",
        discussion: """
            Every unit the branch holds, through every merge, as git log orders them. "here" marks the units made on this clone (the ones undo and redo act on); the others came in by a sync or a pull. The first column is the id todosync undo <unit> takes.

            Examples:
              todosync log
              todosync log -n 5 --json
              todosync log --author ann --since "last monday"
              todosync log --file groceries.md --until 2026-11-30
            todosync show <unit> tells what one of them did, item by item.
            """)

    @OptionGroup var repository: RepositoryOption
    @Argument(
        help: "Only the units that changed this item (as todosync history <item> lists them).",
        completion: ItemCompletion.of(.all))
    var item: String?
    @Option(name: .short, help: "How many units (0 prints none).") var n = 20
    @Option(
        help: ArgumentHelp("Only units whose author's name or e-mail holds this text (any case).", valueName: "text"))
    var author: String?
    @Option(
        help: ArgumentHelp(
            "Only units made on or after this day (the author's day: YYYY-MM-DD, today, yesterday, last friday, 3 days ago, 2 weeks ago or -3d).",
            valueName: "date"))
    var since: String?
    @Option(help: ArgumentHelp("Only units made on or before this day (as --since).", valueName: "date")) var until:
        String?
    @Option(help: ArgumentHelp("Only units that changed this file.", valueName: "path")) var file: String?
    @Flag(help: "Print a JSON array for scripts (schema: docs/CLI.md).") var json = false

    func validate() throws {
        if n < 0 { throw ValidationError("-n takes a count of 0 or more") }
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        var filter = LogFilter(author: author, file: file)
        if since != nil || until != nil {
            let today = try runReportingErrors(on: workspace) { try workspace.today() }
            func date(_ text: String?, _ option: String) throws -> CalendarDate? {
                guard let text else { return nil }
                guard let date = CalendarDate(expression: text, today: today) else {
                    throw ValidationError(
                        "\(option) takes a day (YYYY-MM-DD, today, yesterday, last friday, 3 days ago, 2 weeks ago or -3d), not \"\(text)\""
                    )
                }
                return date
            }
            (filter.since, filter.until) = (try date(since, "--since"), try date(until, "--until"))
        }
        if let item {
            // An item's units: its history, in log's form (filters and -n apply alike).
            let shown = try runReportingErrors(on: workspace) { () throws(TodoSyncError) -> [ItemHistoryStep] in
                var kept: [ItemHistoryStep] = []
                for step in try workspace.history(of: ItemQuery(item)).steps
                where try workspace.admits(step.entry, filter) {
                    kept.append(step)
                    if kept.count == n { break }
                }
                return kept
            }
            let entries = shown.map(\.entry)
            if json {
                Console.out(JSON.array(shown.map(History.json)))
            } else if entries.isEmpty {
                Console.out("No unit matches.")
            } else {
                for entry in entries { Console.out(Self.line(entry, undone: false)) }
            }
            return
        }
        let entries = try runReportingErrors(on: workspace) { try workspace.log(n, filter: filter) }
        if json {
            Console.out(
                JSON.array(
                    entries.map { entry, undone in
                        JSON.object([
                            ("commit", JSON.string(entry.commit.description)), ("summary", JSON.string(entry.summary)),
                            ("kind", JSON.string(entry.kind)), ("undone", undone ? "true" : "false"),
                            ("author", JSON.string(entry.author.name)), ("email", JSON.string(entry.author.email)),
                            ("date", JSON.string(entry.authorDate)),
                            ("madeHere", entry.madeHere ? "true" : "false"), ("time", String(entry.date)),
                        ])
                    }))
            return
        }
        guard !entries.isEmpty else {
            let filtered = author != nil || since != nil || until != nil || file != nil
            if n > 0 { Console.out(filtered ? "No unit matches." : "No units yet.") }
            return
        }
        for (entry, undone) in entries { Console.out(Self.line(entry, undone: undone)) }
    }

    /// One unit as the log shows it.
    static func line(_ entry: HistoryEntry, undone: Bool) -> String {
        let when = String(entry.authorDate.prefix(16)).replacingOccurrences("T", with: " ")
        let origin = entry.madeHere ? "here" : "came in"
        return
            "\(entry.commit.short)  \(when)  \(entry.author.name) (\(origin))  \(entry.summary)\(undone ? "   (undone)" : "")"
    }
}
