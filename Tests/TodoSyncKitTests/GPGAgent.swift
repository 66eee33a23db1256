import Foundation
import TestSupport

/// A GnuPG home in a scratch folder with one signing key (no passphrase) and its own agent,
/// started by start-stop-daemon (gpg would start it itself, holding the pipes of whatever test
/// ran it) and stopped with gpgconf.
final class GPGAgent {
    let scratch = Scratch()
    var home: String { scratch.path + "/gnupg" }
    private(set) var fingerprint = ""

    static var isAvailable: Bool {
        ["/usr/bin/gpg", "/usr/bin/gpg-agent", "/usr/bin/gpgconf"].allSatisfy(
            FileManager.default.isExecutableFile(atPath:))
    }

    init() throws {
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try checked(
            "/usr/sbin/start-stop-daemon",
            ["--start", "--background", "--exec", "/usr/bin/gpg-agent", "--", "--homedir", home, "--daemon"])
        for _ in 0..<50 where !FileManager.default.fileExists(atPath: try socket()) { usleep(50_000) }
        _ = try checked(
            "/usr/bin/gpg",
            [
                "--homedir", home, "--batch", "--passphrase", "", "--quick-gen-key",
                "Committer <committer@example.com>", "ed25519", "sign", "never",
            ])
        let keys = try checked("/usr/bin/gpg", ["--homedir", home, "--list-secret-keys", "--with-colons"]).stdout
        guard let line = keys.split(separator: "\n").first(where: { $0.hasPrefix("fpr:") }) else {
            throw TestFailure("gpg made no key: \(keys)")
        }
        fingerprint = line.split(separator: ":", omittingEmptySubsequences: false)[9].description
    }

    private func socket() throws -> String {
        try checked("/usr/bin/gpgconf", ["--homedir", home, "--list-dirs", "agent-socket"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    private func checked(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        let result = try run(program, arguments, in: scratch.path)
        guard result.status == 0 else { throw TestFailure("\(program) \(arguments) failed: \(result.stderr)") }
        return result
    }

    deinit {
        _ = try? run("/usr/bin/gpgconf", ["--homedir", home, "--kill", "gpg-agent"], in: scratch.path)
    }
}
