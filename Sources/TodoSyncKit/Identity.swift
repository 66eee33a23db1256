import GitStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who todosync commits as, by git's rules (git-commit-tree(1), `git var GIT_AUTHOR_IDENT`):
/// the name from `GIT_AUTHOR_NAME`, else `author.name`, else `user.name`; the email from
/// `GIT_AUTHOR_EMAIL`, else `author.email`, else `user.email`, else `EMAIL`; the date from
/// `GIT_AUTHOR_DATE`, else now (the committer likewise, with `GIT_COMMITTER_*` and
/// `committer.*`). When no name or email is set anywhere: the login name at this host, with a
/// warning that says how to set them.
struct Identity {
    var author: Signature
    var committer: Signature
    /// Set when the fallback was used: what to tell the user.
    var warning: String?

    static func resolve(for repository: Repository) throws(TodoSyncError) -> Identity {
        let keys = ["user.name", "user.email", "author.name", "author.email", "committer.name", "committer.email"]
        let config = try git("reading user.name and user.email") { try repository.configValues(keys) }
        let now = Signature.now()
        var usedFallback = false
        let fallback = fallbackSignature(now)
        func make(_ role: String) throws(TodoSyncError) -> Signature {
            let variable = "GIT_\(role.uppercased())"
            let name = environment("\(variable)_NAME") ?? config["\(role).name"] ?? config["user.name"]
            let email =
                environment("\(variable)_EMAIL") ?? config["\(role).email"] ?? config["user.email"]
                ?? environment("EMAIL")
            if name == nil || email == nil { usedFallback = true }
            var date = GitDate(time: now.time, offsetMinutes: now.offsetMinutes)
            if let text = environment("\(variable)_DATE") {
                guard let given = GitDate(text) else {
                    throw TodoSyncError(
                        "\(variable)_DATE is '\(text)', a date todosync cannot read; nothing was committed",
                        hint:
                            "give it as git's raw '@SECONDS +HHMM', ISO 8601 (2026-11-24T09:30:00+01:00) or RFC 2822, or unset it"
                    )
                }
                date = given
            }
            return Signature(
                name: name ?? fallback.name, email: email ?? fallback.email, time: date.time,
                offsetMinutes: date.offsetMinutes)
        }
        let author = try make("author"), committer = try make("committer")
        return Identity(
            author: author, committer: committer,
            warning: usedFallback
                ? "no user.name / user.email in git config; committed as \(fallback.name) <\(fallback.email)>. "
                    + "Set them with: git config --global user.name \"Your Name\"; git config --global user.email you@example.com"
                : nil)
    }

    /// The login name at this host.
    private static func fallbackSignature(_ now: Signature) -> Signature {
        let user = environment("USER") ?? environment("LOGNAME") ?? "todosync"
        var host = [CChar](repeating: 0, count: 256)
        let hostname = gethostname(&host, host.count) == 0 ? decodeCString(host) : "localhost"
        return Signature(name: user, email: "\(user)@\(hostname)", time: now.time, offsetMinutes: now.offsetMinutes)
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(start: value, count: strlen(value)), as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
