import GitStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who todosync commits as: git's own rules (`GIT_AUTHOR_*` / `GIT_COMMITTER_*` variables, then
/// `user.name` / `user.email`), and a clear fallback with a warning when nothing is set.
struct Identity {
    var author: Signature
    var committer: Signature
    /// Set when the fallback was used: what to tell the user.
    var warning: String?

    static func resolve(for repository: Repository) -> Identity {
        let configured = repository.configuredSignature()
        let now = Signature.now()
        func make(_ prefix: String) -> Signature? {
            let name = environment("\(prefix)_NAME") ?? configured?.name
            let email = environment("\(prefix)_EMAIL") ?? configured?.email
            guard let name, let email else { return nil }
            return Signature(name: name, email: email, time: now.time, offsetMinutes: now.offsetMinutes)
        }
        if let author = make("GIT_AUTHOR"), let committer = make("GIT_COMMITTER") {
            return Identity(author: author, committer: committer)
        }
        let user = environment("USER") ?? environment("LOGNAME") ?? "todosync"
        var host = [CChar](repeating: 0, count: 256)
        let hostname = gethostname(&host, host.count) == 0 ? decodeCString(host) : "localhost"
        let fallback = Signature(name: user, email: "\(user)@\(hostname)", time: now.time, offsetMinutes: now.offsetMinutes)
        return Identity(
            author: make("GIT_AUTHOR") ?? fallback, committer: make("GIT_COMMITTER") ?? fallback,
            warning: "no user.name / user.email in git config; committed as \(fallback.name) <\(fallback.email)>. "
                + "Set them with: git config --global user.name \"Your Name\"; git config --global user.email you@example.com")
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(start: value, count: strlen(value)), as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
