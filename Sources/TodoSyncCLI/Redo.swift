import ArgumentParser
import TodoSyncKit

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Apply again your newest undone unit, as a new commit.",
        discussion: """
            Redo takes back the newest undo made on this clone, while no new unit of yours came after it (a new edit, command or batch clears what can be redone, as in any editor). Like undo, it merges onto the lists as they are now.

            Examples:
              todosync redo
              todosync redo 2
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(help: "How many units to redo.") var count = 1

    func validate() throws {
        if count < 1 { throw ValidationError("redo at least 1 unit") }
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        let outcome = try runReportingErrors(on: workspace) { try workspace.redo(count) }
        Console.report(outcome, nothing: "Nothing to redo.")
    }
}
