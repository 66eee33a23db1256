import GitStore
import TodoModel

/// One undo or redo step.
public struct UndoStep {
    /// The commit made.
    public var commit: OID
    public var message: CommitMessage
    /// What a later edit kept from being reverted (it wins), in words.
    public var notReverted: [String]
}

/// What `undo` or `redo` did.
public struct UndoOutcome {
    /// Edits pending in the files, committed first as their own unit.
    public var pendingCommit: CommitOutcome?
    public var steps: [UndoStep] = []
}

extension Workspace {
    /// Inverts the newest unit not undone yet, `count` times: each a new commit, made by the
    /// item-by-item merge, so later edits stay and win where they touched the same field.
    public func undo(_ count: Int = 1) throws(TodoSyncError) -> UndoOutcome {
        try step(count, redo: false)
    }

    /// Applies again the newest undone unit (if no new unit came since), `count` times.
    public func redo(_ count: Int = 1) throws(TodoSyncError) -> UndoOutcome {
        try step(count, redo: true)
    }

    /// The newest `count` entries of the undo history (units, undos, redos), and which are undone.
    public func log(_ count: Int) throws(TodoSyncError) -> [(entry: HistoryEntry, undone: Bool)] {
        guard case .branch(_, let head) = try git("reading HEAD", { try repository.head() }) else { return [] }
        let history = FirstParentHistory(self, from: head)
        var undone = Set<String>()
        var result: [(entry: HistoryEntry, undone: Bool)] = []
        for entry in history {
            switch entry.entry {
            case .none: continue
            case .undo(let target): undone.insert(target)
            case .redo(let target): undone.insert(target)
            case .unit: break
            }
            result.append((entry, undone.contains(entry.commit.description)))
            if result.count == count { break }
        }
        if let failure = history.failure { throw failure }
        if history.endsInShallowHistory, result.count < count {
            notice("this clone has shallow history (made with git clone --depth): the log ends where it does; git fetch --unshallow fetches the rest")
        }
        return result
    }

    private func step(_ count: Int, redo: Bool) throws(TodoSyncError) -> UndoOutcome {
        try writing { () throws(TodoSyncError) in
            try retryingAfterSaves { () throws(TodoSyncError) in try stepLocked(count, redo: redo) }
        }
    }

    private func stepLocked(_ count: Int, redo: Bool) throws(TodoSyncError) -> UndoOutcome {
        try checkReadyToCommit()
        let pending = try commit()
        var outcome = UndoOutcome(pendingCommit: pending.commit == nil ? nil : pending)
        for _ in 0..<max(1, count) {
            guard case .branch(_, let head) = try git("reading HEAD", { try repository.head() }) else { break }
            let history = FirstParentHistory(self, from: head)
            let entries = history.lazy.map { (id: $0.commit.description, entry: $0.entry) }
            let target = redo ? UndoStack.redoTargets(entries, count: 1).first : UndoStack.undoTargets(entries, count: 1).first
            if let failure = history.failure { throw failure }
            guard let target, let id = OID(hex: target) else { break }
            outcome.steps.append(try invert(id, redo: redo))
        }
        return outcome
    }

    /// A commit that takes back what `target` did to the lists (an undo of a unit, or a redo:
    /// the undo of an undo), merged onto HEAD so later edits stay.
    private func invert(_ target: OID, redo: Bool) throws(TodoSyncError) -> UndoStep {
        guard let headRead = try readHeadTree().map({ (tree) throws(TodoSyncError) in try readHead(tree) }) else {
            throw TodoSyncError("there is no commit yet")
        }
        // Usually the unit is HEAD itself: read and parsed once.
        let unitRead = headRead.commit?.id == target ? headRead : try readCommit(target)
        guard let unitCommit = unitRead.commit else { throw TodoSyncError("cannot read commit \(target.short)") }
        let parentRead = try unitCommit.parents.first.map { (id) throws(TodoSyncError) in try readCommit(id) }
        let shared = try sharingFiles([headRead, unitRead] + (parentRead.map { [$0] } ?? []))
        let head = shared[0]
        let before = parentRead == nil ? ListSet() : shared[2].base.lists
        let after = shared[1].base.lists
        let merged = ListMerge.merge(base: after, ours: head.base.lists, theirs: before, keepingOurs: true)
        let changes = ListSet.changes(from: head.base.lists, to: merged.lists)

        let what = Self.unitName(unitCommit.summary, redo: redo)
        var message = CommitMessage(summary: (redo ? "Redo: " : "Undo: ") + what)
        message.body = changes.map { "- " + $0.phrase }
        let notReverted = merged.reports.map(\.description)
        if !notReverted.isEmpty {
            if !message.body.isEmpty { message.body.append("") }
            message.body.append("Not reverted (a later edit changed it too, and wins):")
            message.body += notReverted.map { "- " + $0 }
        }
        message.trailers = redo
            ? [UnitTrailer.line(.redo), "\(UnitTrailer.redoesKey): \(target)"]
            : [UnitTrailer.line(.undo), "\(UnitTrailer.undoesKey): \(target)"]
        let commit = try commitLists(merged.lists, over: head, message: message)
        return UndoStep(commit: commit, message: message, notReverted: notReverted)
    }

    /// "Check "milk"" for a unit; for the undo a redo takes back, the unit it undid.
    static func unitName(_ summary: String, redo: Bool) -> String {
        if redo, summary.hasPrefix("Undo: ") { return String(summary.dropFirst(6)) }
        return summary
    }
}
