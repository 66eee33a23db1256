import ArgumentParser
import TodoSyncKit

struct MergeFile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-file",
        abstract: "Merge three versions of a list item by item: git's merge driver.",
        discussion: """
            git runs this during git merge, pull, rebase and cherry-pick for files .gitattributes marks `merge=todosync`, once `todosync init` (or, in a fresh clone, any todosync command) has set the driver up in the clone (merge.todosync.driver = todosync merge-file --marker-size %L %O %A %B %P).

            The result replaces <current>. A list merges by item and field, by the rules sync follows (docs/MERGE.md): a true clash keeps both sides, visibly, and is reported here, and git goes on (exit status 0). A file that is not a list gets git's own line merge (git merge-file): conflict markers where lines clash, and exit status 1 so that git stops for you to resolve them.
            """)

    @Argument(help: ArgumentHelp("The common ancestor's version (git's %O).", valueName: "base"))
    var base: String

    @Argument(help: ArgumentHelp("Our version, replaced by the result (git's %A).", valueName: "current"))
    var current: String

    @Argument(help: ArgumentHelp("Their version (git's %B).", valueName: "other"))
    var other: String

    @Argument(
        help: ArgumentHelp(
            "The file's path in the repository (git's %P), for reports and to tell lists from other files.",
            valueName: "path"))
    var path: String = "TODO.md"

    @Option(
        help: ArgumentHelp("The length of conflict markers, for files that are not lists (git's %L).", valueName: "n"))
    var markerSize = 7

    func run() throws {
        let outcome = try runReportingErrors {
            try MergeDriver.merge(
                base: base, current: current, other: other, path: path, markerSize: markerSize,
                configuration: RepositoryOption.workspaceConfiguration)
        }
        for report in outcome.reports { Console.warn("\(path): \(report)") }
        if outcome.conflicts > 0 { throw ExitCode(1) }
    }
}
