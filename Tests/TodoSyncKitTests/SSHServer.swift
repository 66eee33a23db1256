import Foundation
import TestSupport

/// A real OpenSSH server on 127.0.0.1 with its own host key, run as the current user on a
/// random high port, serving a bare repository; and the client side a user would have: an ssh
/// config with a host alias (`tsbox`) naming the port, the user, a key and a known_hosts file.
/// Clients reach it with `GIT_SSH_COMMAND="ssh -F <config>"` (ssh reads `~/.ssh/config` from
/// the account's home, which a test must not touch).
final class SSHServer {
    let scratch = Scratch()
    private(set) var port = 0
    var directory: String { scratch.path }
    var repository: String { scratch.path + "/lists.git" }
    /// The remote as a user writes it: the alias, scp-like.
    var url: String { "tsbox:" + repository }
    var config: String { scratch.path + "/ssh_config" }
    /// ssh through the test's config, logging each command line to `log`.
    var sshCommand: String { "\(scratch.path)/logging-ssh -F \(config)" }
    var log: String { (try? String(contentsOfFile: scratch.path + "/ssh.log", encoding: .utf8)) ?? "" }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") }

    init() throws {
        let user = try run("/usr/bin/id", ["-un"], in: "/").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for key in ["host_key", "id", "id_pass"] {
            let passphrase = key == "id_pass" ? "secret phrase" : ""
            _ = try checked("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", passphrase, "-C", key, "-f", key])
        }
        try write("authorized_keys", try read("id.pub") + read("id_pass.pub"))
        try write("logging-ssh", "#!/bin/sh\necho \"$*\" >> \(scratch.path)/ssh.log\nexec ssh \"$@\"\n")
        chmod(scratch.path + "/logging-ssh", 0o755)
        _ = try checked("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", "lists.git"])
        // sshd running as root needs its privilege separation folder.
        if getuid() == 0 {
            try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        }

        for attempt in 0..<5 {
            port = Int.random(in: 20_000...60_000)
            try write(
                "sshd_config",
                """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(scratch.path)/host_key
                PidFile \(scratch.path)/sshd.pid
                AuthorizedKeysFile \(scratch.path)/authorized_keys
                StrictModes no
                UsePAM no
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PermitRootLogin prohibit-password
                LogLevel ERROR

                """)
            try writeClientConfig(user: user, identity: "id")
            try write("known_hosts", "[127.0.0.1]:\(port) " + read("host_key.pub"))
            // sshd goes into the background itself (run under Foundation's Process, it would
            // close the descriptor Process watches for its exit and stall every later wait).
            let started = try run("/usr/sbin/sshd", ["-f", scratch.path + "/sshd_config"], in: scratch.path)
            if started.status == 0 {
                for _ in 0..<50 {
                    let probe = try run(
                        "/usr/bin/ssh", ["-F", config, "-o", "BatchMode=yes", "tsbox", "true"], in: scratch.path)
                    if probe.status == 0 { return }
                    usleep(100_000)
                }
            }
            stop()
            if attempt == 4 { throw TestFailure("sshd did not start") }
        }
    }

    /// The client config: the alias with the port, the user and one key.
    func writeClientConfig(user: String? = nil, identity: String?) throws {
        let name =
            try user ?? run("/usr/bin/id", ["-un"], in: "/").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try write(
            "ssh_config",
            """
            Host tsbox
              HostName 127.0.0.1
              Port \(port)
              User \(name)
              IdentitiesOnly yes
              \(identity.map { "IdentityFile \(scratch.path)/\($0)" } ?? "IdentityFile /nonexistent/key")
              UserKnownHostsFile \(scratch.path)/known_hosts
              GlobalKnownHostsFile /dev/null
              StrictHostKeyChecking yes

            """)
    }

    /// known_hosts names another key for the server: as after a man in the middle, or a reinstall.
    func forgetHostKey() throws {
        _ = try checked("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", "other_host_key"])
        try write("known_hosts", "[127.0.0.1]:\(port) " + read("other_host_key.pub"))
    }

    func write(_ name: String, _ text: String) throws { try scratch.write(name, text) }
    func read(_ name: String) throws -> String { try scratch.read(name) }

    private func checked(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        let result = try run(program, arguments, in: scratch.path)
        guard result.status == 0 else { throw TestFailure("\(program) \(arguments) failed: \(result.stderr)") }
        return result
    }

    /// Stops the daemon its pid file names.
    private func stop() {
        guard let text = try? read("sshd.pid"), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        kill(pid, SIGTERM)
        try? FileManager.default.removeItem(atPath: scratch.path + "/sshd.pid")
    }

    deinit { stop() }
}
