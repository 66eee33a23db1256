import ArgumentParser
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
            """)

    @OptionGroup var repository: RepositoryOption
    @Option(name: .short, help: "How many units (0 prints none).") var n = 20
    @Flag(help: "Print a JSON array for scripts (schema: docs/CLI.md).") var json = false

    func validate() throws {
        if n < 0 { throw ValidationError("-n takes a count of 0 or more") }
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        let entries = try runReportingErrors(on: workspace) { try workspace.log(n) }
        if json {
            Console.out(JSON.array(entries.map { entry, undone in
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
            if n > 0 { Console.out("No units yet.") }
            return
        }
        for (entry, undone) in entries {
            let when = String(entry.authorDate.prefix(16)).replacingOccurrences("T", with: " ")
            let origin = entry.madeHere ? "here" : "came in"
            Console.out("\(entry.commit.short)  \(when)  \(entry.author.name) (\(origin))  \(entry.summary)\(undone ? "   (undone)" : "")")
        }
    }
}
