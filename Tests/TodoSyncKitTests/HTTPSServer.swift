import Foundation
import TestSupport

/// A real web server on 127.0.0.1: nginx with TLS from a test CA and basic auth (user `alice`),
/// in front of git's own `git http-backend` through fcgiwrap, serving a bare repository, as a
/// self-hosted git server is set up. Both run as the current user in a scratch folder, started
/// by start-stop-daemon, which closes every inherited descriptor (a long-lived server holding a
/// pipe of a test running alongside would stall that test's wait), and stopped by pid.
final class HTTPSServer {
    let scratch = Scratch()
    private(set) var port = 0
    static let user = "alice"
    let password = "pw-" + UUID().uuidString.prefix(8)
    var repository: String { scratch.path + "/repos/lists.git" }
    var url: String { "https://127.0.0.1:\(port)/lists.git" }
    /// The test CA's certificate: what `http.sslCAInfo` names to trust the server.
    var caFile: String { scratch.path + "/ca.pem" }

    static var isAvailable: Bool {
        ["/usr/sbin/nginx", "/usr/sbin/fcgiwrap", "/usr/bin/openssl"].allSatisfy(
            FileManager.default.isExecutableFile(atPath:))
    }

    init() throws {
        try makeCertificates()
        let hash = try checked("/usr/bin/openssl", ["passwd", "-apr1", password]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        try scratch.write("htpasswd", "\(Self.user):\(hash)\n")
        try FileManager.default.createDirectory(atPath: scratch.path + "/repos", withIntermediateDirectories: true)
        _ = try checked("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", repository])
        try FileManager.default.createDirectory(atPath: scratch.path + "/nginx", withIntermediateDirectories: true)
        try daemon("fcgiwrap", ["-s", "unix:\(scratch.path)/fcgi.sock"])
        for attempt in 0..<5 {
            port = Int.random(in: 20_000...60_000)
            try scratch.write("nginx.conf", try configuration())
            if (try? daemon("nginx", ["-p", scratch.path + "/nginx", "-c", scratch.path + "/nginx.conf"])) != nil {
                for _ in 0..<50 {
                    let probe = try run(
                        "/usr/bin/git", ["-c", "http.sslCAInfo=\(caFile)", "ls-remote", authenticatedURL],
                        in: scratch.path,
                        environment: Self.withoutMachineTrust)
                    if probe.status == 0 { return }
                    usleep(100_000)
                }
            }
            stopNginx()
            if attempt == 4 { throw TestFailure("nginx did not start") }
        }
    }

    /// No CA settings from the machine's environment (some set GIT_SSL_CAINFO to the system
    /// bundle, which would win over the repository's http.sslCAInfo, for git as for todosync).
    static let withoutMachineTrust: [String: String?] = [
        "GIT_SSL_CAINFO": nil, "GIT_SSL_CAPATH": nil, "SSL_CERT_FILE": nil, "SSL_CERT_DIR": nil,
    ]

    /// The URL with the user and password in it, as a credential store file holds it.
    var authenticatedURL: String { "https://\(Self.user):\(password)@127.0.0.1:\(port)/lists.git" }

    private func makeCertificates() throws {
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        _ = try checked(
            "/usr/bin/openssl",
            ["req", "-x509"] + curve + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=todosync test CA",
            ])
        _ = try checked(
            "/usr/bin/openssl",
            ["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"])
        // DNS as well as IP: mbedTLS (under libgit2) matches only DNS names, GnuTLS (under git) either.
        try scratch.write("server.ext", "subjectAltName=DNS:127.0.0.1,IP:127.0.0.1\n")
        _ = try checked(
            "/usr/bin/openssl",
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.pem", "-days", "2",
                "-extfile", "server.ext",
            ])
    }

    /// The server's configuration: the template the soak shares (scripts/), filled in.
    private func configuration() throws -> String {
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/nginx-git-http-backend.conf").path
        let values = [
            "@USER@": getuid() == 0 ? "user root root;\n" : "", "@ROOT@": scratch.path, "@PORT@": String(port),
            "@WORKERS@": "1", "@CONNECTIONS@": "64", "@GIT_EXEC_PATH@": Remote.gitExecPath,
        ]
        return values.reduce(try String(contentsOfFile: template, encoding: .utf8)) { text, value in
            text.replacingOccurrences(of: value.key, with: value.value)
        }
    }

    /// Starts `/usr/sbin/<name>` in the background, its pid in `<name>.pid`.
    private func daemon(_ name: String, _ arguments: [String]) throws {
        _ = try checked(
            "/usr/sbin/start-stop-daemon",
            [
                "--start", "--background", "--make-pidfile", "--pidfile", scratch.path + "/\(name).pid", "--exec",
                "/usr/sbin/" + name, "--",
            ] + arguments)
    }

    private func checked(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        let result = try run(program, arguments, in: scratch.path)
        guard result.status == 0 else { throw TestFailure("\(program) \(arguments) failed: \(result.stderr)") }
        return result
    }

    private func stopNginx() {
        guard let text = try? scratch.read("nginx.pid"),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        kill(pid, SIGTERM)
        try? FileManager.default.removeItem(atPath: scratch.path + "/nginx.pid")
    }

    deinit {
        stopNginx()
        if let text = try? scratch.read("fcgiwrap.pid"),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            kill(pid, SIGKILL)
        }
    }
}
