import ArgumentParser
import TodoSyncKit

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo the newest unit not undone yet, as a new commit.",
        discussion: """
            A unit is an editor session (one todosync commit), an item command, a batch, the incoming changes of a sync, or a commit someone made with plain git that changed a list. Undo makes a new commit that inverts it, merged item by item onto the lists as they are now: later edits stay, and where a later edit changed the same thing, the later edit wins and undo says so. History is never rewritten, so undo keeps working after a push. The undo and redo stacks are read from the history itself: the same on every clone.

            Examples:
              todosync undo          the newest unit
              todosync undo 3        the three newest, one commit each
              todosync redo          take the newest undo back
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(help: "How many units to undo.") var count = 1

    func validate() throws {
        if count < 1 { throw ValidationError("undo at least 1 unit") }
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        let outcome = try runReportingErrors(on: workspace) { try workspace.undo(count) }
        Console.report(outcome, nothing: "Nothing to undo.")
    }
}

extension Console {
    static func report(_ outcome: UndoOutcome, nothing: String) {
        if let pending = outcome.pendingCommit, let commit = pending.commit {
            out("[\(commit.short)] \(pending.message.summary) (your edits, committed first)")
        }
        guard !outcome.steps.isEmpty else {
            out(nothing)
            return
        }
        for step in outcome.steps {
            out("[\(step.commit.short)] \(step.message.summary)")
            for line in step.message.body { out(" " + line) }
        }
    }
}
