import Dispatch
import GitStore
import TodoModel

/// Everything `Workspace.apply` writes to or checks: git's objects, refs, locks and index, the
/// list files and the journal. `DiskStore` is a repository and its working tree; the engine's
/// tests also apply plans to a strict in-memory store that checks every expectation the same
/// way and records the order of the writes (Tests/TodoSyncKitTests/MemoryStore.swift).
/// Paths are relative to the working tree's root.
protocol WriteStore: AnyObject {
    /// Refuses, before anything is written, while git holds its index or `branch` locked.
    func checkGitLocks(branch: String) throws(TodoSyncError)
    func reference(_ name: String) throws(TodoSyncError) -> OID?
    /// Throws (`isChangedMeanwhile`) unless the file holds exactly `expected` (nil: absent).
    func expect(_ path: String, holds expected: [UInt8]?) throws(TodoSyncError)
    /// Which of `paths` git's index marks skip-worktree (outside a sparse checkout).
    func pathsSkippingWorktree(_ paths: [String]) throws(TodoSyncError) -> Set<String>

    /// Stores files' working bytes as git stores them (converted as `git add` converts them);
    /// their blobs' ids, in order.
    func writeBlobs(_ files: [(path: String, bytes: [UInt8])]) throws(TodoSyncError) -> [OID]
    func writeTree(base: OID?, applying changes: [String: TreeChange]) throws(TodoSyncError) -> OID
    /// A commit of `tree` on `parents` by the user's identity; nothing refers to it yet. The
    /// repository's hooks may refuse it (or reword the message) first.
    func createCommit(tree: OID, parents: [OID], message: String) throws(TodoSyncError) -> Commit
    /// Runs once a new commit is on the branch and in git's index (post-commit hooks).
    func afterCommit(_ commit: Commit)
    /// The files of a tree among `paths`.
    func files(inTree tree: OID, among paths: Set<String>) throws(TodoSyncError) -> [TreeFile]

    /// A commit that exists.
    func commit(_ id: OID) throws(TodoSyncError) -> Commit
    /// A list file's bytes and stat as read (nil: no such file).
    func readFile(_ path: String) throws(TodoSyncError) -> (bytes: [UInt8], stat: FileStat?)?
    /// The blob id a working file at `path` holding `bytes` would be stored as.
    func blobID(of bytes: [UInt8], path: String) throws(TodoSyncError) -> OID
    func writeJournal(_ journal: WriteJournal) throws(TodoSyncError)
    /// The journal a stopped write left; nil if none, or one that does not read.
    func readJournal() -> WriteJournal?
    func removeJournal()
    /// Brings files that are not lists to `tree`, refusing where one differs from `baseline`.
    func checkout(tree: OID, paths: [String], baseline: OID?) throws(TodoSyncError)
    /// Gets list files' new bytes ready for `replace`, all flushed to disk at once; a store may
    /// do so while the objects are written (`replace` waits for it), or not at all (`replace`
    /// works without it).
    func prepareReplacements(_ files: [(path: String, bytes: [UInt8])]) throws(TodoSyncError)
    /// Replaces a list file only if it still holds `expected`; its stat once written.
    func replace(_ path: String, with bytes: [UInt8]?, ifStill expected: [UInt8]?) throws(TodoSyncError) -> FileStat?
    /// Moves a ref only if it still points at `expected` (compare-and-swap).
    func moveReference(_ name: String, to target: OID, expecting expected: OID?, message: String) throws(TodoSyncError)
    func updateIndex(staged: [StagedFile], removing removed: [String]) throws(TodoSyncError)
}

/// A repository and its working tree, as `Workspace.apply` writes them.
final class DiskStore: WriteStore {
    private let workspace: Workspace
    private var repository: Repository { workspace.repository }
    private var root: String { workspace.root }
    /// Set when a commit was made with a fallback identity: what to tell the user.
    private(set) var identityWarning: String?
    /// List files' new bytes, flushed, waiting to be swapped in (`prepareReplacements`).
    private var prepared: [String: FileSystem.PreparedFile] = [:]
    private var preparing: Preparation?

    init(_ workspace: Workspace) {
        self.workspace = workspace
    }

    func checkGitLocks(branch: String) throws(TodoSyncError) {
        let common = repository.commonDirectory
        for lockFile in [
            repository.gitDirectory + "index.lock", common + branch + ".lock", repository.gitDirectory + "HEAD.lock",
        ]
        where FileSystem.exists(lockFile) {
            throw TodoSyncError(
                "git's lock file \(lockFile) exists: another git process seems to be running in this repository; nothing was changed",
                hint:
                    "make sure no git process is running (an editor opened by 'git commit'?); if none is, a git process stopped earlier: remove the file (rm '\(lockFile)') and run todosync again"
            )
        }
    }

    func reference(_ name: String) throws(TodoSyncError) -> OID? {
        try git("reading \(name)") { try repository.reference(name) }
    }

    func expect(_ path: String, holds expected: [UInt8]?) throws(TodoSyncError) {
        try checkNoSymbolicLink(on: path)
        try FileSystem.expect(root + "/" + path, holds: expected)
    }

    /// A file is never read or written through a symbolic link, nor one in a folder on its way
    /// (a checked-out link could point anywhere on the machine).
    private func checkNoSymbolicLink(on path: String) throws(TodoSyncError) {
        if let link = FileSystem.symbolicLink(on: path, under: root) { throw Workspace.symbolicLinkRefusal(link) }
    }

    func pathsSkippingWorktree(_ paths: [String]) throws(TodoSyncError) -> Set<String> {
        try git("reading git's index") { try repository.pathsSkippingWorktree(paths) }
    }

    func writeBlobs(_ files: [(path: String, bytes: [UInt8])]) throws(TodoSyncError) -> [OID] {
        let stored = try files.map { (file) throws(TodoSyncError) in
            (bytes: try workspace.storedBytes(file.bytes, at: file.path), path: file.path)
        }
        let what = files.count == 1 ? files[0].path : "\(files.count) files"
        return try git("storing \(what)") { try repository.writeBlobs(stored) }
    }

    func writeTree(base: OID?, applying changes: [String: TreeChange]) throws(TodoSyncError) -> OID {
        try git("committing") { try repository.writeTree(base: base, applying: changes) }
    }

    func createCommit(tree: OID, parents: [OID], message: String) throws(TodoSyncError) -> Commit {
        let message = try workspace.runCommitHooks(tree: tree, isMerge: parents.count > 1, message: message)
        let identity = try Identity.resolve(for: repository)
        identityWarning = identity.warning
        let signer = try git("reading commit.gpgSign and gpg.format") { try CommitSigner.configured(in: repository) }
        let id: OID
        do {
            id = try repository.createCommit(
                tree: tree, parents: parents, message: message, author: identity.author, committer: identity.committer,
                updating: nil, signer: signer)
        } catch  where error.function == "commit signing" || error.function == "ssh signing" {
            throw TodoSyncError(
                "commit.gpgSign asks for signed commits, and \(error.message); nothing was committed",
                hint:
                    "check that 'git commit -S' works here (gpg.format, user.signingKey); or commit unsigned: git config commit.gpgSign false"
            )
        } catch {
            throw .git(error, while: "committing")
        }
        return try git("reading the new commit") { try repository.commit(id) }
    }

    func afterCommit(_ commit: Commit) {
        workspace.runPostCommitHook(isMerge: commit.parents.count > 1)
    }

    func files(inTree tree: OID, among paths: Set<String>) throws(TodoSyncError) -> [TreeFile] {
        try git("listing files") { try repository.files(inTree: tree, among: paths) }
    }

    func commit(_ id: OID) throws(TodoSyncError) -> Commit {
        try git("reading commit \(id.short)") { try repository.commit(id) }
    }

    func readFile(_ path: String) throws(TodoSyncError) -> (bytes: [UInt8], stat: FileStat?)? {
        guard let file = try FileSystem.readWithStat(root + "/" + path) else { return nil }
        return (file.bytes, file.stat)
    }

    func blobID(of bytes: [UInt8], path: String) throws(TodoSyncError) -> OID {
        let stored = try workspace.storedBytes(bytes, at: path)
        return try git("hashing \(path)") { try Repository.blobID(of: stored) }
    }

    func writeJournal(_ journal: WriteJournal) throws(TodoSyncError) {
        try workspace.writeJournal(journal)
    }

    func readJournal() -> WriteJournal? {
        let contents: [UInt8]?
        do {
            contents = try FileSystem.read(workspace.scratch.journal)
        } catch {
            return nil
        }
        guard let bytes = contents else { return nil }
        guard let journal = WriteJournal(decoding: bytes) else {
            // One that does not read cannot be finished: its files are committed as edits.
            removeJournal()
            return nil
        }
        return journal
    }

    func removeJournal() {
        workspace.removeJournal()
    }

    func checkout(tree: OID, paths: [String], baseline: OID?) throws(TodoSyncError) {
        do {
            try repository.checkout(tree: tree, paths: paths, baseline: baseline)
        } catch  where error.isCheckoutConflict {
            // git's advice for the same refusal.
            throw TodoSyncError(
                error.message + "; nothing was changed",
                hint:
                    "commit your changes or stash them (git stash), then run todosync sync again; git stash pop brings them back"
            )
        } catch {
            throw .git(error, while: "updating the other files")
        }
    }

    func prepareReplacements(_ files: [(path: String, bytes: [UInt8])]) throws(TodoSyncError) {
        // One small file gains nothing from it.
        guard files.count > 1 || files.contains(where: { $0.bytes.count >= Workspace.largestHashedUnvouched }) else {
            return
        }
        try finishPreparing()
        // On a thread of its own: the objects are written meanwhile (a large list's blob is
        // hashed and compressed while its new version is written and flushed).
        let preparation = Preparation()
        let root = self.root, scratch = workspace.scratch
        let work = files.map { (root + "/" + $0.path, $0.bytes, $0.path) }
        DispatchQueue.global(qos: .userInitiated).async(group: preparation.group) {
            preparation.outcome = Result { () throws(TodoSyncError) in try FileSystem.prepare(work, scratch: scratch) }
        }
        preparing = preparation
    }

    /// New versions being written and flushed on another thread.
    ///
    /// NB: unchecked Sendable: `outcome` is written once on the preparing thread, inside
    /// `group`, and read only after waiting for `group`.
    private final class Preparation: @unchecked Sendable {
        let group = DispatchGroup()
        /// Set on the preparing thread, read only after waiting for `group`.
        var outcome: Result<[String: FileSystem.PreparedFile], TodoSyncError>?
    }

    /// Waits for the preparation under way, if any, and takes what it prepared.
    private func finishPreparing() throws(TodoSyncError) {
        guard let preparation = preparing else { return }
        preparation.group.wait()
        preparing = nil
        guard let outcome = preparation.outcome else { return }
        prepared.merge(try outcome.get()) { old, new in
            old.discard()
            return new
        }
    }

    func replace(_ path: String, with bytes: [UInt8]?, ifStill expected: [UInt8]?) throws(TodoSyncError) -> FileStat? {
        try finishPreparing()
        try checkNoSymbolicLink(on: path)
        let absolute = root + "/" + path
        if bytes != nil { try FileSystem.createDirectory(FileSystem.parentDirectory(of: absolute)) }
        // A version prepared for it is taken over here (what is left is removed with the store).
        return try FileSystem.replace(
            absolute, with: bytes, ifStill: expected, relativePath: path, scratch: workspace.scratch,
            prepared: prepared.removeValue(forKey: path))
    }

    deinit {
        // Prepared and never swapped in (a write stopped by an error): nothing to keep.
        try? finishPreparing()
        prepared.values.forEach { $0.discard() }
    }

    func moveReference(_ name: String, to target: OID, expecting expected: OID?, message: String) throws(TodoSyncError)
    {
        try git("moving \(name)") {
            try repository.moveReference(name, to: target, expecting: expected, message: message)
        }
    }

    func updateIndex(staged: [StagedFile], removing removed: [String]) throws(TodoSyncError) {
        try git("updating git's index") { try repository.updateIndex(staged: staged, removing: removed) }
    }
}
