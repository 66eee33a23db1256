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
    /// Inverts the newest unit made on this clone and not undone yet, `count` times: each a
    /// new commit, made by the item-by-item merge, so later edits stay and win where they
    /// touched the same field. Units that came in by a sync or a pull are not this clone's
    /// to undo by default (`undo(unit:)` names any).
    public func undo(_ count: Int = 1) throws(TodoSyncError) -> UndoOutcome {
        try step(count, redo: false)
    }

    /// Applies again the newest undo made here (if no new unit of this clone came since),
    /// `count` times.
    public func redo(_ count: Int = 1) throws(TodoSyncError) -> UndoOutcome {
        try step(count, redo: true)
    }

    /// Inverts the unit `revision` names (a commit id from `todosync log`, or any revision git
    /// reads), wherever it was made, as one new commit.
    public func undo(unit revision: String) throws(TodoSyncError) -> UndoOutcome {
        try writing { () throws(TodoSyncError) in
            try retryingAfterSaves { () throws(TodoSyncError) in
                try checkReadyToCommit()
                let pending = try commit()
                var outcome = UndoOutcome(pendingCommit: pending.commit == nil ? nil : pending)
                guard case .branch(_, let head) = try git("reading HEAD", { try repository.head() }) else {
                    throw detachedHead()
                }
                guard let target = try git("reading \(revision)", { try repository.commitID(named: revision) }),
                    try git("reading history", { try repository.contains(target, inHistoryOf: head) })
                else {
                    throw TodoSyncError(
                        "'\(revision)' names no unit of this branch; nothing was changed",
                        hint: "todosync log lists the units with their ids: todosync undo <id>")
                }
                let entry = try historyEntry(target)
                // Undoing an undo applies its unit again: a redo.
                let redo: Bool
                switch entry.entry {
                case .unit, .redo: redo = false
                case .undo: redo = true
                case .none:
                    throw TodoSyncError(
                        "\(target.short) (\(entry.summary)) changed no list; nothing was changed",
                        hint: "todosync log lists the units")
                }
                let step = try invert(target, redo: redo)
                guard !step.isEmpty else {
                    throw TodoSyncError(
                        "the lists no longer hold what \(target.short) (\(entry.summary)) did: it was undone already, or later edits replaced it; nothing was changed",
                        hint:
                            "todosync log shows the units and which are undone; undo another with todosync undo <unit>")
                }
                outcome.steps.append(try commit(step))
                return outcome
            }
        }
    }

    /// The newest `count` units of the branch's whole history (every parent), newest first:
    /// who made each, when, whether this clone made it, and whether it is undone.
    /// Whether `log` shows the entry: by its author, the day it was made (the author's own
    /// day), and the list files it changed against its first parent.
    public func admits(_ entry: HistoryEntry, _ filter: LogFilter) throws(TodoSyncError) -> Bool {
        if let author = filter.author?.lowercased(),
            !entry.author.name.lowercased().contains(author), !entry.author.email.lowercased().contains(author)
        {
            return false
        }
        let day = CalendarDate(String(entry.authorDate.prefix(10)))
        if let since = filter.since, let day, day < since { return false }
        if let until = filter.until, let day, day > until { return false }
        if let file = filter.file {
            let commit = try git("reading commit \(entry.commit.short)") { try repository.commit(entry.commit) }
            let parentTree = try entry.parent.map { (id) throws(TodoSyncError) in
                try git("reading commit \(id.short)") { try repository.commit(id) }.tree
            }
            guard
                try git("comparing trees", { try repository.changedPaths(from: parentTree, to: commit.tree) }).contains(
                    file)
            else { return false }
        }
        return true
    }

    public func log(
        _ count: Int, filter: LogFilter = LogFilter()
    ) throws(TodoSyncError) -> [(entry: HistoryEntry, undone: Bool)] {
        guard count > 0, case .branch(_, let head) = try git("reading HEAD", { try repository.head() }),
            let branch = try branchReference()
        else { return [] }
        let local = try localHistory(of: branch)
        let history = AllHistory(self, from: head)
        var undone = Set<String>()
        var result: [(entry: HistoryEntry, undone: Bool)] = []
        for entry in history {
            switch entry.entry {
            case .none: continue
            case .undo(let target): undone.insert(target)
            case .redo(let target): undone.insert(target)
            case .unit: break
            }
            // Undone-ness is worked out from every entry; only those the filter admits are shown.
            guard try admits(entry, filter) else { continue }
            result.append((entry, undone.contains(entry.commit.description)))
            if result.count == count { break }
        }
        if let failure = history.failure { throw failure }
        let madeHere = local.madeHere(among: Set(result.map(\.entry.commit)))
        for index in result.indices { result[index].entry.madeHere = madeHere.contains(result[index].entry.commit) }
        if history.endsInShallowHistory, result.count < count {
            notice(
                "this clone has shallow history (made with git clone --depth): the log ends where it does; git fetch --unshallow fetches the rest"
            )
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
        let pending = try Trace.phase("commit pending edits") { () throws(TodoSyncError) in try commit() }
        var outcome = UndoOutcome(pendingCommit: pending.commit == nil ? nil : pending)
        // Units whose changes the lists hold no longer (undone on another clone): inverting
        // them would change and report nothing, so the one below is taken.
        var spent = Set<String>()
        steps: for _ in 0..<max(1, count) {
            while true {
                guard case .branch(_, let head) = try git("reading HEAD", { try repository.head() }),
                    let branch = try branchReference()
                else { break steps }
                let wanted = spent.count + 1
                let (history, targets) = try Trace.phase("find the unit") { () throws(TodoSyncError) in
                    let history = try myHistory(head: head, branch: branch)
                    let entries = history.lazy.map { (id: $0.commit.description, entry: $0.entry) }
                    return (
                        history,
                        redo
                            ? UndoStack.redoTargets(entries, count: wanted)
                            : UndoStack.undoTargets(entries, count: wanted)
                    )
                }
                if let failure = history.failure { throw failure }
                guard let target = targets.first(where: { !spent.contains($0) }), let id = OID(hex: target) else {
                    break steps
                }
                let inversion = try invert(id, redo: redo)
                if inversion.isEmpty && inversion.notReverted.isEmpty {
                    spent.insert(target)
                    continue
                }
                outcome.steps.append(try commit(inversion))
                continue steps
            }
        }
        return outcome
    }

    /// What takes back what `target` did to the lists (an undo of a unit, or a redo: the undo
    /// of an undo), merged onto HEAD so later edits stay: worked out, not yet committed.
    private func invert(_ target: OID, redo: Bool) throws(TodoSyncError) -> Inversion {
        guard let headCommit = try readHeadCommit() else {
            throw TodoSyncError("there is no commit yet, so nothing to undo", hint: "commit your lists first: todosync")
        }
        let unitCommit = try git("reading commit \(target.short)") { try repository.commit(target) }
        // Only the files the unit changed and those changed since are read: an item the unit
        // touched is in one of them (moved later, its new file changed since). In a vault,
        // the few a unit touched of thousands.
        let parentTree = try unitCommit.parents.first.map { (id) throws(TodoSyncError) in
            try git("reading commit \(id.short)") { try repository.commit(id) }.tree
        }
        var among = try changedCandidates(from: parentTree, to: unitCommit.tree)
        among.formUnion(try changedCandidates(from: unitCommit.tree, to: headCommit.tree))
        Trace.note("files read for the \(redo ? "redo" : "undo"): \(among.count)")
        let (headRead, unitRead, parentRead) = try Trace.phase("read the unit's lists") { () throws(TodoSyncError) in
            try readingPass { () throws(TodoSyncError) in
                // The parent's version of a large list is read on another thread meanwhile.
                try readAhead(among, of: parentTree.map { [$0] } ?? [])
                let headRead = try readCommit(headCommit.id, fromWorkingTree: true, among: among)
                // Usually the unit is HEAD itself: read and parsed once. The other versions differ
                // from HEAD's in what the unit and later edits changed: their parse reuses the rest.
                let unitRead =
                    headCommit.id == target ? headRead : try readCommit(target, among: among, parsedLike: headRead)
                let parentRead = try unitCommit.parents.first.map { (id) throws(TodoSyncError) in
                    try readCommit(id, among: among, parsedLike: unitRead)
                }
                return (headRead, unitRead, parentRead)
            }
        }
        let shared = try sharingFiles([headRead, unitRead] + (parentRead.map { [$0] } ?? []))
        var head = shared[0]
        var before = parentRead == nil ? ListSet() : shared[2].base.lists
        var after = shared[1].base.lists
        // A file the commit dropped from the lists that stands untracked in the working tree
        // (an undo gave it back): it is the base and ours, the unit's items go back into it.
        for (path, document) in before.documents where after[path] == nil && head.base.lists[path] == nil {
            guard let bytes = try FileSystem.read(root + "/" + path) else { continue }
            after[path] = document.removingIdentifiedItems()
            head.base.lists[path] = try ListDocument.parsing(path, bytes)
            head.files[path] = (bytes, TreeChange.regularFileMode)
        }
        // A file the unit made a list that its parent did not hold (an untracked file a command
        // put an item in) held its own text before: the unit's version without the unit's items.
        var madeLists: [String] = []
        for (path, document) in after.documents where before[path] == nil {
            before[path] = document.removingIdentifiedItems()
            madeLists.append(path)
        }
        var merged = Trace.phase("merge the inverse") {
            ListMerge.merge(base: after, ours: head.base.lists, theirs: before, keepingOurs: true)
        }
        // Given back as it was: untracked, with its text (a file the unit created goes).
        var untracking: [String: [UInt8]?] = [:]
        for path in madeLists {
            guard let document = merged.lists[path], !document.hasItems else { continue }
            let bytes = document.render()
            untracking[path] = bytes.isEmpty ? nil : bytes
            merged.lists[path] = nil
        }
        let changes = Trace.phase("describe the inverse") { ListSet.changes(from: head.base.lists, to: merged.lists) }

        let what = Self.unitName(unitCommit.summary, redo: redo)
        var message = CommitMessage(summary: (redo ? "Redo: " : "Undo: ") + what)
        message.body = changes.map { "- " + $0.phrase }
        let notReverted = merged.reports.map(\.description)
        if !notReverted.isEmpty {
            if !message.body.isEmpty { message.body.append("") }
            message.body.append("Not reverted (a later edit changed it too, and wins):")
            message.body += notReverted.map { "- " + $0 }
        }
        message.trailers =
            redo
            ? [UnitTrailer.line(.redo), "\(UnitTrailer.redoesKey): \(target)"]
            : [UnitTrailer.line(.undo), "\(UnitTrailer.undoesKey): \(target)"]
        // A unit that changed prose alone changes no item, and is still undone.
        let paths = Set(head.base.lists.documents.keys).union(merged.lists.documents.keys)
        let isEmpty =
            changes.isEmpty && untracking.isEmpty
            && paths.allSatisfy { sameBytes(head.base.lists[$0]?.render(), merged.lists[$0]?.render()) }
        return Inversion(
            lists: merged.lists, untracking: untracking, head: head, message: message, notReverted: notReverted,
            isEmpty: isEmpty)
    }

    /// An undo or redo worked out: the lists it leaves, over which HEAD, and in words.
    private struct Inversion {
        var lists: ListSet
        /// Files the undo gives back untracked (`commitLists(untracking:)`).
        var untracking: [String: [UInt8]?]
        var head: HeadSnapshot
        var message: CommitMessage
        var notReverted: [String]
        /// It would change no item.
        var isEmpty: Bool
    }

    private func commit(_ inversion: Inversion) throws(TodoSyncError) -> UndoStep {
        let commit = try commitLists(
            inversion.lists, over: inversion.head, message: inversion.message, untracking: inversion.untracking)
        return UndoStep(commit: commit, message: inversion.message, notReverted: inversion.notReverted)
    }

    /// "Check "milk"" for a unit; for the undo a redo takes back, the unit it undid.
    static func unitName(_ summary: String, redo: Bool) -> String {
        if redo, summary.hasPrefix("Undo: ") { return String(summary.dropFirst(6)) }
        return summary
    }
}
