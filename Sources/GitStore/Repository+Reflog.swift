import CLibGit2

/// One move of a reference, as git's reflog records it (`git reflog show main`).
public struct ReflogEntry: Hashable, Sendable {
    /// Where it pointed before (all zeros when it was created).
    public var old: OID
    public var new: OID
    /// What moved it: `commit: …`, `pull: Fast-forward`, `todosync: …`.
    public var message: String
    public var time: Int64
}

extension Repository {
    /// The reflog of a reference (`refs/heads/main`), newest first; empty where git keeps
    /// none. `keeping` picks the entries wanted by their message (the others are not copied).
    public func reflog(_ name: String, keeping wanted: (UnsafePointer<CChar>) -> Bool = { _ in true }) throws(GitError) -> (entries: [ReflogEntry], total: Int) {
        var log: OpaquePointer?
        try GitError.check(git_reflog_read(&log, pointer, name), "git_reflog_read")
        defer { git_reflog_free(log) }
        var entries: [ReflogEntry] = []
        let count = git_reflog_entrycount(log)
        for index in 0..<count {
            // NB: index 0 is the newest entry; an index below the count always has one.
            guard let entry = git_reflog_entry_byindex(log, index), let message = git_reflog_entry_message(entry), wanted(message) else { continue }
            let time = git_reflog_entry_committer(entry).map { Int64($0.pointee.when.time) } ?? 0
            entries.append(ReflogEntry(
                old: OID(git_reflog_entry_id_old(entry).pointee), new: OID(git_reflog_entry_id_new(entry).pointee),
                message: String(cString: message), time: time))
        }
        return (entries, count)
    }

    /// The commit a revision names as git reads it (`3f2a9c1`, `HEAD~2`, `main`); nil when it
    /// names none (or something that is not a commit).
    public func commitID(named revision: String) throws(GitError) -> OID? {
        var object: OpaquePointer?
        let result = git_revparse_single(&object, pointer, revision)
        if result == GIT_ENOTFOUND.rawValue || result == GIT_EINVALIDSPEC.rawValue { return nil }
        try GitError.check(result, "git_revparse_single")
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        let peeled = git_object_peel(&commit, object, GIT_OBJECT_COMMIT)
        if peeled == GIT_EINVALIDSPEC.rawValue || peeled == GIT_ENOTFOUND.rawValue || peeled == GIT_EPEEL.rawValue { return nil }
        try GitError.check(peeled, "git_object_peel")
        defer { git_object_free(commit) }
        return OID(git_object_id(commit).pointee)
    }
}
