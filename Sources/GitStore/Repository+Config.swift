import CLibGit2

extension Repository {
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

    /// A boolean config value as git reads one (true, yes, on, 1…), or nil.
    public func configBool(_ key: String) throws(GitError) -> Bool? {
        try withConfigSnapshot { (config) throws(GitError) in
            var value: Int32 = 0
            let result = git_config_get_bool(&value, config, key)
            if result == GIT_ENOTFOUND.rawValue { return nil }
            try GitError.check(result, "git_config_get_bool")
            return value != 0
        }
    }

    /// The values of several keys, read from one snapshot of the config; keys not set are
    /// left out.
    public func configValues(_ keys: [String]) throws(GitError) -> [String: String] {
        try withConfigSnapshot { (config) throws(GitError) in
            var values: [String: String] = [:]
            for key in keys {
                var value: UnsafePointer<CChar>?
                let result = git_config_get_string(&value, config, key)
                if result == GIT_ENOTFOUND.rawValue { continue }
                try GitError.check(result, "git_config_get_string")
                values[key] = string(value)
            }
            return values
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
}
