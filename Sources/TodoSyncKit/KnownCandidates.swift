import GitStore
import QuickStatus

/// The candidate files a long-running `watch` keeps between its commits, so a save in one
/// note of a vault does not walk every folder again (as git's fsmonitor spares `git status`
/// its walk).
///
/// What a walk finds depends on the folders' entries, which the watcher sees change, and on
/// files outside them, which are stamped: git's index (a tracked file is never left out by
/// .gitignore), the config files (which files are lists, core.excludesFile) and the ignore
/// files outside the working tree. A pass takes the kept scan only while those stamps hold
/// and the watcher has seen nothing that could change it (`mayChange`); otherwise it walks.
struct KnownCandidates {
    var scan: CandidateScan
    /// Taken before the walk; the first is git's index. nil: a file that could not be stamped
    /// (the scan is then never taken again).
    var stamps: [FileStamp?]
    /// The candidate files, for the watcher's checks.
    let files: Set<String>
    let folders: Set<String>
    /// The candidate files' stats, position by position, as the last pass took them; with
    /// `changed`, every path the watcher saw change since (taken again). As git's fsmonitor
    /// does, a file the system did not report changed is taken as it was.
    var stats: [FileStat?]?
    var changed: Set<String> = []
    /// When the folders were walked: a pass walks and stats every file again after
    /// `longestKept`, so a change the system never reported (a network file system) is
    /// committed by a later save all the same.
    let walkedAt = ContinuousClock.now
    static let longestKept: Duration = .seconds(600)

    init(scan: CandidateScan, stamps: [FileStamp?]) {
        self.scan = scan
        self.stamps = stamps
        files = Set(scan.files)
        folders = Set(scan.folders)
    }

    /// Whether a change the watcher saw at `path` (relative to the root) may change what a walk
    /// finds: a .gitignore, a folder or nested repository gone or replaced, a candidate file gone,
    /// a new file that may be a list, or a name that is not UTF-8.
    func mayChange(at path: String, root: String, selector: ListFileSelector) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == ".gitignore" || name == ".git" || path.contains("\u{FFFD}") { return true }
        let kind = FileSystem.kind(of: root + "/" + path)
        if folders.contains(path) || scan.nestedRepositories.contains(path) { return kind != .directory }
        if kind == .directory { return true }
        return files.contains(path) != (kind == .file && selector.matches(path))
    }
}

extension Workspace {
    /// What, outside the watched folders, decides what a walk finds: git's index first.
    func candidateStamps() -> [FileStamp?] {
        let user = Self.userFolders()
        var configFiles = [repository.gitDirectory + "config", repository.commonDirectory + "config"]
        configFiles += [user.home + "/.gitconfig", user.git + "/config", "/etc/gitconfig"]
        configFiles += Repository.outsideConfigFiles()
        // A config file that includes others names files found only by reading it.
        if configFiles.contains(where: includesOtherFiles) { return [nil] }
        return ([repository.gitDirectory + "index"] + configFiles + outsideIgnoreFiles()).map { FileStamp.take($0) }
    }

    /// The walk's answer: the kept one while it holds (`knownCandidates`), else a new walk,
    /// kept when `keepsCandidates`.
    func candidatesForPass() throws(TodoSyncError) -> CandidateScan {
        guard keepsCandidates else { return try scanCandidates() }
        let stamps = candidateStamps()
        if let known = knownCandidates, !stamps.contains(nil), known.stamps == stamps,
            ContinuousClock.now - known.walkedAt < KnownCandidates.longestKept
        {
            Trace.note("candidate files: as watch kept them")
            pass?.keptCandidates = true
            return known.scan
        }
        let scan = try scanCandidates()
        knownCandidates = KnownCandidates(scan: scan, stamps: stamps)
        return scan
    }

    /// After this workspace's own write of git's index: the kept scan holds still (the write
    /// lock is held, so no other command of todosync wrote it meanwhile).
    func restampKnownIndex() {
        guard keepsCandidates, var known = knownCandidates else { return }
        known.stamps[0] = FileStamp.take(repository.gitDirectory + "index")
        knownCandidates = known
    }
}

extension Workspace {
    /// The candidate files' stats as watch kept them, the files it saw change taken again; nil
    /// where this pass walked.
    func keptStats(_ paths: [String]) -> [FileStat?]? {
        guard pass?.keptCandidates == true, let known = knownCandidates, let kept = known.stats,
            kept.count == paths.count
        else { return nil }
        var stats = kept
        for path in known.changed {
            if let position = PathOrder.position(of: path, in: paths) {
                stats[position] = FileSystem.regularFileStat(root + "/" + path)
            }
        }
        return stats
    }

    /// Keeps the candidate files' stats this pass took for the next (the changes the watcher
    /// saw before now are in them).
    func keepStats(_ paths: [String], _ stats: [FileStat?]) {
        guard keepsCandidates, knownCandidates?.scan.files == paths else { return }
        knownCandidates?.stats = stats
        knownCandidates?.changed = []
    }
}
