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
            throw GitError(code: -1, message: "gpg.format is '\(name)'; git knows openpgp, ssh and x509", function: "gpg.format")
        }
        let programKey = switch format { case .openpgp: "gpg.program"; case .ssh: "gpg.ssh.program"; case .x509: "gpg.x509.program" }
        let program = try repository.configString(programKey)
        let fallback = switch format { case .openpgp: "gpg"; case .ssh: "ssh-keygen"; case .x509: "gpgsm" }
        return CommitSigner(format: format, program: program ?? fallback, key: try repository.configString("user.signingKey"))
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

    /// `ssh-keygen -Y sign -n git -f KEY FILE`, which writes FILE.sig.
    private func signWithSSH(_ payload: [UInt8]) throws(GitError) -> String {
        guard let key else {
            throw GitError(code: -1, message: "gpg.format is ssh but user.signingKey names no key", function: "ssh signing")
        }
        let folder = (getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
        var template = Array("\(folder)/todosync-sign-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw GitError(code: -1, message: "cannot create a folder in \(folder): \(String(cString: strerror(errno)))", function: "mkdtemp")
        }
        let directory = String(cString: made)
        let file = directory + "/commit", literalKey = directory + "/key.pub"
        defer {
            for path in [file, file + ".sig", literalKey] { unlink(path) }
            rmdir(directory)
        }
        guard write(file, payload) else { throw GitError(code: -1, message: "cannot write \(file)", function: "ssh signing") }
        var arguments = [program, "-Y", "sign", "-n", "git"]
        if key.hasPrefix("key::") {
            // A public key held by the agent, as git passes it.
            guard write(literalKey, Array((String(key.dropFirst(5)) + "\n").utf8)) else {
                throw GitError(code: -1, message: "cannot write \(literalKey)", function: "ssh signing")
            }
            arguments += ["-U", "-f", literalKey]
        } else {
            let path = key.hasPrefix("~/") ? (getenv("HOME").map { String(cString: $0) } ?? "") + key.dropFirst() : key
            arguments += ["-f", path]
        }
        let result = try ChildProcess.run(arguments + [file], input: [])
        guard result.status == 0, let signature = read(file + ".sig") else { throw failure(result.errors) }
        return String(decoding: signature, as: UTF8.self)
    }

    private func failure(_ said: String) -> GitError {
        let words = said.split(separator: "\n").filter { !$0.hasPrefix("[GNUPG:]") }.joined(separator: "\n")
        return GitError(
            code: -1, message: "\(program) could not sign the commit" + (words.isEmpty ? "" : ": " + words), function: "commit signing")
    }

    private func write(_ path: String, _ bytes: [UInt8]) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    private func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return bytes.isEmpty ? nil : bytes
    }
}

extension Repository {
    /// A commit signed by `signer`, written without moving any reference.
    func createSignedCommit(
        tree: OpaquePointer?, parents: inout [OpaquePointer?], message: String, author: UnsafeMutablePointer<git_signature>,
        committer: UnsafeMutablePointer<git_signature>, committerValue: Signature, signer: CommitSigner
    ) throws(GitError) -> git_oid {
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        try GitError.check(
            git_commit_create_buffer(&buffer, pointer, author, committer, "UTF-8", message, tree, parents.count, &parents),
            "git_commit_create_buffer")
        let payload = Array(UnsafeRawBufferPointer(start: buffer.ptr, count: buffer.size))
        let signature = try signer.sign(payload, committer: committerValue)
        var oid = git_oid()
        let content = String(decoding: payload, as: UTF8.self)
        try GitError.check(git_commit_create_with_signature(&oid, pointer, content, signature, "gpgsig"), "git_commit_create_with_signature")
        return oid
    }
}
