import CLibGit2

/// libgit2's one-time global set-up.
enum Libgit2 {
    /// NB: a global `let` is initialised once, thread-safely, on first use.
    private static let initialized: Int32 = {
        #if os(Linux)
        CertificateBundle.settingUp.store(true, ordering: .releasing)
        let result = git_libgit2_init()
        CertificateBundle.settingUp.store(false, ordering: .releasing)
        // The declined CA bundle left "failed to load CA certificates" as the last error.
        git_error_clear()
        #else
        let result = git_libgit2_init()
        #endif
        // Reading an object re-hashes it by default (~35 instructions a byte with SHA-1DC);
        // git itself does not on ordinary reads and leaves that check to `git fsck`.
        _ = todosync_git_set_strict_hash_verification(0)
        return result
    }()

    static func ensureInitialized() {
        _ = initialized
    }
}
