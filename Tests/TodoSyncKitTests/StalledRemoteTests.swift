import Foundation
import Testing
import TestSupport

/// A remote that accepts the connection and never answers is cut off after the configured
/// time, with a clear message, and nothing here changes (issue 31, point 8).
@Suite struct StalledRemoteTests {
    /// A TCP port on 127.0.0.1 that takes connections (the kernel completes them) and never
    /// answers: nothing ever accepts them.
    final class SilentServer {
        let fd: Int32
        let port: Int

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard bound == 0, listen(fd, 16) == 0 else { throw TestFailure("cannot listen on 127.0.0.1") }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            self.fd = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }
    }

    private func stalledSync(remote url: String, environment: [String: String?], configure: [String] = []) throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        try fixture.todosync()
        _ = try fixture.git("remote", "add", "origin", url)
        if !configure.isEmpty { _ = try run("/usr/bin/git", ["config"] + configure, in: fixture.path) }
        let head = fixture.head
        let started = Date()
        let result = try run(todosyncBinary, ["sync"], in: fixture.path, environment: environment)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 1)
        #expect(took < 15, "took \(took) s")
        #expect(result.stderr.contains("sent nothing for 2 s"), "\(result.stderr)")
        #expect(result.stderr.contains("todosync.remoteTimeout"), "\(result.stderr)")
        #expect(fixture.head == head)
        #expect(try fixture.git("for-each-ref", "refs/remotes").isEmpty)
        try fixture.expectCleanAndSound()
    }

    @Test func aSilentGitDaemonIsCutOff() throws {
        let server = try SilentServer()
        try stalledSync(
            remote: "git://127.0.0.1:\(server.port)/lists.git", environment: ["TODOSYNC_REMOTE_TIMEOUT": "2"])
    }

    @Test func aSilentHTTPSServerIsCutOff() throws {
        let server = try SilentServer()
        try stalledSync(
            remote: "https://127.0.0.1:\(server.port)/lists.git", environment: [:],
            configure: ["todosync.remoteTimeout", "2"])
    }

    /// ssh that connects and then says nothing: the program is stopped, the error is graceful.
    @Test func aSilentSSHConnectionIsCutOff() throws {
        try stalledSync(
            remote: "ssh://lists.example/lists.git",
            // NB: exec, so the program stopped is the silent one (a shell would leave it behind).
            environment: ["TODOSYNC_REMOTE_TIMEOUT": "2", "GIT_SSH_COMMAND": "exec sleep 30 #"])
    }

    @Test func aTimeoutThatIsNoNumberIsRefused() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        _ = try fixture.git("remote", "add", "origin", "git://127.0.0.1:9/lists.git")
        let result = try run(
            todosyncBinary, ["sync"], in: fixture.path, environment: ["TODOSYNC_REMOTE_TIMEOUT": "soon"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is 'soon', not a number of seconds"), "\(result.stderr)")
    }
}
