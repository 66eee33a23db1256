import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The credentials a fetch or push offers, each tried once, in git's order.
extension RemoteContext {
    /// Tells git's credential helper that what it gave worked (as git does after a transfer).
    func approveCredential() {
        if let helperCredential { credentialHelper?.approve(helperCredential) }
    }

    /// ssh: the agent, then the usual key files; https: git's credential helpers (which may ask
    /// on the terminal), then TODOSYNC_USERNAME and TODOSYNC_PASSWORD from the environment. Each
    /// is tried once; one the server refuses is rejected to the helper; secrets are never printed.
    func credential(
        _ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, url: String, username: String?,
        allowed: UInt32
    ) -> Int32 {
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            let user = username ?? "git"
            if !triedAgent {
                triedAgent = true
                if getenv("SSH_AUTH_SOCK") != nil, git_credential_ssh_key_from_agent(out, user) == 0 { return 0 }
            }
            let home = getenv("HOME").map { String(cString: $0) } ?? ""
            let keys = ["id_ed25519", "id_ecdsa", "id_rsa"].map { (name: String) -> String in home + "/.ssh/" + name }
                .filter { access($0, R_OK) == 0 }
            while keysTried < keys.count {
                let key = keys[keysTried]
                keysTried += 1
                let publicKey = access(key + ".pub", R_OK) == 0 ? key + ".pub" : nil
                if git_credential_ssh_key_new(out, user, publicKey, key, nil) == 0 { return 0 }
            }
            failure =
                "ssh authentication to \(url) failed: no key in the ssh agent or in ~/.ssh (id_ed25519, id_ecdsa, id_rsa) was accepted"
            return -1
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
            if let refused = helperCredential {
                // Asked again: the server refused what the helper gave.
                credentialHelper?.reject(refused)
                helperCredential = nil
                helperWasRefused = true
            } else if !triedHelper, let helper = credentialHelper {
                triedHelper = true
                if let filled = helper.fill(url: url, username: username, mayPrompt: password == nil),
                    let user = filled.first(where: { $0.0 == "username" })?.1,
                    let password = filled.first(where: { $0.0 == "password" })?.1,
                    git_credential_userpass_plaintext_new(out, user, password) == 0
                {
                    helperCredential = filled
                    return 0
                }
            }
            if !triedPassword, let password {
                triedPassword = true
                if git_credential_userpass_plaintext_new(out, password.user, password.password) == 0 { return 0 }
            }
            failure =
                triedPassword
                ? "\(url) refused the user name and password from TODOSYNC_USERNAME and TODOSYNC_PASSWORD"
                : helperWasRefused
                    ? "\(url) refused the user name and password git's credential helper gave (the helper was told to forget them)"
                    : "\(url) asks for a user name and password, and git's credential helpers had none: store one as for git (git credential approve, or a credential.helper), or set TODOSYNC_USERNAME and TODOSYNC_PASSWORD (a token works as the password)"
            return -1
        }
        if allowed & GIT_CREDENTIAL_DEFAULT.rawValue != 0, !triedDefault {
            triedDefault = true
            return git_credential_default_new(out)
        }
        failure = "\(url) asks for a kind of authentication todosync does not support"
        return -1
    }
}
