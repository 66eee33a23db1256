import CLibGit2

/// libgit2's one-time global set-up.
enum Libgit2 {
    /// NB: a global `let` is initialised once, thread-safely, on first use.
    private static let initialized: Int32 = {
        let result = git_libgit2_init()
        // Blobs are kept in libgit2's object cache too (it keeps none by default): a push's
        // pack builder reads each blob it sends several times over, each read inflated and
        // hashed again. Larger blobs stay out, so a huge list is not held twice in memory.
        _ = todosync_set_cache_object_limit(GIT_OBJECT_BLOB, cachedBlobLimit)
        return result
    }()

    /// The largest blob libgit2's object cache keeps.
    static let cachedBlobLimit = 4 << 20

    static func ensureInitialized() {
        _ = initialized
    }
}
