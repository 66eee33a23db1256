import CLibGit2

/// libgit2's one-time global set-up.
enum Libgit2 {
    /// NB: a global `let` is initialised once, thread-safely, on first use.
    private static let initialized: Int32 = git_libgit2_init()

    static func ensureInitialized() {
        _ = initialized
    }
}
