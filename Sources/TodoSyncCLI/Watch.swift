import ArgumentParser
import TodoSyncKit

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Commit each burst of saves as one undo unit, hands-free; sync on a timer if asked.",
        discussion: """
            Watches the list files and the folders that hold them (editors save by renaming a new file over the old one, so folders are watched). Once the lists have been quiet for the quiet period, everything saved since the last commit becomes one commit, as a plain `todosync` would make it. A list created, renamed or deleted meanwhile is taken in. Edits made before watch started are committed first.

            Nothing is lost: a save made while a commit runs becomes the next one; Ctrl-C (SIGINT) or SIGTERM commits what is pending, then stops (a second Ctrl-C stops at once; the next command finishes any write it cut short). Watch writes through the same lock as every command, so a `todosync done ...` typed meanwhile is safe.

            With --sync-every, it syncs on start and then on that timer (and with --sync-after-commit after each commit too). A remote that cannot be reached is reported once and tried again later and later (doubling the wait, up to an hour); it says when sync works again.

            Durations: 500ms, 3s, 5m, 1h, 1h30m. docs/WATCH.md shows how to run it at login (systemd user unit, launchd).

            Examples:
              todosync watch                              commit 3 seconds after the last save
              todosync watch --quiet-period 10s           wait longer before committing
              todosync watch --sync-every 5m              and sync every five minutes
              todosync watch --sync-every 15m --sync-after-commit
            """)

    @OptionGroup var repository: CommittingOptions

    @Option(
        help: ArgumentHelp(
            "How long the lists must stay unchanged before the saves are committed.", valueName: "duration"),
        transform: Self.duration)
    var quietPeriod: Duration = .seconds(3)

    @Option(
        help: ArgumentHelp("Sync on start and then this often (default: never).", valueName: "duration"),
        transform: Self.duration)
    var syncEvery: Duration?

    @Flag(help: "Sync after each commit as well (and on start).")
    var syncAfterCommit = false

    @Flag(help: "Sync without pushing: merge what came in, push later with todosync sync.")
    var noPush = false

    static func duration(_ text: String) throws -> Duration {
        guard let duration = DurationText.parse(text), duration > .zero else {
            throw ValidationError("'\(text)' is not a duration; write it with its unit, as 500ms, 3s, 5m or 1h")
        }
        return duration
    }

    func validate() throws {
        if noPush && syncEvery == nil && !syncAfterCommit {
            throw ValidationError("--no-push is about syncing: add --sync-every or --sync-after-commit")
        }
    }

    func run() throws {
        var options = WatchOptions()
        options.quietPeriod = quietPeriod
        options.syncInterval = syncEvery
        options.syncsAfterCommit = syncAfterCommit
        options.push = !noPush
        options.runsHooks = !repository.noVerify
        options.configuration = RepositoryOption.workspaceConfiguration
        let stop = try runReportingErrors { try StopSignal.catchInterruptAndTerminate() }
        let watcher = Watcher(directory: repository.directory, options: options) { [quietPeriod, noPush] report in
            Self.tell(report, quietPeriod: quietPeriod, push: !noPush)
        }
        try runReportingErrors { try watcher.run(stop: stop) }
    }

    static func tell(_ report: WatchReport, quietPeriod: Duration, push: Bool) {
        switch report {
        case .started(let root, let folders):
            let where_ = folders == 1 ? root : "\(root) (\(folders) folders)"
            Console.out(
                "Watching \(where_): saves are committed after \(DurationText.describe(quietPeriod)) of quiet. Ctrl-C commits what is pending and stops."
            )
        case .committed(let outcome, let branch):
            Console.warn(outcome.unit.diagnostics)
            if let warning = outcome.identityWarning { Console.warn(warning) }
            if let commit = outcome.commit { Console.committed(commit.short, outcome.message, branch: branch) }
        case .synced(let outcome):
            if !outcome.isUpToDate { Sync.tell(outcome, push: push) }
        case .failed(let work, let error, let retryIn):
            let what = work == .sync ? "sync" : "commit"
            let when =
                retryIn.map { "tried again in \(DurationText.describe($0))" } ?? "tried again after the next save"
            Console.fail(error)
            Console.warn("\(what) failed; \(when) (and later and later while it fails; reported again when it works)")
        case .recovered(let work):
            Console.out(work == .sync ? "Sync works again." : "Committing works again.")
        case .notice(let text):
            Console.warn(text)
        case .stopping:
            Console.out("Stopping: committing what is pending.")
        }
    }
}
