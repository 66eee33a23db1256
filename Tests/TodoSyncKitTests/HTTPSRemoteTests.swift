import Foundation
import Testing
import TestSupport

/// https as git does it (issue 31, point 3), against a real nginx + git-http-backend over TLS
/// with basic auth: trust from http.sslCAInfo, credentials from git's credential helpers.
@Suite(.enabled(if: HTTPSServer.isAvailable, "needs nginx, fcgiwrap and openssl (scripts/ensure-test-tools.sh)"))
struct HTTPSRemoteTests {
    private func sync(_ fixture: Fixture, _ extra: [String: String?] = [:]) throws -> ProcessResult {
        var environment = HTTPSServer.withoutMachineTrust
        for (key, value) in extra { environment[key] = value }
        return try run(todosyncBinary, ["sync"], in: fixture.path, environment: environment)
    }

    /// A clone with a list, its origin the server, a credential store file for the helper.
    private func clone(of server: HTTPSServer) throws -> Fixture {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        try fixture.todosync()
        _ = try fixture.git("remote", "add", "origin", server.url)
        return fixture
    }

    @Test func trustFromSSLCAInfoAndCredentialsFromTheHelper() throws {
        let server = try HTTPSServer()
        let fixture = try clone(of: server)
        // Not trusted yet: the error says what to configure.
        let untrusted = try sync(fixture, ["GIT_TERMINAL_PROMPT": "0"])
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("http.sslCAInfo"), "\(untrusted.stderr)")

        _ = try fixture.git("config", "http.sslCAInfo", server.caFile)
        let store = fixture.path + "/.git/test-credentials"
        try Data((server.authenticatedURL + "\n").utf8).write(to: URL(fileURLWithPath: store))
        _ = try fixture.git("config", "credential.helper", "store --file=\(store)")
        let synced = try sync(fixture)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stdout.contains("Pushed to origin/main."), "\(synced.stdout)\(synced.stderr)")
        #expect(try git("rev-parse", "main", in: server.repository).trimmingCharacters(in: .newlines) == fixture.head)
        #expect(!(synced.stdout + synced.stderr + untrusted.stderr).contains(server.password))
    }

    /// A wrong password is refused clearly and the helper is told to forget it, as git does.
    @Test func aRejectedPasswordIsForgotten() throws {
        let server = try HTTPSServer()
        let fixture = try clone(of: server)
        _ = try fixture.git("config", "http.sslCAInfo", server.caFile)
        let store = fixture.path + "/.git/test-credentials"
        let wrong = server.authenticatedURL.replacingOccurrences(of: server.password, with: "wrong-password")
        try Data((wrong + "\n").utf8).write(to: URL(fileURLWithPath: store))
        _ = try fixture.git("config", "credential.helper", "store --file=\(store)")
        let refused = try sync(fixture, ["GIT_TERMINAL_PROMPT": "0"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refused"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("wrong-password"))
        #expect(try String(contentsOfFile: store, encoding: .utf8).isEmpty)
    }

    @Test func sslVerifyFalseIsHonouredWithAWarning() throws {
        let server = try HTTPSServer()
        let fixture = try clone(of: server)
        let synced = try sync(fixture, ["GIT_SSL_NO_VERIFY": "1", "TODOSYNC_USERNAME": HTTPSServer.user, "TODOSYNC_PASSWORD": server.password])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("not verified"), "\(synced.stderr)")
        #expect(try git("rev-parse", "main", in: server.repository).trimmingCharacters(in: .newlines) == fixture.head)
    }
}
