import ArgumentParser
import TodoSyncKit

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a repository of lists, or adopt an existing one.",
        discussion: """
            Creates a git repository in <dir> if there is none (branch main), writes a short example TODO.md if the folder holds no list, gives every item an id and commits. In an existing repository it adopts the lists already there.

            Examples:
              todosync init ~/lists
              todosync init ~/lists --remote git@example.com:me/lists.git
            """)

    @Argument(help: "The folder for the lists (created if missing).")
    var directory: String = "."

    @Option(help: ArgumentHelp("Set up <url> as the remote 'origin' that sync uses.", valueName: "url"))
    var remote: String?

    func run() throws {
        let outcome = try runReportingErrors {
            try Workspace.initialize(at: directory, remote: remote)
        }
        Console.warn(outcome.commit.unit.diagnostics)
        if let warning = outcome.commit.identityWarning { Console.warn(warning) }
        Console.out(outcome.createdRepository ? "Created a git repository in \(outcome.root)" : "Using the git repository in \(outcome.root)")
        if outcome.createdExampleList { Console.out("Wrote an example list: TODO.md") }
        if let remote = outcome.remote { Console.out("Remote origin: \(remote)") }
        if let commit = outcome.commit.commit {
            Console.out("[\(commit.short)] \(outcome.commit.message.summary)")
        } else {
            Console.out("The lists were already committed with ids; nothing to commit.")
        }
    }
}
