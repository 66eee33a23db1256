import Testing
@testable import GitStore

/// Remote URLs read as git reads them, and the command git would run for each.
@Suite struct RemoteEndpointTests {
    @Test(arguments: [
        (
            "ssh://alice@example.com:2222/srv/lists.git",
            RemoteEndpoint.ssh(user: "alice", host: "example.com", port: 2222, path: "/srv/lists.git")
        ),
        (
            "ssh://example.com/~alice/lists.git",
            .ssh(user: nil, host: "example.com", port: nil, path: "~alice/lists.git")
        ),
        ("git+ssh://[::1]:22/lists.git", .ssh(user: nil, host: "::1", port: 22, path: "/lists.git")),
        ("tsbox:lists.git", .ssh(user: nil, host: "tsbox", port: nil, path: "lists.git")),
        ("git@github.com:me/lists.git", .ssh(user: "git", host: "github.com", port: nil, path: "me/lists.git")),
        ("[example.com:2200]:lists.git", .ssh(user: nil, host: "example.com", port: 2200, path: "lists.git")),
        ("/srv/lists.git", .local(path: "/srv/lists.git")),
        ("../lists.git", .local(path: "../lists.git")),
        ("./a:b/lists.git", .local(path: "./a:b/lists.git")),
        ("file:///srv/my%20lists.git", .local(path: "/srv/my lists.git")),
        ("https://example.com/lists.git", .builtIn),
        ("git://example.com/lists.git", .builtIn),
    ])
    func urlsAreReadAsGitReadsThem(url: String, expected: RemoteEndpoint) {
        #expect(RemoteEndpoint(url: url) == expected)
    }

    @Test func theCommandIsTheOneGitRuns() throws {
        let endpoint = RemoteEndpoint(url: "alice@host:it's!.git")
        #expect(try endpoint.command(for: .uploadPack) == ["ssh", "alice@host", "git-upload-pack 'it'\\''s'\\!'.git'"])
        let withPort = RemoteEndpoint(url: "ssh://host:2222/srv/lists.git")
        #expect(
            try withPort.command(for: .receivePack) == [
                "ssh", "-p", "2222", "host", "git-receive-pack '/srv/lists.git'",
            ])
        #expect(
            try withPort.command(for: .receivePack, ssh: SSHSettings(shellCommand: "ssh -F cfg"))
                == [
                    "/bin/sh", "-c", "ssh -F cfg \"$@\"", "ssh -F cfg", "-p", "2222", "host",
                    "git-receive-pack '/srv/lists.git'",
                ])
        #expect(
            try withPort.command(for: .uploadPack, ssh: SSHSettings(program: "/usr/bin/plink")).prefix(3) == [
                "/usr/bin/plink", "-P", "2222",
            ])
        #expect(
            try RemoteEndpoint(url: "/srv/lists.git").command(for: .receivePack) == [
                "git", "receive-pack", "/srv/lists.git",
            ])
    }

    @Test func hostsAndPathsThatWouldReadAsOptionsAreRefused() {
        #expect(throws: GitError.self) {
            try RemoteEndpoint(url: "ssh://-oProxyCommand=x/lists.git").command(for: .uploadPack)
        }
        #expect(throws: GitError.self) { try RemoteEndpoint(url: "-u.git").command(for: .uploadPack) }
    }
}
