import GitStore
import TodoModel

/// One commit's item changes in words, as `todosync show` tells them.
public struct ShownUnit {
    public var entry: HistoryEntry
    /// The whole message, trailers included.
    public var message: String
    public var parents: [OID]
    /// The item changes against the first parent: for a merge, what came in to this branch.
    public var changes: [Change]
    /// The list files the commit changed (by path, against the first parent).
    public var files: [String]
}

extension Workspace {
    /// Any commit's item changes (todosync's, plain git's, a merge), read from git alone: the
    /// commit's and its first parent's versions of the lists it changed, nothing else.
    public func show(_ revision: String) throws(TodoSyncError) -> ShownUnit {
        try readingPass { () throws(TodoSyncError) -> ShownUnit in
            guard let id = try git("reading \(revision)", { try repository.commitID(named: revision) }) else {
                throw TodoSyncError(
                    "'\(revision)' names no commit here",
                    hint: "todosync log lists the units with their ids: todosync show <id>")
            }
            let commit = try git("reading commit \(id.short)") { try repository.commit(id) }
            var entry = try historyEntry(of: commit)
            if let branch = try branchReference() {
                entry.madeHere = !(try localHistory(of: branch).madeHere(among: [id]).isEmpty)
            }
            var parentTree: OID?
            if let parent = commit.parents.first {
                do throws(TodoSyncError) {
                    parentTree = try git("reading commit \(parent.short)") { try repository.commit(parent) }.tree
                } catch  where error.isBeyondShallowHistory {
                    // The first commit of a shallow clone: shown as adding what it holds.
                }
            }
            let among = try changedCandidates(from: parentTree, to: commit.tree)
            // HEAD's versions are the working files git's index vouches for, where it does.
            let isHead: Bool
            switch try git("reading HEAD", { try repository.head() }) {
            case .branch(_, let head), .detached(let head): isHead = head == id
            case .unborn: isHead = false
            }
            let after = try Trace.phase("show: the commit's versions") { () throws(TodoSyncError) in
                try readCommit(id, fromWorkingTree: isHead, among: among)
            }
            let before = try Trace.phase("show: the parent's versions") { () throws(TodoSyncError) in
                try parentTree == nil
                    ? nil
                    : commit.parents.first.map { (parent) throws(TodoSyncError) in
                        try readCommit(parent, among: among, parsedLike: after)
                    }
            }
            let files = Set(after.files.keys).union(before?.files.keys ?? [:].keys)
            let changes = Trace.phase("show: the changes") {
                ListSet.changes(from: before?.base.lists ?? ListSet(), to: after.base.lists)
            }
            return ShownUnit(
                entry: entry, message: commit.message, parents: commit.parents, changes: changes, files: files.sorted())
        }
    }
}
