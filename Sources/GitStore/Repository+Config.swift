import CLibGit2

extension Repository {
    /// The signature from `user.name` and `user.email` (repository, global, XDG and system
    /// config), stamped now; nil if either is not set.
    public func configuredSignature() -> Signature? {
        var signature: UnsafeMutablePointer<git_signature>?
        guard git_signature_default(&signature, pointer) == 0, let signature else { return nil }
        defer { git_signature_free(signature) }
        return Signature(signature)
    }

    /// A config value (the last one set, as git reads it), or nil.
    public func configString(_ key: String) throws(GitError) -> String? {
        try withConfigSnapshot { (config) throws(GitError) in
            var value: UnsafePointer<CChar>?
            let result = git_config_get_string(&value, config, key)
            if result == GIT_ENOTFOUND.rawValue { return nil }
            try GitError.check(result, "git_config_get_string")
            return string(value)
        }
    }

    /// Every value of a multi-valued config key, in the order git reads them.
    public func configStrings(_ key: String) throws(GitError) -> [String] {
        try withConfigSnapshot { (config) throws(GitError) in
            var iterator: OpaquePointer?
            let result = git_config_multivar_iterator_new(&iterator, config, key, nil)
            if result == GIT_ENOTFOUND.rawValue { return [] }
            try GitError.check(result, "git_config_multivar_iterator_new")
            defer { git_config_iterator_free(iterator) }
            var values: [String] = []
            var entry: UnsafeMutablePointer<git_config_entry>?
            while git_config_next(&entry, iterator) == 0, let entry {
                if let value = string(entry.pointee.value) { values.append(value) }
            }
            return values
        }
    }

    /// Sets a config value in the repository's own config (`.git/config`).
    public func setConfig(_ key: String, to value: String) throws(GitError) {
        var config: OpaquePointer?
        try GitError.check(git_repository_config(&config, pointer), "git_repository_config")
        defer { git_config_free(config) }
        try GitError.check(git_config_set_string(config, key, value), "git_config_set_string")
    }

    private func withConfigSnapshot<R>(_ body: (OpaquePointer?) throws(GitError) -> R) throws(GitError) -> R {
        var config: OpaquePointer?
        try GitError.check(git_repository_config_snapshot(&config, pointer), "git_repository_config_snapshot")
        defer { git_config_free(config) }
        return try body(config)
    }

    /// The config files outside the repository that libgit2 reads and that exist now (global,
    /// XDG, system), as it finds them.
    public static func outsideConfigFiles() -> [String] {
        Libgit2.ensureInitialized()
        let finders: [(UnsafeMutablePointer<git_buf>) -> Int32] = [
            git_config_find_global, git_config_find_xdg, git_config_find_system,
        ]
        return finders.compactMap { find in
            var buffer = git_buf()
            defer { git_buf_dispose(&buffer) }
            guard find(&buffer) == 0 else { git_error_clear(); return nil }
            return string(buffer.ptr)
        }
    }
}
