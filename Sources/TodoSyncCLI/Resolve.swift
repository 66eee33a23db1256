import ArgumentParser
import TodoSyncKit

struct Resolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Merge item by item the lists a git merge left in conflict.",
        discussion: """
            When git merges, rebases, cherry-picks or reverts without todosync's merge driver (a clone where todosync init never ran, or the driver turned off), it merges lists line by line and stops with conflict markers in them. Run this then: each list in conflict is merged from the three versions git holds, item by item and field by field, as sync and the merge driver merge (docs/MERGE.md). A true clash keeps both sides, visibly, and is listed here. The list file gets the merged version and git's index takes it, as git add does; finish with git commit (or git rebase --continue, and so on). Files that are not lists stay in conflict for you to resolve with git, and so does a list you already edited after git stopped (its edits would be lost): finish that one by hand, or bring git's version back with git checkout -m -- FILE and resolve again.

            Examples:
              git pull                     CONFLICT (content): Merge conflict in TODO.md
              todosync resolve             merges TODO.md by item and stages it
              git commit                   finishes the merge
              todosync resolve work.md     only this file
            """)

    @OptionGroup var repository: RepositoryOption
    @Argument(
        help: ArgumentHelp("The list files to resolve (default: every list in conflict).", valueName: "file"),
        completion: .file(extensions: ["md", "markdown"]))
    var files: [String] = []

    func run() throws {
        let workspace = try repository.openWorkspace()
        let outcome = try runReportingErrors(on: workspace) { try workspace.resolveConflicts(files) }
        for (path, reports) in outcome.resolved {
            Console.out("Merged \(Console.paint(path, .bold)) item by item and staged it.")
            if !reports.isEmpty {
                Console.out(Console.paint("  Needs your eyes (nothing was lost):", .yellow))
                for report in reports { Console.out("    " + Console.paint("\(report)", .yellow)) }
            }
        }
        for (path, reason) in outcome.leftToGit {
            Console.warn("\(path): left in conflict: \(reason)")
        }
        if outcome.resolved.isEmpty {
            Console.out(outcome.leftToGit.isEmpty ? "No list is in conflict." : "No list was resolved.")
        } else if outcome.leftToGit.isEmpty {
            Console.out("Then finish the \(outcome.operation): \(Self.continuing(outcome.operation))")
        }
        if outcome.resolved.isEmpty && !outcome.leftToGit.isEmpty { throw ExitCode(1) }
    }

    static func continuing(_ operation: String) -> String {
        operation == "merge" ? "git commit" : "git \(operation) --continue"
    }
}
