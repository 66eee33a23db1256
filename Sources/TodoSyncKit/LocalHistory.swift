import GitStore

/// Which commits this clone made, as git's reflog of the branch records them: a commit made
/// here (by todosync, `git commit`, revert or cherry-pick) moved the branch with a message
/// that says so; a fast-forward, a merge of another clone's work, a reset or the clone itself
/// did not make a unit here. Undo and redo act on these (`undo` means "mine"), and `log` tells
/// them from units that came in from elsewhere.
struct LocalHistory {
    /// The commits made here, oldest first, as the reflog records them (one made again after a
    /// reset is there twice).
    private let madeHereOldestFirst: [OID]
    /// Whether the branch has a reflog at all (git keeps none with core.logAllRefUpdates off).
    let isRecorded: Bool

    init(madeHereOldestFirst: [OID], isRecorded: Bool) {
        self.madeHereOldestFirst = madeHereOldestFirst
        self.isRecorded = isRecorded
    }

    /// The commits made here, newest first.
    var madeHereNewestFirst: ReversedCollection<[OID]> { madeHereOldestFirst.reversed() }

    /// Which of `commits` were made here.
    // NB: asked of a few commits at a time; a reflog can record thousands.
    func madeHere(among commits: Set<OID>) -> Set<OID> {
        guard !commits.isEmpty else { return [] }
        return Set(madeHereOldestFirst.lazy.filter { commits.contains($0) })
    }

    /// The starts of reflog messages that record a commit made on this clone: todosync's own
    /// units ("todosync: <summary>"; sync writes "todosync sync: …"), and git's.
    static let prefixesMadeHere = [
        "todosync: ", "commit: ", "commit (initial): ", "commit (amend): ", "revert: ", "cherry-pick: ",
    ]
}

extension Workspace {
    /// This clone's history of `branch` (`refs/heads/main`).
    func localHistory(of branch: String) throws(TodoSyncError) -> LocalHistory {
        let log = try git("reading the reflog of \(branch)") {
            try repository.reflogTargets(of: branch, withMessagesStartingWith: LocalHistory.prefixesMadeHere)
        }
        return LocalHistory(madeHereOldestFirst: log.oldestFirst, isRecorded: log.total > 0)
    }

    /// The undo history this clone acts on, newest first (`MyHistory`).
    func myHistory(head: OID, branch: String) throws(TodoSyncError) -> MyHistory {
        MyHistory(self, head: head, local: try localHistory(of: branch))
    }
}

/// The undo history this clone acts on, newest first: the commits made here that HEAD still
/// holds (a commit dropped by a reset or replaced by an amend is not), as the stacks see them.
/// A merge is not a unit of this clone (it brings others' work). Without a reflog:
/// first-parent history, as every clone reads it. A read error ends the sequence and is kept
/// in `failure`.
final class MyHistory: Sequence, IteratorProtocol {
    private let workspace: Workspace
    private let head: OID
    private var remaining: ReversedCollection<[OID]>.Iterator
    private var given = Set<OID>()
    private let firstParent: FirstParentHistory?
    private var readFailure: TodoSyncError?

    init(_ workspace: Workspace, head: OID, local: LocalHistory) {
        self.workspace = workspace
        self.head = head
        remaining = local.madeHereNewestFirst.makeIterator()
        firstParent = local.isRecorded ? nil : FirstParentHistory(workspace, from: head)
    }

    var failure: TodoSyncError? { firstParent?.failure ?? readFailure }

    func next() -> HistoryEntry? {
        if let firstParent { return firstParent.next() }
        guard readFailure == nil else { return nil }
        while let id = remaining.next() {
            guard given.insert(id).inserted else { continue }
            do throws(TodoSyncError) {
                guard try git("reading history", { try workspace.repository.contains(id, inHistoryOf: head) }) else {
                    continue
                }
                var entry = try workspace.historyEntry(id)
                if entry.isMerge { entry.entry = .none }
                entry.madeHere = true
                return entry
            } catch  where error.isBeyondShallowHistory {
                continue
            } catch {
                readFailure = error
                return nil
            }
        }
        return nil
    }
}

/// Every commit HEAD holds, through every merge, newest first by commit date (as `git log`
/// orders them), read as they are asked for. A shallow clone's history ends where it was cut
/// (`endsInShallowHistory`); a read error ends it and is kept in `failure`.
final class AllHistory: Sequence, IteratorProtocol {
    private let workspace: Workspace
    private var walk: CommitWalk
    private(set) var failure: TodoSyncError?
    var endsInShallowHistory: Bool { walk.endsInShallowHistory }

    init(_ workspace: Workspace, from head: OID) {
        self.workspace = workspace
        walk = CommitWalk(workspace: workspace, from: head)
    }

    func next() -> HistoryEntry? {
        guard failure == nil else { return nil }
        do throws(TodoSyncError) {
            guard let commit = try walk.next() else { return nil }
            return try workspace.historyEntry(of: commit)
        } catch {
            failure = error
            return nil
        }
    }
}

/// Every commit reachable from a commit, newest first by commit time (as `git log` orders
/// them), each read once; a shallow clone's history ends where it was cut
/// (`endsInShallowHistory`). `AllHistory` reads the undo history through it.
struct CommitWalk {
    let workspace: Workspace
    private var queue: [Commit] = []
    private var seen = Set<OID>()
    private(set) var endsInShallowHistory = false

    init(workspace: Workspace, from tip: OID) {
        self.workspace = workspace
        pending = [tip]
    }

    private var pending: [OID]

    mutating func next() throws(TodoSyncError) -> Commit? {
        for id in pending where seen.insert(id).inserted {
            do throws(TodoSyncError) {
                queue.append(try git("reading commit \(id.short)") { try workspace.repository.commit(id) })
            } catch  where error.isBeyondShallowHistory {
                endsInShallowHistory = true
            }
        }
        pending = []
        guard let newest = queue.indices.max(by: { queue[$0].committer.time < queue[$1].committer.time }) else {
            return nil
        }
        let commit = queue.remove(at: newest)
        pending = commit.parents
        return commit
    }
}
