import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Signs commits as git does when `commit.gpgSign` asks: `gpg.format` openpgp (`gpg.program`,
/// default gpg), ssh (`gpg.ssh.program`, default ssh-keygen) or x509 (`gpg.x509.program`,
/// default gpgsm), with `user.signingKey` (for openpgp and x509 the committer's identity when
/// it is not set; for ssh a key file, or `key::` and a public key held by the ssh agent).
public struct CommitSigner: Sendable {
    public enum Format: String, Sendable { case openpgp, ssh, x509 }
    public var format: Format
    public var program: String
    public var key: String?

    /// The signer `commit.gpgSign` asks for; nil when commits are not to be signed.
    public static func configured(in repository: Repository) throws(GitError) -> CommitSigner? {
        guard try repository.configBool("commit.gpgSign") == true else { return nil }
        let name = try repository.configString("gpg.format") ?? "openpgp"
        guard let format = Format(rawValue: name) else {
            throw GitError(
                code: -1, message: "gpg.format is '\(name)'; git knows openpgp, ssh and x509", function: "gpg.format")
        }
        let programKey =
            switch format {
            case .openpgp: "gpg.program";
            case .ssh: "gpg.ssh.program";
            case .x509: "gpg.x509.program"
            }
        let program = try repository.configString(programKey)
        let fallback =
            switch format {
            case .openpgp: "gpg";
            case .ssh: "ssh-keygen";
            case .x509: "gpgsm"
            }
        return CommitSigner(
            format: format, program: program ?? fallback, key: try repository.configString("user.signingKey"))
    }

    /// An armored signature of `payload` (the commit as it will be stored), made by the
    /// program git would run; its own words when it fails.
    func sign(_ payload: [UInt8], committer: Signature) throws(GitError) -> String {
        switch format {
        case .openpgp, .x509:
            let key = key ?? "\(committer.name) <\(committer.email)>"
            let result = try ChildProcess.run([program, "--status-fd=2", "-bsau", key], input: payload)
            guard result.status == 0, result.errors.contains("[GNUPG:] SIG_CREATED "), !result.output.isEmpty else {
                throw failure(result.errors)
            }
            return String(decoding: result.output, as: UTF8.self)
        case .ssh:
            return try signWithSSH(payload)
        }
    }

    /// `ssh-keygen -Y sign -n git -f KEY`, which signs its standard input.
    private func signWithSSH(_ payload: [UInt8]) throws(GitError) -> String {
        guard let key else {
            throw GitError(
                code: -1, message: "gpg.format is ssh but user.signingKey names no key", function: "ssh signing")
        }
        var keyFile = ProcessEnvironment.expandingHome(key)
        var agentKey = false
        if key.hasPrefix("key::") {
            // A public key held by the agent: given to ssh-keygen in a file, as git does.
            keyFile = try temporaryKeyFile(String(key.dropFirst(5)) + "\n")
            agentKey = true
        }
        defer { if agentKey { unlink(keyFile) } }
        let result = try ChildProcess.run(
            [program, "-Y", "sign", "-n", "git"] + (agentKey ? ["-U"] : []) + ["-f", keyFile], input: payload)
        guard result.status == 0, !result.output.isEmpty else { throw failure(result.errors) }
        return String(decoding: result.output, as: UTF8.self)
    }

    private func temporaryKeyFile(_ text: String) throws(GitError) -> String {
        var template = Array("\(ProcessEnvironment.temporaryDirectory)/todosync-key-XXXXXX".utf8CString)
        // NB: a template made from a C string is never empty (it holds at least its NUL), so it has a base address.
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard fd >= 0 else {
            throw GitError(
                code: -1, message: "cannot create \(path): \(String(cString: strerror(errno)))", function: "ssh signing"
            )
        }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            unlink(path)
            throw GitError(code: -1, message: "cannot write \(path)", function: "ssh signing")
        }
        return path
    }

    private func failure(_ said: String) -> GitError {
        let words = said.split(separator: "\n").filter { !$0.hasPrefix("[GNUPG:]") }.joined(separator: "\n")
        return GitError(
            code: -1, message: "\(program) could not sign the commit" + (words.isEmpty ? "" : ": " + words),
            function: "commit signing")
    }
}

extension Repository {
    /// A commit signed by `signer`, written without moving any reference.
    func createSignedCommit(
        tree: OpaquePointer?, parents: inout [OpaquePointer?], message: String,
        author: UnsafeMutablePointer<git_signature>,
        committer: UnsafeMutablePointer<git_signature>, committerValue: Signature, signer: CommitSigner
    ) throws(GitError) -> git_oid {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        try GitError.check(
            git_commit_create_buffer(
                &buffer, pointer, author, committer, "UTF-8", message, tree, parents.count, &parents),
            "git_commit_create_buffer")
        let payload = Array(UnsafeRawBufferPointer(start: buffer.ptr, count: buffer.size))
        let signature = try signer.sign(payload, committer: committerValue)
        var oid = git_oid()
        let content = String(decoding: payload, as: UTF8.self)
        try GitError.check(
            git_commit_create_with_signature(&oid, pointer, content, signature, "gpgsig"),
            "git_commit_create_with_signature")
        return oid
    }
}
