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
    /// A list saved while this runs is read again and taken into the unit (a few times; a
    /// file that keeps changing stops it with nothing changed).
    ///
    /// `alongside`: files that are not lists, committed with the unit as the working tree holds
    /// them where they differ from HEAD (the `.gitattributes` that `init` writes), each with
    /// the line the message says of it.
    public func commit(
        summary: String? = nil, kind: UnitKind = .edit, alongside: [String: String] = [:]
    ) throws(TodoSyncError) -> CommitOutcome {
        try writing { () throws(TodoSyncError) in
            try checkReadyToCommit()
            let outcome = try retryingAfterSaves { () throws(TodoSyncError) in
                try commitOnce(summary: summary, kind: kind, alongside: alongside)
            }
            if outcome.commit != nil { restampKnownIndex() }
            return outcome
        }
    }

    /// How many times a write is worked out again after a list changed under it.
    static let rereadAttempts = 5

    /// Runs `body` again, up to `rereadAttempts` times, while it fails because a list changed
    /// under it (an editor saved): each run reads the files afresh (and a command first
    /// commits the new save as its own unit).
    func retryingAfterSaves<T>(_ body: () throws(TodoSyncError) -> T) throws(TodoSyncError) -> T {
        var attempt = 1
        while true {
            do throws(TodoSyncError) {
                return try body()
            } catch let error where error.isChangedMeanwhile && attempt < Self.rereadAttempts {
                attempt += 1
            }
        }
    }

    private func commitOnce(
        summary: String?, kind: UnitKind, alongside: [String: String]
    ) throws(TodoSyncError) -> CommitOutcome {
        // One reading pass, to the note recorded after the commit.
        try readingPass { () throws(TodoSyncError) in
            try commitInPass(summary: summary, kind: kind, alongside: alongside)
        }
    }

    private func commitInPass(
        summary: String?, kind: UnitKind, alongside: [String: String]
    ) throws(TodoSyncError) -> CommitOutcome {
        let unit = try pending(storingBlobsAhead: true, shortcuts: alongside.isEmpty)
        if let blocker = unit.blockers.first {
            let binary = blocker.message.contains("NUL byte")
            throw TodoSyncError(
                blocker.description,
                hint: binary
                    ? "if it was saved over by mistake, get it back with git restore \(blocker.file); a file meant to be binary is no list: add '/\(blocker.file) -todosync' to .gitattributes"
                    : "keep the lines you want, delete the marker lines (<<<<<<<, =======, >>>>>>>), then run todosync again"
            )
        }
        let others = try changedSinceHead(alongside.keys.sorted(), head: unit.head.commit)
        guard let branch = try branchReference() else { throw detachedHead() }
        var message = CommitMessage.describing(unit.changes, idsWritten: unit.idsAdopted, files: unit.changedPaths)
        if let summary {
            if message.body.isEmpty { message.body = ["- " + message.summary] }
            message.summary = summary
        }
        // Only ids written (for items committed without one): not an edit anyone would undo. A
        // session that changed prose alone is an edit like any other.
        let recorded: UnitKind = kind == .edit && unit.onlyWritesIDs ? .adopt : kind
        message.trailers = [UnitTrailer.line(recorded.trailer)]
        for path in others.keys.sorted() { message.body.append("- " + (alongside[path] ?? path)) }
        let plan = Self.plan(
            unit, others: others, branch: branch, message: message, storedBlobs: try storedBlobs(of: unit))
        guard !plan.isEmpty else {
            return CommitOutcome(commit: nil, message: CommitMessage(summary: "Nothing changed"), unit: unit)
        }
        let applied = try apply(plan)
        guard let commit = applied.commit else {
            return CommitOutcome(commit: nil, message: CommitMessage(summary: "Nothing changed"), unit: unit)
        }
        if unit.diagnostics.isEmpty {
            // Assignment left every item with an id of its own: the next status need not look.
            var blobs: [String: OID] = [:]
            // A list holding a clash is left out: every pass reads it (`PendingUnit.clashes`).
            for (path, document) in unit.assigned.lists.documents where try isList(document) && !document.mayHoldClashes
            {
                blobs[path] = applied.listBlobs[path] ?? unit.head.blobs[path]
            }
            recordCheckedHead(commit: commit, blobs: blobs)
        }
        return CommitOutcome(commit: commit, message: message, unit: unit, identityWarning: identityWarning)
    }

    /// The write that commits a pending unit: ids written into the files that get them, the
    /// other changed files committed as read (and checked again before the commit).
    /// `others`: files that are not lists, committed as read (checked, never rewritten).
    static func plan(
        _ unit: PendingUnit, others: [String: [UInt8]] = [:], branch: String, message: CommitMessage,
        storedBlobs: [String: OID] = [:]
    ) -> WritePlan {
        var files: [WritePlan.FileWrite] = []
        for (path, final) in unit.finalBytes.sorted(by: { $0.key < $1.key }) {
            files.append(WritePlan.FileWrite(path: path, expected: unit.working.readBytes[path] ?? nil, final: final))
        }
        for (path, bytes) in others.sorted(by: { $0.key < $1.key }) {
            files.append(WritePlan.FileWrite(path: path, expected: bytes, final: bytes))
        }
        var target: WritePlan.Target?
        if !unit.changedPaths.isEmpty || !others.isEmpty {
            var lists: [String: [UInt8]?] = [:], modes: [String: UInt32] = [:]
            for path in unit.changedPaths {
                lists[path] = .some(unit.finalBytes[path] ?? nil)
                if let mode = unit.head.files[path]?.mode { modes[path] = mode }
            }
            for (path, bytes) in others { lists[path] = .some(bytes) }
            let parent = unit.head.commit
            target = .new(
                WritePlan.NewCommit(
                    parents: parent.map { [$0.id] } ?? [], baseTree: parent?.tree, lists: lists, modes: modes,
                    message: message,
                    storedBlobs: storedBlobs))
        }
        return WritePlan(
            branch: branch, expectedHead: unit.head.commit?.id, target: target, files: files,
            readStats: unit.working.readStats, reflogMessage: "todosync: " + message.summary)
    }

    /// The working bytes of each of `paths` that differs from `head`'s version (a file that is
    /// gone is left as committed).
    private func changedSinceHead(_ paths: [String], head: Commit?) throws(TodoSyncError) -> [String: [UInt8]] {
        var changed: [String: [UInt8]] = [:]
        for path in paths {
            guard let bytes = try FileSystem.read(root + "/" + path) else { continue }
            if let head,
                let file = try git(
                    "reading \(path) from the last commit", { try repository.file(at: path, inTree: head.tree) })
            {
                let committed = try git("reading \(path) from the last commit") { try repository.blob(file.blob) }
                if committed.sameBytes(as: try storedBytes(bytes, at: path)) { continue }
            }
            changed[path] = bytes
        }
        return changed
    }

    /// The blobs stored ahead for `unit` that hold a file's final bytes; the others are
    /// stopped (a file that got ids written has other bytes: its blob is written with the
    /// commit). Every write has ended when this returns, so none outlives the write lock.
    private func storedBlobs(of unit: PendingUnit) throws(TodoSyncError) -> [String: OID] {
        var stored: [String: OID] = [:]
        for (path, write) in unit.blobsStoredAhead {
            let needed = if case let final?? = unit.finalBytes[path] { write.bytes.sameBytes(as: final) } else { false }
            if !needed { write.stop() }
            let id = try Trace.phase("wait for \(path)'s blob, stored ahead") { () throws(TodoSyncError) in
                try git("storing \(path)") { try write.id() }
            }
            if needed { stored[path] = id }
        }
        return stored
    }

    /// `refs/heads/<branch>` for the branch HEAD names (with or without commits); nil when detached.
    func branchReference() throws(TodoSyncError) -> String? {
        try branch().map { "refs/heads/" + $0 }
    }

    func detachedHead(doing what: String = "commits") -> TodoSyncError {
        TodoSyncError("HEAD is detached; todosync \(what) only on a branch", hint: detachedHeadHint())
    }

    /// What to do on a detached HEAD, in steps that work with edits in the lists: `git switch`
    /// alone refuses to carry edits to a commit where those files differ.
    func detachedHeadHint() -> String {
        let branches = ((try? repository.referenceNames(matching: "refs/heads/*")) ?? []).map {
            String($0.dropFirst("refs/heads/".count))
        }
        let back =
            branches.contains("main") ? "main" : branches.contains("master") ? "master" : branches.first ?? "main"
        return "to go on from here, make a branch of it (your edits come along): git switch -c NEW-BRANCH; "
            + "to go back to \(back) with your edits: git stash && git switch \(back) && git stash pop; then run todosync again"
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
    /// along: the write of item commands, undo and redo. Every changed list file must still hold
    /// HEAD's bytes (the caller committed pending edits first, under the same write lock).
    /// `untracking`: files the commit drops from the tree while their working file is left
    /// holding these bytes, untracked (nil bytes: the file goes).
    func commitLists(
        _ lists: ListSet, over head: HeadSnapshot, message: CommitMessage, untracking: [String: [UInt8]?] = [:]
    ) throws(TodoSyncError) -> OID {
        guard let branch = try branchReference() else { throw detachedHead() }
        var files: [WritePlan.FileWrite] = []
        var changed: [String: [UInt8]?] = [:], modes: [String: UInt32] = [:]
        for path in Set(head.files.keys).union(lists.documents.keys).sorted() {
            if let kept = untracking[path] {
                files.append(
                    WritePlan.FileWrite(
                        path: path, expected: head.files[path]?.bytes, final: kept, untracks: kept != nil))
                changed[path] = .some(nil)
                continue
            }
            let bytes = lists[path]?.render()
            guard !sameBytes(bytes, head.files[path]?.bytes) else { continue }
            files.append(WritePlan.FileWrite(path: path, expected: head.files[path]?.bytes, final: bytes))
            changed[path] = .some(bytes)
            if let mode = head.files[path]?.mode { modes[path] = mode }
        }
        // No commit yet (a new repository's first item): the first commit, on no parent.
        let parent = head.commit
        let plan = WritePlan(
            branch: branch, expectedHead: parent?.id,
            target: .new(
                WritePlan.NewCommit(
                    parents: parent.map { [$0.id] } ?? [], baseTree: parent?.tree, lists: changed, modes: modes,
                    message: message)),
            files: files, reflogMessage: "todosync: " + message.summary)
        let applied = try apply(plan)
        guard let commit = applied.commit else {
            throw TodoSyncError("the commit was not made", hint: "run the command again")
        }
        recordCheckedHead(commit: commit, over: head, lists: lists, changed: changed, listBlobs: applied.listBlobs)
        return commit
    }
}
