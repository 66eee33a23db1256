import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import QuickStatus
import TodoModel

/// A repository of lists and its working tree: the engine every command goes through.
///
/// Every write (list files, objects, commits, the branch, git's index) goes through one
/// function, `apply` (Workspace+Apply.swift), under the repository's write lock (`writing`).
public final class Workspace {
    let repository: Repository
    /// What the program decided for this workspace (timeouts, credentials).
    public let configuration: WorkspaceConfiguration
    /// The working tree's root, without a trailing slash.
    public let root: String
    let selector: ListFileSelector
    /// The folder todosync was started in (`-C`): paths the user names are relative to it.
    let startDirectory: String
    /// When this workspace was opened (file-clock nanoseconds): stamps of files changed after
    /// it was opened cannot vouch for what it read.
    let openedAt = FileStamp.now()
    /// Tests only: runs after a sync merge is computed and before any file is written, so a
    /// test can save a list "while the merge runs".
    var willWriteMerge: (() -> Void)?
    /// Tests only: runs after a sync committed local edits and before it fetches.
    var didCommitLocalEdits: (() -> Void)?
    /// Things the user should know that are not errors (a stopped write finished, a save kept).
    public internal(set) var notices: [String] = []

    /// Adds a notice once (work that is retried must not repeat it).
    func notice(_ text: String) {
        if !notices.contains(text) { notices.append(text) }
    }

    /// Whether the hooks that may refuse a commit or a push run (`--no-verify` turns them off).
    public var runsHooks = true
    /// Set when a commit was made with a fallback identity: what to tell the user.
    public internal(set) var identityWarning: String?
    /// What one reading pass (`readingPass`) has learnt; nil outside a pass, so nothing learnt
    /// in one command (or one save under watch) is trusted in the next.
    var pass: ReadingPass?
    /// How long the files gitattributes come from must have been left alone before the note
    /// records what they say (`Workspace.settleTime`; tests wait one clock tick instead).
    var attributeSettleTime = Workspace.settleTime
    /// How long a list file must have been left alone before its items are kept in the cache
    /// (`ItemsCache`; tests wait one clock tick instead).
    var itemsCacheSettleTime = Workspace.settleTime
    /// Told how long work is getting on (`init` of a vault), for a terminal to show; nil: no one asks.
    public var progress: ((String) -> Void)?
    /// `watch` keeps the candidate files between its commits (`KnownCandidates`): set, the
    /// walk's answer is kept, and taken while it holds.
    var keepsCandidates = false
    var knownCandidates: KnownCandidates?
    private var writeLock: WriteLock?
    private var writeDepth = 0

    init(
        repository: Repository, startDirectory: String = ".",
        configuration: WorkspaceConfiguration = WorkspaceConfiguration()
    ) throws(TodoSyncError) {
        self.repository = repository
        self.configuration = configuration
        self.startDirectory = FileSystem.absolute(startDirectory)
        guard let workdir = repository.workdir else {
            throw TodoSyncError(
                "\(repository.gitDirectory) is a bare repository: it has no working files to keep lists in",
                hint: "clone it (git clone \(repository.gitDirectory) lists) and run todosync in the clone")
        }
        root = workdir.hasSuffix("/") && workdir.count > 1 ? String(workdir.dropLast()) : workdir
        let include = try git("reading todosync.include") { try repository.configStrings("todosync.include") }
        let exclude = try git("reading todosync.exclude") { try repository.configStrings("todosync.exclude") }
        selector = ListFileSelector(
            include: include, exclude: exclude.isEmpty ? ListFileSelector.defaultExclude : exclude)
    }

    var scratch: ScratchFolder { ScratchFolder(gitDirectory: repository.gitDirectory) }

    var holdsWriteLock: Bool { writeLock != nil }

    /// Runs `body` holding the repository's write lock (taken once; nested calls share it).
    /// On taking it: what a stopped run left is cleared or finished, and saves an editor made
    /// into a file as todosync replaced it are reported.
    func writing<T>(_ body: () throws(TodoSyncError) -> T) throws(TodoSyncError) -> T {
        if writeLock == nil {
            writeLock = try WriteLock.acquire(scratch, repositoryRoot: root, timeout: configuration.lockTimeout)
            do {
                try scratch.create()
                for kept in scratch.sweep() {
                    notice(
                        "an editor saved a list in the instant todosync replaced it; that save is kept at \(kept): compare it with the list and copy back what you need"
                    )
                }
                try finishInterruptedWrite()
            } catch {
                writeLock = nil
                throw error
            }
        }
        writeDepth += 1
        defer {
            writeDepth -= 1
            if writeDepth == 0 { writeLock = nil }
        }
        return try body()
    }

    /// Opens the repository that holds `path` (a folder), as git finds it.
    public static func open(
        at path: String = ".", configuration: WorkspaceConfiguration = WorkspaceConfiguration()
    ) throws(TodoSyncError) -> Workspace {
        // NB: one limit and one trace switch for the process: neither knows a workspace.
        StuckReadGuard.limit = configuration.objectReadTimeout
        Trace.isOn = configuration.traces
        do {
            let repository = try Trace.phase("libgit2 set-up, open the repository") { () throws(GitError) in
                try Repository.discover(from: path)
            }
            return try Workspace(repository: repository, startDirectory: path, configuration: configuration)
        } catch let error as GitError where error.isUnsafeOwnership {
            throw dubiousOwnership(from: path)
        } catch let error as GitError where error.isNotFound {
            throw TodoSyncError(
                "not a git repository: \(FileSystem.absolute(path))",
                hint: "run 'todosync init' to start one here, or cd into your lists' repository")
        } catch let error as GitError {
            throw .git(error, while: "opening the repository")
        } catch let error as TodoSyncError {
            throw error
        } catch {
            throw TodoSyncError("opening the repository failed: \(error)", hint: "check that git status works here")
        }
    }

    /// git's refusal of a repository another user owns, in git's words, with git's way out.
    static func dubiousOwnership(from path: String) -> TodoSyncError {
        // The repository's folder, as git names it: the nearest folder up holding .git.
        var folder = FileSystem.absolute(path)
        while !FileSystem.exists(folder + "/.git"), folder != "/", !folder.isEmpty {
            folder = FileSystem.parentDirectory(of: folder)
        }
        if !FileSystem.exists(folder + "/.git") { folder = FileSystem.absolute(path) }
        return TodoSyncError(
            "detected dubious ownership in repository at '\(folder)': another user owns it, so git (and todosync) will not use it; nothing was read or changed",
            hint: "if you trust it, add an exception: git config --global --add safe.directory \(folder)")
    }

    /// The branch HEAD names (also for a repository with no commit yet).
    public func branch() throws(TodoSyncError) -> String? {
        switch try git("reading HEAD", { try repository.head() }) {
        case .unborn(let branch), .branch(let branch, _): branch
        case .detached: nil
        }
    }

    /// Refuses states in which a commit would surprise the user.
    func checkReadyToCommit() throws(TodoSyncError) {
        if let operation = repository.pendingOperation {
            // The same advice `status` gives: lists left in conflict are todosync resolve's first.
            let lists = operationInProgress()?.listsInConflict ?? []
            let finish =
                lists.isEmpty
                ? "finish it (git \(operation.name) --continue) or abort it (git \(operation.name) --abort), then run todosync again"
                : "merge the lists it left in conflict item by item with todosync resolve, then git \(operation.name) --continue (or abort it: git \(operation.name) --abort); then run todosync again"
            throw TodoSyncError(
                "a git \(operation.name) is in progress in \(root); todosync will not commit in the middle of it",
                hint: finish)
        }
        if case .detached(let commit) = try git("reading HEAD", { try repository.head() }) {
            throw TodoSyncError(
                "HEAD is detached at \(commit.short); todosync commits only on a branch", hint: detachedHeadHint())
        }
    }
}

/// What a reading pass (a commit, a status) learns once and asks again: kept for the pass only.
struct ReadingPass {
    /// What gitattributes say of each path: asked of a file several times a pass, looked up once.
    var attributes: [String: (ListFileSelector.Marking, filter: String?)] = [:]
    /// The checked-head note's files, where the files gitattributes come from are as it
    /// stamped them: their markings (none under a filter) are asked after `attributes`.
    var notedMarkings: [NotedFile]?
    /// Whether git converts each path's content on the way in (`convertsContent`), likewise.
    var converts: [String: Bool] = [:]
    /// The attributes files stamped, where the stamps came from the note, not a walk
    /// (`preloadNotedAttributes`): a file in a folder not among them is asked of libgit2.
    var coveredAttributeFiles: Set<String>?
    /// Whether git converts no file's content (`nothingConverts`), once worked out.
    var nothingConverts: Bool?
    /// The stamps of the files gitattributes come from, taken before any was read.
    var attributeSources: [FileStamp]?
    /// The checked-head note as this pass read it.
    var note: CheckedHead?
    /// The note being read, with its files' stats, on another thread (`scanForPass`).
    var noteAhead: NoteAhead?
    /// The noted files' stats as taken then, position by position (kept once the note is read).
    var notedStats: (files: [NotedFile], stats: [FileStat?])?
    /// Files of HEAD the note names that hold HEAD's blobs, as git's index vouches (not read):
    /// in path order. A note recorded in the pass names them again.
    var vouched: [NotedFile] = []
    /// Markdown files read that are not lists and hold HEAD's blob, as git's index vouches.
    var readPlain: [String: OID] = [:]
    /// The candidate files are those watch kept (`KnownCandidates`): no folder was walked.
    var keptCandidates = false
    /// The candidate files' stats, taken together (`prefetchStats`), position by position.
    var candidateStats: (paths: [String], stats: [FileStat?])?
    /// Committed versions of large lists about to be read (HEAD's of an edited list, the
    /// versions an undo or a sync's merge compares), being read on another thread, by blob.
    var blobsReadAhead: [OID: BlobRead] = [:]
    /// The blob ids of working files git's index does not vouch for, as hashed (`holds`).
    var hashes: [String: OID] = [:]
    /// Other files' stats as this pass took them (nil: not a regular file).
    var stats: [String: FileStat?] = [:]
}

extension Workspace {
    /// Runs `body` as one reading pass, or as part of the pass already running.
    func readingPass<T>(_ body: () throws(TodoSyncError) -> T) throws(TodoSyncError) -> T {
        guard pass == nil else { return try body() }
        pass = ReadingPass()
        defer { pass = nil }
        return try body()
    }

    /// Takes the stats of `paths` (in `PathOrder`) for the pass on two threads, as git's index
    /// preload does: the check of a vault against the checked-head note is a stat of each of
    /// thousands of files, most of it waiting on the kernel. Returns them, position by position.
    @discardableResult
    func prefetchStats(_ paths: [String]) -> [FileStat?] {
        if let taken = pass?.candidateStats, taken.paths == paths { return taken.stats }
        let root = self.root
        let stats: [FileStat?]
        if let kept = keptStats(paths) {
            stats = kept
        } else if let noted = pass?.notedStats ?? pass?.noteAhead?.stats(), PathOrder.isStrictlySorted(paths) {
            // The noted files' stats, taken while the folders were walked; the others now.
            pass?.notedStats = noted
            var next = 0
            stats = paths.map { path in
                while next < noted.files.count, PathOrder.compare(noted.files[next].path, path) < 0 { next += 1 }
                if next < noted.files.count, PathOrder.compare(noted.files[next].path, path) == 0 {
                    return noted.stats[next]
                }
                return FileSystem.regularFileStat(root + "/" + path)
            }
        } else if paths.count < 256 {
            stats = paths.map { FileSystem.regularFileStat(root + "/" + $0) }
        } else {
            let half = paths.count / 2
            nonisolated(unsafe) var second: [FileStat?] = []
            let group = DispatchGroup()
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                second = paths[half...].map { FileSystem.regularFileStat(root + "/" + $0) }
            }
            let first = paths[..<half].map { FileSystem.regularFileStat(root + "/" + $0) }
            group.wait()
            stats = first + second
        }
        if pass != nil, PathOrder.isStrictlySorted(paths) { pass?.candidateStats = (paths, stats) }
        keepStats(paths, stats)
        return stats
    }

    /// A file's stat, taken once a pass.
    func passStat(_ path: String) -> FileStat? {
        if let taken = pass?.stats[path] { return taken }
        if let taken = pass?.candidateStats, let position = PathOrder.position(of: path, in: taken.paths) {
            return taken.stats[position]
        }
        let stat = FileSystem.regularFileStat(root + "/" + path)
        pass?.stats[path] = .some(stat)
        return stat
    }
}
