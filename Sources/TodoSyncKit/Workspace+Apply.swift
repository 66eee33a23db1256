#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import TodoModel

extension Workspace {
    /// Applies a plan: the one function through which todosync changes a repository.
    ///
    /// Always in this order, each expectation checked when it matters (docs/RELIABILITY.md):
    /// 1. git's locks are free and the branch is where the plan found it; every list file
    ///    still holds what was read;
    /// 2. blobs, tree and commit are written (nothing refers to them yet; a blob stored ahead
    ///    while the plan was worked out is not written again), and meanwhile the list files'
    ///    new versions are written and flushed in the git directory, out of sight;
    /// 3. the journal names the write (so a stop from here on is finished by the next run);
    /// 4. files that are not lists are checked out (a sync), refusing over the user's edits;
    /// 5. list files are replaced, each only if it still holds what was read;
    /// 6. the branch moves, only if it still points where it did;
    /// 7. git's index takes the committed blobs and the written files' stats (with no commit:
    ///    the lists that settle a git merge's conflicts);
    /// 8. the journal is removed (then the post-commit hook runs);
    /// 9. where the branch moved, the calendar feed `todosync.icsFile` names is written again
    ///    if it changed (derived output: a failure is told, the write stands).
    /// A failure before step 6 leaves the branch and git's index as they were; files written
    /// by then hold edits the next run commits. Must run under the write lock.
    func apply(_ plan: WritePlan) throws(TodoSyncError) -> AppliedPlan {
        precondition(holdsWriteLock, "apply runs under the write lock")
        let store = DiskStore(self)
        var notices: [String] = []
        defer {
            notices.forEach(notice)
            if let warning = store.identityWarning { identityWarning = warning }
        }
        let applied = try Self.apply(plan, to: store, notices: &notices)
        if plan.target != nil { refreshCalendarFeed() }
        return applied
    }

    /// `apply` on any store (tests use a strict in-memory one); what the user should be told
    /// is added to `notices`.
    static func apply(
        _ plan: WritePlan, to store: some WriteStore, notices: inout [String]
    ) throws(TodoSyncError) -> AppliedPlan {
        try store.checkGitLocks(branch: plan.branch)
        let (plan, outsideSparseCheckout) = try leavingOutSparseFiles(plan, store)
        let current = try store.reference(plan.branch)
        guard current == plan.expectedHead else { throw branchMoved(plan.branch) }
        for file in plan.files { try store.expect(file.path, holds: file.expected) }
        stop(after: .checked)

        // NB: the new versions of the files are got ready (in the git directory, out of sight)
        // while the objects are written.
        try store.prepareReplacements(
            plan.files.compactMap { file in file.rewrites ? file.final.map { (file.path, $0) } : nil })
        let (commit, committed) = try Trace.phase("write objects") { () throws(TodoSyncError) in
            try writeObjects(plan, store)
        }
        stop(after: .objects)

        if let commit {
            var files: [String: OID?] = [:]
            for file in plan.files where file.rewrites && !file.untracks {
                files[file.path] = .some(committed[file.path]?.blob)
            }
            try store.writeJournal(
                WriteJournal(
                    branch: plan.branch, expected: plan.expectedHead, target: commit.id, files: files,
                    outsideSparseCheckout: outsideSparseCheckout,
                    untracked: plan.files.filter(\.untracks).map(\.path)))
        }
        stop(after: .journal)

        let stats: [String: FileStat]
        do {
            if let other = plan.otherFiles, let commit {
                try store.checkout(tree: commit.tree, paths: other.paths, baseline: other.baseline)
            }
            stop(after: .otherFiles)
            stats = try Trace.phase("write list files") { () throws(TodoSyncError) in try writeListFiles(plan, store) }
            stop(after: .files)
            if let commit { try moveBranch(plan, to: commit.id, store) }
        } catch {
            // The branch did not move: there is nothing for a later run to finish.
            store.removeJournal()
            throw error
        }
        guard let commit else {
            if !plan.settles.isEmpty { try settleConflicts(plan, committed, stats, store) }
            return AppliedPlan(commit: nil)
        }
        stop(after: .branch)

        var staged: [StagedFile] = [], removed: [String] = []
        for file in plan.files {
            if file.final == nil || file.untracks {
                removed.append(file.path)
            } else if let entry = committed[file.path] {
                staged.append(
                    StagedFile(
                        path: file.path, blob: entry.blob, mode: entry.mode,
                        stat: file.differsFromCommit ? nil : stats[file.path]))
            }
        }
        staged += try stagedOutsideSparseCheckout(outsideSparseCheckout, of: commit.tree, store, removing: &removed)
        let listBlobs = committed.mapValues(\.blob)
        do {
            try Trace.phase("update git's index") { () throws(TodoSyncError) in
                try store.updateIndex(staged: staged, removing: removed)
            }
        } catch {
            // The commit is made; the journal stays, and the next run brings the index along.
            notices.append(
                "the commit is made, but git's index could not be updated (\(error.message)); the next todosync updates it"
            )
            return AppliedPlan(commit: commit.id, listBlobs: listBlobs)
        }
        stop(after: .index)
        store.removeJournal()
        stop(after: .done)
        if case .new = plan.target { store.afterCommit(commit) }
        return AppliedPlan(commit: commit.id, listBlobs: listBlobs)
    }

    /// The plan without the files outside a sparse checkout that it changes, and those files:
    /// a sync changes them in git's index only (as git's merge does), anything else refuses.
    private static func leavingOutSparseFiles(
        _ plan: WritePlan, _ store: some WriteStore
    ) throws(TodoSyncError) -> (WritePlan, [String]) {
        let changed = plan.files.filter(\.rewrites).map(\.path) + (plan.otherFiles?.paths ?? [])
        guard !changed.isEmpty else { return (plan, []) }
        let outside = try store.pathsSkippingWorktree(changed)
        guard let first = outside.sorted().first else { return (plan, []) }
        guard plan.updatesFilesOutsideSparseCheckout else {
            let folder = first.split(separator: "/").dropLast().joined(separator: "/")
            throw TodoSyncError(
                "\(first) is outside the sparse checkout (git sparse-checkout), so todosync cannot change it here; nothing was changed",
                hint: "bring it into the checkout: git sparse-checkout add \(folder.isEmpty ? first : folder)")
        }
        var kept = plan
        kept.files.removeAll { outside.contains($0.path) }
        kept.otherFiles?.paths.removeAll(where: outside.contains)
        return (kept, outside.sorted())
    }

    /// git's index entries for files outside a sparse checkout, as `tree` holds them (kept
    /// skip-worktree); a path the tree lacks is added to `removed`.
    static func stagedOutsideSparseCheckout(
        _ paths: [String], of tree: OID, _ store: some WriteStore, removing removed: inout [String]
    ) throws(TodoSyncError) -> [StagedFile] {
        guard !paths.isEmpty else { return [] }
        let wanted = Set(paths)
        let files = try store.files(inTree: tree, among: wanted)
        removed += wanted.subtracting(files.map(\.path)).sorted()
        return files.map { StagedFile(path: $0.path, blob: $0.blob, mode: $0.mode, stat: nil, skipsWorktree: true) }
    }

    /// Step 7 with no commit: git's index takes each merged list at stage 0 in place of the
    /// conflict git left on it.
    private static func settleConflicts(
        _ plan: WritePlan, _ blobs: [String: TreeFile], _ stats: [String: FileStat], _ store: some WriteStore
    ) throws(TodoSyncError) {
        let staged = plan.settles.keys.sorted().compactMap { path -> StagedFile? in
            guard let file = blobs[path] else { return nil }
            return StagedFile(
                path: path, blob: file.blob, mode: file.mode, stat: stats[path], settles: plan.settles[path])
        }
        try store.updateIndex(staged: staged, removing: [])
    }

    private static func moveBranch(_ plan: WritePlan, to commit: OID, _ store: some WriteStore) throws(TodoSyncError) {
        do {
            try store.moveReference(plan.branch, to: commit, expecting: plan.expectedHead, message: plan.reflogMessage)
        } catch {
            throw branchMoved(plan.branch, afterFiles: plan.files.contains(where: \.rewrites))
        }
    }

    /// Step 5: each list file replaced (or checked, if committed as read); their stats for
    /// git's index.
    private static func writeListFiles(
        _ plan: WritePlan, _ store: some WriteStore
    ) throws(TodoSyncError) -> [String: FileStat] {
        var stats: [String: FileStat] = [:]
        for (index, file) in plan.files.enumerated() {
            if file.rewrites {
                if let stat = try store.replace(file.path, with: file.final, ifStill: file.expected) {
                    stats[file.path] = stat
                }
            } else {
                // Committed as read: checked once more, so a save made meanwhile is not taken half-read.
                try store.expect(file.path, holds: file.expected)
                if let stat = plan.readStats[file.path] { stats[file.path] = stat }
            }
            if index == 0, plan.files.count > 1 { stop(after: .firstFile) }
        }
        return stats
    }

    /// The commit the plan moves the branch to, written if new, and each list file of the
    /// plan as that commit holds it (a file it removes is not there).
    private static func writeObjects(
        _ plan: WritePlan, _ store: some WriteStore
    ) throws(TodoSyncError) -> (Commit?, [String: TreeFile]) {
        let paths = Set(plan.files.map(\.path))
        switch plan.target {
        case nil:
            // Lists that settle a git merge's conflicts are staged: their blobs first.
            let settling = plan.files.compactMap { file in
                plan.settles[file.path] != nil ? file.final.map { (file.path, $0) } : nil
            }
            var staged: [String: TreeFile] = [:]
            for ((path, _), blob) in zip(settling, try store.writeBlobs(settling)) {
                let conflict = plan.settles[path]
                let mode = conflict?.ours?.mode ?? conflict?.theirs?.mode ?? TreeChange.regularFileMode
                staged[path] = TreeFile(path: path, blob: blob, mode: mode)
            }
            return (nil, staged)
        case .existing(let commit):
            return (commit, try listFiles(of: commit.tree, paths, store))
        case .new(let new):
            var changes: [String: TreeChange] = [:]
            var unstored: [(path: String, bytes: [UInt8])] = []
            for (path, bytes) in new.lists.sorted(by: { $0.key < $1.key }) {
                if let bytes {
                    if let stored = new.storedBlobs[path] {
                        changes[path] = .write(blob: stored, mode: new.modes[path] ?? TreeChange.regularFileMode)
                    } else {
                        unstored.append((path, bytes))
                    }
                } else {
                    changes[path] = .delete
                }
            }
            // NB: in one call: many blobs (a vault adopted) are stored as a pack.
            for (file, blob) in zip(unstored, try store.writeBlobs(unstored)) {
                changes[file.path] = .write(blob: blob, mode: new.modes[file.path] ?? TreeChange.regularFileMode)
            }
            let tree = try store.writeTree(base: new.baseTree, applying: changes)
            let commit = try store.createCommit(tree: tree, parents: new.parents, message: new.message.text)
            return (commit, try listFiles(of: commit.tree, paths, store))
        }
    }

    private static func listFiles(
        of tree: OID, _ paths: Set<String>, _ store: some WriteStore
    ) throws(TodoSyncError) -> [String: TreeFile] {
        var result: [String: TreeFile] = [:]
        for file in try store.files(inTree: tree, among: paths) { result[file.path] = file }
        return result
    }

    private static func branchMoved(_ branch: String, afterFiles: Bool = false) -> TodoSyncError {
        let name = branch.hasPrefix("refs/heads/") ? String(branch.dropFirst(11)) : branch
        var error = TodoSyncError(
            afterFiles
                ? "\(name) moved while todosync was working (a commit was made meanwhile); the list files hold the change, not committed"
                : "\(name) moved while todosync was working (a commit was made meanwhile); nothing was changed",
            hint: "run todosync again")
        error.isChangedMeanwhile = true
        return error
    }

    /// Called after each step of `apply` with the step's name (`objects`, `journal`, `files`,
    /// `branch`, …: `WritePlan.Step`). The crash tests' stop: the command-line tool ends the
    /// process right after the step `TODOSYNC_TEST_STOP_AFTER` names, as a crash or `kill -9`
    /// would, and the next run must converge. Set once at start-up, before any write.
    nonisolated(unsafe) public static var afterWriteStep: (@Sendable (String) -> Void)?

    static func stop(after step: WritePlan.Step) {
        afterWriteStep?(step.rawValue)
    }
}

extension Workspace {
    func writeJournal(_ journal: WriteJournal) throws(TodoSyncError) {
        guard let bytes = journal.encoded() else {
            throw TodoSyncError(
                "a list's path holds a line break; todosync cannot record it",
                hint: "rename the file to a name without a line break (git mv), then run todosync again")
        }
        // NB: not flushed: lost in a power cut, it only means the files written after it are
        // committed as edits by the next run, not as this command.
        let temporary = try FileSystem.temporaryFile(in: scratch.temporary, holding: bytes, mode: 0o644)
        close(temporary.fd)
        guard rename(temporary.path, scratch.journal) == 0 else {
            unlink(temporary.path)
            throw FileSystem.failure("cannot write \(scratch.journal)")
        }
    }

    func removeJournal() {
        unlink(scratch.journal)
    }

    /// Finishes a write a stopped run left (its journal), under the write lock: see the static
    /// `finishInterruptedWrite(in:notices:)`.
    func finishInterruptedWrite() throws(TodoSyncError) {
        var notices: [String] = []
        defer { notices.forEach(notice) }
        try Self.finishInterruptedWrite(in: DiskStore(self), notices: &notices)
    }

    /// Finishes a write a stopped run left (its journal): moves the branch if every file it
    /// wrote holds what it wrote and the branch has not moved, and brings git's index along.
    /// Where the files or the branch moved on, the journal is dropped: the files are then
    /// committed as edits by the command that follows.
    static func finishInterruptedWrite(in store: some WriteStore, notices: inout [String]) throws(TodoSyncError) {
        guard let journal = store.readJournal() else { return }
        defer { store.removeJournal() }
        let current = try store.reference(journal.branch)
        guard current == journal.target || current == journal.expected else { return }
        let target = try store.commit(journal.target)
        var staged: [StagedFile] = []
        for file in try store.files(inTree: target.tree, among: Set(journal.files.keys)) {
            guard let found = try store.readFile(file.path) else { continue }
            let blob = try store.blobID(of: found.bytes, path: file.path)
            if blob == file.blob {
                staged.append(StagedFile(path: file.path, blob: blob, mode: file.mode, stat: found.stat))
            }
        }
        var removed = journal.untracked
        for (path, blob) in journal.files where blob == nil {
            let found = try store.readFile(path)
            if found == nil { removed.append(path) }
        }
        if current == journal.expected {
            guard staged.count + removed.count == journal.files.count + journal.untracked.count else { return }
            try store.checkGitLocks(branch: journal.branch)
            try store.moveReference(
                journal.branch, to: journal.target, expecting: journal.expected,
                message: "todosync: finish an interrupted commit")
            notices.append("finished a commit an earlier todosync was stopped in: \(target.summary)")
        }
        staged += try stagedOutsideSparseCheckout(
            journal.outsideSparseCheckout, of: target.tree, store, removing: &removed)
        try store.updateIndex(staged: staged, removing: removed)
    }
}
