/// How `watch` runs.
public struct WatchOptions: Sendable {
    /// How long the lists must stay unchanged before a burst of saves is committed.
    public var quietPeriod: Duration = .seconds(3)
    /// Sync on start and then this often; nil: never on a timer.
    public var syncInterval: Duration?
    /// Sync after each commit (and on start).
    public var syncsAfterCommit = false
    public var push = true
    public var runsHooks = true
    /// What each workspace watch opens is given (timeouts, credentials, the folder limit).
    public var configuration = WorkspaceConfiguration()

    public init() {}
}

/// What `watch` did, for the CLI to tell.
public enum WatchReport {
    case started(root: String, folders: Int)
    case committed(CommitOutcome, branch: String?)
    case synced(SyncOutcome)
    /// The first failure of a run of failures (later ones are not reported); retried after `retryIn`.
    case failed(WatchWork, TodoSyncError, retryIn: Duration?)
    /// Work that failed before succeeded again.
    case recovered(WatchWork)
    case notice(String)
    case stopping
}

public enum WatchWork: Sendable {
    case commit, sync
}

/// `todosync watch`: commits each burst of saves as one unit once the lists are quiet, and
/// syncs on a timer. Every commit and sync opens the repository afresh and writes through the
/// same locked path as any command, so commands typed meanwhile take turns with it.
public final class Watcher {
    private let directory: String
    private let options: WatchOptions
    private let report: (WatchReport) -> Void
    private var schedule: WatchSchedule
    /// What tells of changes: the system's notifications, or a look at the files when those run out.
    private var watcher: FolderWatcher?
    /// The candidate files the last commit found, while nothing seen since may change them.
    private var known: KnownCandidates?
    /// Every folder handed to the folder watcher.
    private var watched: Set<String> = []
    /// The working tree's root.
    private var root = ""

    public init(directory: String, options: WatchOptions, report: @escaping (WatchReport) -> Void) {
        self.directory = directory
        self.options = options
        self.report = report
        schedule = WatchSchedule(
            quietPeriod: options.quietPeriod, syncInterval: options.syncInterval,
            syncsAfterCommit: options.syncsAfterCommit, startedAt: .now)
    }

    /// Runs until `stop` is raised; then commits what is pending and returns. Throws when the
    /// repository cannot be opened or watched at all, or when the last commit fails.
    public func run(stop: StopSignal) throws(TodoSyncError) {
        let workspace = try Workspace.open(at: directory, configuration: options.configuration)
        root = workspace.root
        let (watcher, notice) = makeFolderWatcher(
            root: workspace.root, folderLimit: options.configuration.watchedFolderLimit)
        self.watcher = watcher
        if let notice { report(.notice(notice)) }
        let folders = try workspace.scanCandidates().folders
        try watchFolders(folders, root: workspace.root)
        // Edits made while nothing watched are committed first, before it says it watches: a
        // save after that is a unit of its own (one during this commit is seen, as watching
        // has begun, and becomes the next).
        commit(startedAt: .now)
        report(.started(root: workspace.root, folders: folders.count))

        do throws(TodoSyncError) {
            try watch(in: workspace, until: stop)
        } catch {
            // Watching broke (the system refused to say more): what was saved is committed before it stops.
            if let outcome = try? committing() { reportCommit(outcome) }
            throw error
        }
        report(.stopping)
        // Saves whose events were not read yet are in the files: commit regardless, walking
        // and looking at every file.
        known = nil
        if let outcome = try committing() { reportCommit(outcome) }
    }

    /// The loop: commits and syncs as they fall due, until `stop` is raised.
    private func watch(in workspace: Workspace, until stop: StopSignal) throws(TodoSyncError) {
        while true {
            let now = ContinuousClock.now
            if schedule.commitIsDue(at: now) {
                commit(startedAt: now)
                continue
            }
            if schedule.syncIsDue(at: now) {
                sync()
                continue
            }
            guard let watcher else { return }
            switch try watcher.wait(until: schedule.nextWake(), stopDescriptor: stop.descriptor) {
            case .stopRequested:
                return
            case .timedOut:
                continue
            case .overflowed:
                known = nil
                rescan(workspace)
                schedule.saw(saveAt: .now)
            case .changed(let paths, let created):
                if let kept = known,
                    !created.isEmpty
                        || paths.contains(where: {
                            kept.mayChange(at: $0, root: workspace.root, selector: workspace.selector)
                        })
                {
                    known = nil
                }
                // The kept stats of these files are taken again.
                known?.changed.formUnion(paths)
                if !created.isEmpty { rescan(workspace) }
                if !created.isEmpty || paths.contains(where: workspace.selector.matches) {
                    schedule.saw(saveAt: .now)
                }
            }
        }
    }

    /// Starts watching `folders`. Where the system's limit of watched folders is reached (a
    /// vault of thousands of folders), watching goes on by looking at the files a few times a
    /// second, said once, with the way to raise the limit.
    private func watchFolders(_ folders: [String], root: String) throws(TodoSyncError) {
        watched.formUnion(folders)
        do throws(TodoSyncError) {
            try watcher?.watch(folders: folders)
        } catch  where error.isWatchLimitReached {
            report(
                .notice(
                    "\(error.message); watching by looking at the files a few times a second instead (to go back to the system's notifications: \(error.hint ?? "raise the limit"))"
                ))
            let polling = PollingFolderWatcher(root: root)
            watcher = polling
            try polling.watch(folders: folders)
        }
    }

    /// Watches the folders a commit's walk went through that are not watched yet (a folder
    /// .gitignore left out holds a file git tracks now). Their files changed unseen until now:
    /// the next pass takes every file's stat again.
    private func watchWalkedFolders() {
        guard let folders = known?.scan.folders, !watched.isSuperset(of: folders) else { return }
        known?.stats = nil
        do throws(TodoSyncError) {
            try watchFolders(folders, root: root)
        } catch {
            known = nil
            report(.notice(error.message + (error.hint.map { " (\($0))" } ?? "")))
        }
    }

    /// Watches the folders that appeared; a failure is told and watching goes on (the new
    /// folder's lists are still committed when a save elsewhere or the stop commits).
    private func rescan(_ workspace: Workspace) {
        do throws(TodoSyncError) {
            try watchFolders(try workspace.scanCandidates().folders, root: workspace.root)
        } catch {
            report(.notice(error.message + (error.hint.map { " (\($0))" } ?? "")))
        }
    }

    private func commit(startedAt start: ContinuousClock.Instant) {
        let wasFailing = !schedule.isCommitSucceeding
        do throws(TodoSyncError) {
            let outcome = try committing()
            schedule.committed(startedAt: start, succeeded: true, madeCommit: outcome?.outcome.commit != nil, at: .now)
            if wasFailing { report(.recovered(.commit)) }
            if let outcome { reportCommit(outcome) }
        } catch {
            schedule.committed(startedAt: start, succeeded: false, madeCommit: false, at: .now)
            if schedule.isFirstCommitFailure { report(.failed(.commit, error, retryIn: nil)) }
        }
    }

    /// One commit through a freshly opened workspace; nil when nothing changed.
    private func committing() throws(TodoSyncError) -> (outcome: CommitOutcome, branch: String?)? {
        let workspace = try Workspace.open(at: directory, configuration: options.configuration)
        workspace.runsHooks = options.runsHooks
        workspace.keepsCandidates = true
        workspace.knownCandidates = known
        defer {
            known = workspace.knownCandidates
            watchWalkedFolders()
            workspace.notices.forEach { report(.notice($0)) }
        }
        let outcome = try workspace.commit()
        // The lists changed with nothing to commit: the branch moved under watch (a plain
        // git pull); the feed follows (a commit's own write refreshed it already).
        guard outcome.commit != nil else {
            workspace.refreshCalendarFeed()
            return nil
        }
        return (outcome, try? workspace.branch())
    }

    private func reportCommit(_ commit: (outcome: CommitOutcome, branch: String?)) {
        report(.committed(commit.outcome, branch: commit.branch))
    }

    private func sync() {
        let wasFailing = !schedule.isSyncSucceeding
        do throws(TodoSyncError) {
            let workspace = try Workspace.open(at: directory, configuration: options.configuration)
            workspace.runsHooks = options.runsHooks
            defer { workspace.notices.forEach { report(.notice($0)) } }
            let outcome = try workspace.sync(push: options.push)
            schedule.synced(succeeded: true, at: .now)
            if wasFailing { report(.recovered(.sync)) }
            report(.synced(outcome))
        } catch {
            let wait = schedule.synced(succeeded: false, at: .now)
            if schedule.isFirstSyncFailure { report(.failed(.sync, error, retryIn: wait)) }
        }
    }
}
