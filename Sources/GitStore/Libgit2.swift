import CLibGit2

/// libgit2's one-time global set-up.
enum Libgit2 {
    /// NB: a global `let` is initialised once, thread-safely, on first use.
    private static let initialized: Int32 = {
        let result = git_libgit2_init()
        // libgit2's object cache keeps no blob and no tree over 4 KB by default, and every
        // read of one is inflated and hashed again: a path looked up in a vault reads each
        // folder's tree on the way (thousands of entries: hundreds of KB), and a push's pack
        // builder reads each blob it sends several times over. Larger objects stay out, so a
        // huge list is not held twice in memory.
        _ = todosync_set_cache_object_limit(GIT_OBJECT_BLOB, cachedObjectLimit)
        _ = todosync_set_cache_object_limit(GIT_OBJECT_TREE, cachedObjectLimit)
        return result
    }()

    /// The largest blob or tree libgit2's object cache keeps.
    static let cachedObjectLimit = 4 << 20

    static func ensureInitialized() {
        _ = initialized
    }
}
