import GitStore
import TodoModel

/// What `commit` did.
public struct CommitOutcome {
    /// nil: nothing had changed, no commit was made.
    public var commit: OID?
    public var message: CommitMessage
    public var unit: PendingUnit
    /// Set when no identity was configured and a fallback was used.
    public var identityWarning: String?
}

extension Workspace {
    /// Writes missing ids into the list files and makes one commit of everything that changed
    /// since HEAD: the undo unit of an editor session.
    ///
    /// Order matters for "nothing lost": files are written first (each only if it still holds
    /// what was read), then the commit, then git's index. A failure before the commit leaves
    /// ids in the files and no commit; the next run commits them.
    public func commit(summary: String? = nil, kind: UnitKind = .edit) throws(TodoSyncError) -> CommitOutcome {
        try checkReadyToCommit()
        let unit = try pending(writingBlobsAhead: true)
        // A file rewritten below gets the stat of the new bytes; the others keep the one read.
        var stats: [String: FileStat?] = unit.working.readStats.filter { !unit.assigned.changedPaths.contains($0.key) }
        for path in unit.assigned.changedPaths {
            guard let bytes = unit.finalBytes[path] ?? nil, let read = unit.working.readBytes[path] else { continue }
            stats[path] = .some(try FileSystem.replace(root + "/" + path, with: bytes, ifStill: read))
        }
        guard !unit.isEmpty else {
            return CommitOutcome(commit: nil, message: CommitMessage(summary: "Nothing changed"), unit: unit)
        }
        var message = CommitMessage.describing(unit.changes, idsWritten: unit.idsAdopted)
        if let summary {
            if message.body.isEmpty { message.body = ["- " + message.summary] }
            message.summary = summary
        }
        // Only ids written (for items committed without one): not an edit anyone would undo.
        let recorded: UnitKind = kind == .edit && unit.changes.isEmpty ? .adopt : kind
        message.trailers = [UnitTrailer.line(recorded.trailer)]

        // Copies for the next commit are written while the blobs are still being compressed:
        // their bytes are known before their names.
        var prepared: [String: BlobCopies.Prepared] = [:]
        Trace.phase("copy the lists") {
            for path in unit.changedPaths where unit.working.blobsAhead[path] != nil {
                if let bytes = unit.finalBytes[path] ?? nil { prepared[path] = blobCopies.prepare(bytes) }
            }
        }
        var copiesKept = false
        defer { if !copiesKept { for copy in prepared.values { FileSystem.removeCache(copy.temporaryPath) } } }

        var treeChanges: [String: TreeChange] = [:]
        var pieces: [OID: [UInt8]] = [:]
        for path in unit.changedPaths {
            if let bytes = unit.finalBytes[path] ?? nil {
                let ahead = unit.working.blobsAhead[path].flatMap { $0.bytes.sameBytes(as: bytes) ? $0 : nil }
                let (blob, stored) = try Trace.phase("write blob") { () throws(TodoSyncError) in
                    // NB: bytes written ahead differ from these where ids were written in.
                    guard let ahead else { return try storeBlob(bytes, path: path, over: unit.head) }
                    return (try git("storing \(path)") { try ahead.finish() }, ahead.storedPieces)
                }
                if let stored { pieces[blob] = stored }
                treeChanges[path] = .write(blob: blob, mode: unit.head.files[path]?.mode ?? TreeChange.regularFileMode)
            } else {
                treeChanges[path] = .delete
            }
        }
        let identity = Identity.resolve(for: repository)
        let parent = unit.head.commit
        let text = message.text
        let commitID = try Trace.phase("write tree and commit") { () throws(TodoSyncError) in try git("committing") {
            let tree = try repository.writeTree(base: parent?.tree, applying: treeChanges)
            return try repository.createCommit(
                tree: tree, parents: parent.map { [$0.id] } ?? [], message: text,
                author: identity.author, committer: identity.committer)
        } }
        let removed = unit.changedPaths.filter { unit.finalBytes[$0] ?? nil == nil }
        try Trace.phase("update git's index") { () throws(TodoSyncError) in
            try updateIndex(treeChanges, stats: stats, removing: removed)
        }
        if unit.diagnostics.isEmpty {
            // Assignment left every item with an id of its own: the next status need not look.
            var blobs: [String: OID] = [:]
            for (path, document) in unit.assigned.lists.documents where document.hasItems {
                if case .write(let blob, _) = treeChanges[path] { blobs[path] = blob } else { blobs[path] = unit.head.blobs[path] }
            }
            recordCheckedHead(commit: commitID, blobs: blobs)
        }
        Trace.phase("keep copies of the lists") { keepBlobCopies(over: unit.head, treeChanges, unit.finalBytes, prepared: prepared, pieces: pieces) }
        copiesKept = true
        return CommitOutcome(commit: commitID, message: message, unit: unit, identityWarning: identity.warning)
    }
}

/// What kind of undo unit a commit is, as its trailer records.
public enum UnitKind: Sendable {
    case edit, adopt, sync, command, batch

    var trailer: UnitTrailer.Kind {
        switch self {
        case .edit: .edit
        case .adopt: .adopt
        case .sync: .sync
        case .command: .command
        case .batch: .batch
        }
    }
}

extension Workspace {
    /// Makes one commit that takes HEAD's lists (`head`) to `lists`, and brings the working files
    /// along: the write path of commands, undo and redo.
    ///
    /// Every changed list file must still hold HEAD's bytes (the caller committed pending edits
    /// first). Order: files checked, commit object made, files replaced (each only if it still
    /// holds what was read), then the branch moved to the commit (only if it is still at
    /// HEAD), then git's index. A file saved meanwhile stops it with nothing changed.
    func commitLists(_ lists: ListSet, over head: HeadSnapshot, message: CommitMessage) throws(TodoSyncError) -> OID {
        guard let parent = head.commit else { throw TodoSyncError("there is no commit yet", hint: "run todosync first") }
        var finalBytes: [String: [UInt8]?] = [:]
        for path in Set(head.files.keys).union(lists.documents.keys).sorted() {
            let bytes = lists[path]?.render()
            if !sameBytes(bytes, head.files[path]?.bytes) { finalBytes[path] = bytes }
        }
        for path in finalBytes.keys { try FileSystem.expect(root + "/" + path, holds: head.files[path]?.bytes) }
        var treeChanges: [String: TreeChange] = [:]
        var pieces: [OID: [UInt8]] = [:]
        for (path, bytes) in finalBytes {
            if let bytes {
                let (blob, stored) = try storeBlob(bytes, path: path, over: head)
                if let stored { pieces[blob] = stored }
                treeChanges[path] = .write(blob: blob, mode: head.files[path]?.mode ?? TreeChange.regularFileMode)
            } else {
                treeChanges[path] = .delete
            }
        }
        let identity = Identity.resolve(for: repository)
        let text = message.text
        let commitID = try git("committing") {
            let tree = try repository.writeTree(base: parent.tree, applying: treeChanges)
            return try repository.createCommit(
                tree: tree, parents: [parent.id], message: text, author: identity.author, committer: identity.committer,
                updating: nil)
        }
        let (stats, removed) = try writeListFiles(finalBytes) { head.files[$0]?.bytes }
        guard case .branch(let branch, _) = try git("reading HEAD", { try repository.head() }) else {
            throw TodoSyncError("HEAD is detached; todosync commits only on a branch")
        }
        do {
            try repository.moveReference("refs/heads/" + branch, to: commitID, expecting: parent.id, message: "todosync: " + message.summary)
        } catch {
            throw TodoSyncError(
                "\(branch) moved while todosync was working (another commit was made); the list files hold the change, not committed",
                hint: "run todosync to commit them")
        }
        try updateIndex(treeChanges, stats: stats, removing: removed)
        keepBlobCopies(over: head, treeChanges, finalBytes, pieces: pieces)
        return commitID
    }

    /// Stores a list file's new bytes as a blob, compressed in pieces that reuse those kept
    /// for HEAD's version of the file (a one-line change compresses a piece or two, not the
    /// file); returns the blob and its pieces to keep. Falls back to libgit2 compressing it whole.
    func storeBlob(_ bytes: [UInt8], path: String, over head: HeadSnapshot) throws(TodoSyncError) -> (OID, pieces: [UInt8]?) {
        let previous = head.blobs[path].map { blobCopies.piecesPath(of: $0) }
        if let written = try? repository.writeBlobAhead(bytes, reusingPiecesAt: previous, previousBytes: head.files[path]?.bytes),
            let blob = try? written.finish()
        {
            return (blob, written.storedPieces)
        }
        return (try git("storing \(path)") { try repository.writeBlob(bytes) }, nil)
    }

    /// Writes (or removes, for nil) each list file, each only if it still holds `expected(path)`.
    /// Returns the written files' stats and the paths removed, for git's index.
    func writeListFiles(
        _ finalBytes: [String: [UInt8]?], expected: (String) -> [UInt8]?
    ) throws(TodoSyncError) -> (written: [String: FileStat?], removed: [String]) {
        var written: [String: FileStat?] = [:], removed: [String] = []
        for (path, bytes) in finalBytes.sorted(by: { $0.key < $1.key }) {
            let absolute = root + "/" + path
            if let bytes {
                try FileSystem.createDirectory(FileSystem.parentDirectory(of: absolute))
                written[path] = .some(try FileSystem.replace(absolute, with: bytes, ifStill: expected(path)))
            } else if let old = expected(path) {
                try FileSystem.remove(absolute, ifStill: old)
                removed.append(path)
            }
        }
        return (written, removed)
    }

    /// Brings git's index in step with the list files just committed: each written file enters
    /// with the blob committed for it and the stat taken when its bytes were read or written
    /// (none if unsure), so nothing is read or hashed again.
    func updateIndex(_ treeChanges: [String: TreeChange], stats: [String: FileStat?], removing removed: [String]) throws(TodoSyncError) {
        var staged: [StagedFile] = []
        for (path, change) in treeChanges.sorted(by: { $0.key < $1.key }) {
            guard case .write(let blob, let mode) = change else { continue }
            staged.append(StagedFile(path: path, blob: blob, mode: mode, stat: stats[path] ?? nil))
        }
        try git("updating git's index") { try repository.updateIndex(staged: staged, removing: removed) }
    }
}
