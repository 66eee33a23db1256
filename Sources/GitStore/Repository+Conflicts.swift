import CLibGit2

/// A file git's merge (or rebase, cherry-pick, revert) left in conflict: its version at each
/// stage of git's index, nil where a side has none (it added or deleted the file).
public struct IndexConflict: Sendable, Equatable {
    public struct Version: Sendable, Equatable {
        public var blob: OID
        public var mode: UInt32
    }

    public var path: String
    public var ancestor: Version?
    public var ours: Version?
    public var theirs: Version?
}

extension Repository {
    /// The files git's index holds in conflict, by path.
    public func indexConflicts() throws(GitError) -> [IndexConflict] {
        try withIndex { (index) throws(GitError) in try IndexConflict.all(in: index) }
    }
}

extension IndexConflict {
    /// The conflicts an index holds (git's, or one a merge made in memory), by path.
    static func all(in index: OpaquePointer?) throws(GitError) -> [IndexConflict] {
        guard git_index_has_conflicts(index) != 0 else { return [] }
        var iterator: OpaquePointer?
        try GitError.check(git_index_conflict_iterator_new(&iterator, index), "git_index_conflict_iterator_new")
        defer { git_index_conflict_iterator_free(iterator) }
        var result: [IndexConflict] = []
        var ancestor: UnsafePointer<git_index_entry>?, ours: UnsafePointer<git_index_entry>?,
            theirs: UnsafePointer<git_index_entry>?
        while git_index_conflict_next(&ancestor, &ours, &theirs, iterator) == 0 {
            guard let path = string((ours ?? theirs ?? ancestor)?.pointee.path) else { continue }
            func version(_ entry: UnsafePointer<git_index_entry>?) -> Version? {
                entry.map { Version(blob: OID($0.pointee.id), mode: $0.pointee.mode) }
            }
            result.append(
                IndexConflict(path: path, ancestor: version(ancestor), ours: version(ours), theirs: version(theirs)))
        }
        return result.sorted { $0.path < $1.path }
    }
}

extension StagedFile {
    /// Takes the place of the conflict git left on the path, as `git add` does: the conflict's
    /// stages are kept as its "resolve undo" record (`git checkout -m` brings the conflict back).
    func settle(_ conflict: IndexConflict, in index: OpaquePointer?) throws(GitError) {
        func side(_ version: IndexConflict.Version?) -> (mode: Int32, id: git_oid) {
            (Int32(bitPattern: version?.mode ?? 0), version?.blob.raw ?? git_oid())
        }
        var (ancestor, ours, theirs) = (side(conflict.ancestor), side(conflict.ours), side(conflict.theirs))
        try GitError.check(
            git_index_reuc_add(index, path, ancestor.mode, &ancestor.id, ours.mode, &ours.id, theirs.mode, &theirs.id),
            "git_index_reuc_add")
        try GitError.check(git_index_conflict_remove(index, path), "git_index_conflict_remove")
    }
}
