/// git's credential helpers (gitcredentials(7)), reached as git reaches them: `git credential
/// fill`, then `approve` once the server took what it gave, or `reject` when it refused it (so a
/// stored password that no longer works is forgotten). `fill` may ask on the terminal, as git
/// does; `mayPrompt: false` keeps it from asking.
struct CredentialHelper {
    /// The working tree's root: the repository's own `credential.*` config applies.
    let workTree: String

    /// A user name and password (and whatever the helper added) for `url`; nil when no helper
    /// gave one and nobody could be asked.
    func fill(url: String, username: String?, mayPrompt: Bool) -> [(String, String)]? {
        var input = [("url", url)]
        if let username { input.append(("username", username)) }
        let answer = run("fill", input, environment: mayPrompt ? [:] : ["GIT_TERMINAL_PROMPT": "0"])
        guard let answer, answer.contains(where: { $0.0 == "username" }), answer.contains(where: { $0.0 == "password" })
        else { return nil }
        return answer
    }

    func approve(_ credential: [(String, String)]) { _ = run("approve", credential) }
    func reject(_ credential: [(String, String)]) { _ = run("reject", credential) }

    /// Runs `git credential ACTION` with `key=value` lines in and out; nil if it failed.
    private func run(
        _ action: String, _ input: [(String, String)], environment: [String: String] = [:]
    ) -> [(String, String)]? {
        let text = input.map { "\($0.0)=\($0.1)\n" }.joined() + "\n"
        do throws(GitError) {
            let result = try ChildProcess.run(
                ["git", "-C", workTree, "credential", action], input: Array(text.utf8), environment: environment)
            guard result.status == 0 else { return nil }
            return String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap {
                (line: Substring) -> (String, String)? in
                let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }
        } catch {
            return nil
        }
    }
}
