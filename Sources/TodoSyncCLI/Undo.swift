import ArgumentParser
import TodoSyncKit

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo your newest unit not undone yet, as a new commit.",
        discussion: """
            A unit is an editor session (one todosync commit), an item command, a batch, or a commit made with plain git that changed a list. Undo makes a new commit that inverts it, merged item by item onto the lists as they are now: later edits stay, and where a later edit changed the same thing, the later edit wins and undo says so. History is never rewritten, so undo keeps working after a push.

            Undo and redo act on the units made on this clone (git's reflog of the branch says which), not on ones that came in by a sync or a pull: what you did, not what someone else did. todosync log shows every unit with its author and where it was made; undo <unit> takes back any of them, yours or not.

            Examples:
              todosync undo          your newest unit
              todosync undo 3        your three newest, one commit each
              todosync undo 3f2a9c1  the unit todosync log shows as 3f2a9c1
              todosync redo          take your newest undo back
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(
        help: ArgumentHelp(
            "How many of your units to undo (default 1), or the id of one unit from todosync log.",
            valueName: "count|unit"))
    var target: String?

    /// A number below 1000 counts units; anything else names one.
    enum Target: Equatable {
        case count(Int)
        case unit(String)
    }

    var parsed: Target {
        guard let target else { return .count(1) }
        if target.count <= 3, let count = Int(target) { return .count(count) }
        return .unit(target)
    }

    func validate() throws {
        if case .count(let count) = parsed, count < 1 { throw ValidationError("undo at least 1 unit") }
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        switch parsed {
        case .count(let count):
            let outcome = try runReportingErrors(on: workspace) { try workspace.undo(count) }
            Console.report(
                outcome,
                nothing:
                    "Nothing of yours to undo on this clone. todosync log shows every unit; todosync undo <unit> takes back any of them."
            )
        case .unit(let unit):
            let outcome = try runReportingErrors(on: workspace) { try workspace.undo(unit: unit) }
            Console.report(outcome, nothing: "Nothing to undo.")
        }
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
