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
        let unit = try pending()
        for path in unit.assigned.changedPaths {
            guard let bytes = unit.finalBytes[path] ?? nil, let read = unit.working.readBytes[path] else { continue }
            try FileSystem.replace(root + "/" + path, with: bytes, ifStill: read)
        }
        guard !unit.isEmpty else {
            return CommitOutcome(commit: nil, message: CommitMessage(summary: "Nothing changed"), unit: unit)
        }
        var message = CommitMessage.describing(unit.changes, idsWritten: unit.idsAdopted)
        if let summary {
            if message.body.isEmpty { message.body = ["- " + message.summary] }
            message.summary = summary
        }
        message.trailers = [UnitTrailer.line(kind.trailer)]

        var treeChanges: [String: TreeChange] = [:]
        for path in unit.changedPaths {
            if let bytes = unit.finalBytes[path] ?? nil {
                let blob = try git("storing \(path)") { try repository.writeBlob(bytes) }
                treeChanges[path] = .write(blob: blob, mode: unit.head.files[path]?.mode ?? TreeChange.regularFileMode)
            } else {
                treeChanges[path] = .delete
            }
        }
        let identity = Identity.resolve(for: repository)
        let parent = unit.head.commit
        let text = message.text
        let commitID = try git("committing") {
            let tree = try repository.writeTree(base: parent?.tree, applying: treeChanges)
            return try repository.createCommit(
                tree: tree, parents: parent.map { [$0.id] } ?? [], message: text,
                author: identity.author, committer: identity.committer)
        }
        let written = unit.changedPaths.filter { unit.finalBytes[$0] ?? nil != nil }
        let removed = unit.changedPaths.filter { unit.finalBytes[$0] ?? nil == nil }
        try git("updating git's index") { try repository.updateIndex(adding: written, removing: removed) }
        return CommitOutcome(commit: commitID, message: message, unit: unit, identityWarning: identity.warning)
    }
}

/// What kind of undo unit a commit is, as its trailer records.
public enum UnitKind: Sendable {
    case edit, adopt, sync

    var trailer: UnitTrailer.Kind {
        switch self {
        case .edit: .edit
        case .adopt: .adopt
        case .sync: .sync
        }
    }
}
