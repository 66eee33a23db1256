import CLibGit2

extension Repository {
    /// The commits a reference's reflog (`refs/heads/main`) moved it to with a message that
    /// starts with one of `prefixes` (`commit: `), oldest first as the reflog holds them, and
    /// how many entries it holds in all (0 where git keeps none).
    public func reflogTargets(
        of name: String, withMessagesStartingWith prefixes: [String]
    ) throws(GitError) -> (oldestFirst: [OID], total: Int) {
        let directory = commonDirectory.hasSuffix("/") ? commonDirectory : commonDirectory + "/"
        return try ReflogFile.targets(atPath: directory + "logs/" + name, withMessagesStartingWith: prefixes)
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
        if peeled == GIT_EINVALIDSPEC.rawValue || peeled == GIT_ENOTFOUND.rawValue || peeled == GIT_EPEEL.rawValue {
            return nil
        }
        try GitError.check(peeled, "git_object_peel")
        defer { git_object_free(commit) }
        return OID(git_object_id(commit).pointee)
    }
}
