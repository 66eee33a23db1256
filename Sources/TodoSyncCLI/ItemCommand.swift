import ArgumentParser
import TodoModel
import TodoSyncKit

/// A subcommand that changes items: it asks for one `ItemRequest`, so `batch` can run many
/// of them as one commit.
protocol ItemCommand: ParsableCommand {
    var repository: CommittingOptions { get }
    func request() throws -> ItemRequest
}

extension ItemCommand {
    func run() throws {
        let workspace = try repository.openWorkspace()
        let request = try request()
        let outcome = try runReportingErrors(on: workspace) { try workspace.perform([request]) }
        Console.report(outcome)
    }
}

/// `--under`, `--before`, `--after`: where an item goes, named by a query.
struct PlaceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Put it as the last item nested under <item>.", valueName: "item"))
    var under: String?
    @Option(help: ArgumentHelp("Put it right before <item>, at its depth.", valueName: "item"))
    var before: String?
    @Option(help: ArgumentHelp("Put it right after <item> (and what is nested under it).", valueName: "item"))
    var after: String?
    @Option(
        help: ArgumentHelp(
            "Put it at the end of the list in <path> (default TODO.md, or the only list).", valueName: "path"))
    var file: String?

    func validate() throws {
        let given = [under, before, after, file].compactMap { $0 }
        if given.count > 1 { throw ValidationError("give one of --under, --before, --after and --file") }
    }

    var place: ItemRequest.Where {
        if let under { return .under(ItemQuery(under)) }
        if let before { return .before(ItemQuery(before)) }
        if let after { return .after(ItemQuery(after)) }
        return .end(file: file)
    }

    var isGiven: Bool { under != nil || before != nil || after != nil || file != nil }
}

extension Console {
    /// What a command did: the pending edits committed first, then the command's own commit.
    static func report(_ outcome: CommandOutcome) {
        if let pending = outcome.pendingCommit, let commit = pending.commit {
            out("[\(commit.short)] \(pending.message.summary) (your edits, committed first)")
        }
        guard let commit = outcome.commit else {
            out("Nothing to change: the lists already say so.")
            return
        }
        out("[\(commit.short)] \(outcome.message.summary)")
        if outcome.message.body.count > 1 { for line in outcome.message.body { out(" " + line) } }
        Console.warn(outcome.warnings)
    }
}
