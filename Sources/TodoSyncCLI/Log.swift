import ArgumentParser
import TodoSyncKit

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "The undo units, newest first; undone ones marked.",
        discussion: """
            Examples:
              todosync log
              todosync log -n 5 --json
            """)

    @OptionGroup var repository: RepositoryOption
    @Option(name: .short, help: "How many entries.") var n = 20
    @Flag(help: "Print a JSON array for scripts.") var json = false

    func run() throws {
        let workspace = try repository.openWorkspace()
        let entries = try runReportingErrors(on: workspace) { try workspace.log(n) }
        if json {
            Console.out(JSON.array(entries.map { entry, undone in
                JSON.object([
                    ("commit", JSON.string(entry.commit.description)), ("summary", JSON.string(entry.summary)),
                    ("kind", JSON.string(entry.kind)), ("undone", undone ? "true" : "false"), ("time", String(entry.date)),
                ])
            }))
            return
        }
        guard !entries.isEmpty else {
            Console.out("No units yet.")
            return
        }
        for (entry, undone) in entries {
            Console.out("\(entry.commit.short) \(entry.summary)\(undone ? "   (undone)" : "")")
        }
    }
}
