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
        let synced = try sync(
            fixture,
            ["GIT_SSL_NO_VERIFY": "1", "TODOSYNC_USERNAME": HTTPSServer.user, "TODOSYNC_PASSWORD": server.password])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("not verified"), "\(synced.stderr)")
        #expect(try git("rev-parse", "main", in: server.repository).trimmingCharacters(in: .newlines) == fixture.head)
    }

    /// Through the user's proxy, as git finds it (http.proxy, then HTTPS_PROXY; not for a host
    /// no_proxy names): the proxy carries the connection.
    @Test(.enabled(if: HTTPProxy.isAvailable, "needs tinyproxy (scripts/ensure-test-tools.sh)"))
    func throughTheUsersProxy() throws {
        let server = try HTTPSServer()
        let proxy = try HTTPProxy(requiringPassword: false)
        let fixture = try clone(of: server)
        _ = try fixture.git("config", "http.sslCAInfo", server.caFile)
        // Only the proxy settings each step names (not the machine's own).
        let login: [String: String?] = [
            "TODOSYNC_USERNAME": HTTPSServer.user, "TODOSYNC_PASSWORD": server.password,
            "https_proxy": nil, "HTTPS_PROXY": nil, "no_proxy": nil, "NO_PROXY": nil,
        ]
        let tunnel = "127.0.0.1:\(server.port)"

        _ = try fixture.git("config", "http.proxy", proxy.url)
        let synced = try sync(fixture, login)
        #expect(synced.status == 0, "\(synced.stderr)")
        // A tunnel to the server for the fetch, one for the push.
        #expect(!proxy.tunnels.isEmpty && proxy.tunnels.allSatisfy { $0 == tunnel }, "\(proxy.tunnels)")
        let viaConfig = proxy.tunnels.count
        #expect(try git("rev-parse", "main", in: server.repository).trimmingCharacters(in: .newlines) == fixture.head)

        // From the environment when git's config names none; no_proxy exempts a host.
        _ = try fixture.git("config", "--unset", "http.proxy")
        try fixture.todosync("add", "Water plants")
        let fromEnvironment = try sync(fixture, login.merging(["HTTPS_PROXY": proxy.url]) { $1 })
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        let viaEnvironment = proxy.tunnels.count
        #expect(viaEnvironment > viaConfig)
        try fixture.todosync("add", "Call Bob")
        let exempt = try sync(
            fixture, login.merging(["HTTPS_PROXY": proxy.url, "no_proxy": "localhost,127.0.0.1"]) { $1 })
        #expect(exempt.status == 0, "\(exempt.stderr)")
        #expect(proxy.tunnels.count == viaEnvironment)
        #expect(try git("rev-parse", "main", in: server.repository).trimmingCharacters(in: .newlines) == fixture.head)
    }

    /// A proxy that asks for a password and closes the connection with its question (tinyproxy
    /// does) is beyond libgit2 1.5: the error names the proxy, never its password, and says
    /// what to do; nothing reaches the server.
    @Test(.enabled(if: HTTPProxy.isAvailable, "needs tinyproxy (scripts/ensure-test-tools.sh)"))
    func aProxyAskingForAPasswordIsNamedInTheError() throws {
        let server = try HTTPSServer()
        let proxy = try HTTPProxy(requiringPassword: true)
        let fixture = try clone(of: server)
        _ = try fixture.git("config", "http.sslCAInfo", server.caFile)
        _ = try fixture.git("config", "http.proxy", proxy.authenticatedURL)
        let refused = try sync(
            fixture,
            ["TODOSYNC_USERNAME": HTTPSServer.user, "TODOSYNC_PASSWORD": server.password, "GIT_TERMINAL_PROMPT": "0"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("through the proxy http://127.0.0.1:\(proxy.port) that http.proxy names"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("reach the remote by ssh"), "\(refused.stderr)")
        #expect(!(refused.stdout + refused.stderr).contains(proxy.password))
        #expect(!(refused.stdout + refused.stderr).contains(server.password))
        #expect((try? git("rev-parse", "--verify", "-q", "main", in: server.repository)) == nil)
    }
}
