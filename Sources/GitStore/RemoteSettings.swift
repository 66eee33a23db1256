import CLibGit2

/// A remote as git's config describes it (`remote.<name>.url`, `.pushurl`, `.fetch`, with
/// `url.<base>.insteadOf` and `.pushInsteadOf` applied as git applies them), read here from
/// one pass over the config rather than by `git_remote_lookup`.
///
/// NB: libgit2 1.5's `git_remote_lookup` scans the config for insteadOf with a regular
/// expression and leaks the match buffer of every entry that does not match (fixed upstream
/// after 1.5, libgit2 PR 6382): tens of kilobytes a lookup, which a `watch` syncing every few
/// seconds would pay until it ran out of memory. The remote is then made in memory
/// (`git_remote_create_with_opts`, insteadOf skipped, as resolved here).
public struct RemoteSettings: Equatable, Sendable {
    /// Where fetches go.
    public var url: String
    /// Where pushes go: `pushurl`, else `url` as `pushInsteadOf` (or `insteadOf`) rewrites it.
    public var pushURL: String
    /// `remote.<name>.fetch`, in order.
    public var fetchRefspecs: [String]

    /// The settings of remote `name` from config entries (name, value) in the order git reads
    /// them; nil when the remote has no URL. A remote may list several URLs: git fetches from
    /// the first (and pushes to every one; todosync pushes to the first).
    public static func resolve(_ name: String, from entries: [(name: String, value: String)]) -> RemoteSettings? {
        let prefix = "remote." + name + "."
        var url: String?
        var pushURL: String?
        var fetch: [String] = []
        var insteadOf: [(from: String, to: String)] = []
        var pushInsteadOf: [(from: String, to: String)] = []
        for entry in entries {
            // Section and key come lowercased from git's config; a subsection keeps its case.
            if entry.name.hasPrefix(prefix) {
                switch entry.name.dropFirst(prefix.count) {
                case "url": url = url ?? entry.value
                case "pushurl": pushURL = pushURL ?? entry.value
                case "fetch": fetch.append(entry.value)
                default: break
                }
            } else if entry.name.hasPrefix("url.") {
                if entry.name.hasSuffix(".pushinsteadof") {
                    pushInsteadOf.append(
                        (entry.value, String(entry.name.dropFirst(4).dropLast(".pushinsteadof".count))))
                } else if entry.name.hasSuffix(".insteadof") {
                    insteadOf.append((entry.value, String(entry.name.dropFirst(4).dropLast(".insteadof".count))))
                }
            }
        }
        guard let url, !url.isEmpty else { return nil }
        let push: String
        if let pushURL, !pushURL.isEmpty {
            push = rewrite(pushURL, insteadOf) ?? pushURL
        } else {
            push = rewrite(url, pushInsteadOf) ?? rewrite(url, insteadOf) ?? url
        }
        return RemoteSettings(url: rewrite(url, insteadOf) ?? url, pushURL: push, fetchRefspecs: fetch)
    }

    /// git-config(1), url.<base>.insteadOf: the longest prefix that matches is replaced by
    /// its base; nil where none matches.
    static func rewrite(_ url: String, _ rules: [(from: String, to: String)]) -> String? {
        let match = rules.filter { !$0.from.isEmpty && url.hasPrefix($0.from) }.max { $0.from.count < $1.from.count }
        return match.map { $0.to + url.dropFirst($0.from.count) }
    }
}

extension Repository {
    /// Remote `name` as git's config describes it; nil when there is no such remote (no URL).
    public func remoteSettings(_ name: String) throws(GitError) -> RemoteSettings? {
        var config: OpaquePointer?
        try GitError.check(git_repository_config_snapshot(&config, pointer), "git_repository_config_snapshot")
        defer { git_config_free(config) }
        var iterator: OpaquePointer?
        try GitError.check(git_config_iterator_new(&iterator, config), "git_config_iterator_new")
        defer { git_config_iterator_free(iterator) }
        var entries: [(name: String, value: String)] = []
        var entry: UnsafeMutablePointer<git_config_entry>?
        while git_config_next(&entry, iterator) == 0, let entry {
            guard let name = string(entry.pointee.name), name.hasPrefix("remote.") || name.hasPrefix("url.") else {
                continue
            }
            entries.append((name, string(entry.pointee.value) ?? ""))
        }
        return RemoteSettings.resolve(name, from: entries)
    }
}
