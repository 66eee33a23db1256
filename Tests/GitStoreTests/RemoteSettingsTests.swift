import Foundation
import Testing
import TestSupport
@testable import GitStore

/// A remote's URLs as todosync resolves them from the config, against what
/// `git remote get-url [--push]` says of the same repository.
@Suite struct RemoteSettingsTests {
    /// Each case: config lines (`key value`), then the remote's name.
    static let cases: [(config: [(String, String)], remote: String)] = [
        ([("remote.origin.url", "https://example.com/lists.git")], "origin"),
        // insteadOf: the longest prefix wins, whichever comes first.
        (
            [
                ("url.https://a.example/.insteadOf", "ex:"), ("url.https://b.example/team/.insteadOf", "ex:team/"),
                ("remote.origin.url", "ex:team/lists.git"),
            ], "origin"
        ),
        (
            [
                ("url.https://b.example/team/.insteadOf", "ex:team/"), ("url.https://a.example/.insteadOf", "ex:"),
                ("remote.origin.url", "ex:other/lists.git"),
            ], "origin"
        ),
        // pushInsteadOf rewrites only where pushes go; insteadOf still applies to fetches.
        (
            [
                ("url.ssh://git@example.com/.pushInsteadOf", "https://example.com/"),
                ("remote.origin.url", "https://example.com/lists.git"),
            ], "origin"
        ),
        (
            [
                ("url.https://mirror.example/.insteadOf", "gh:"), ("url.ssh://git@github.com/.pushInsteadOf", "gh:"),
                ("remote.origin.url", "gh:me/lists.git"),
            ], "origin"
        ),
        // An explicit pushurl: insteadOf rewrites it, pushInsteadOf does not.
        (
            [
                ("url.https://a.example/.insteadOf", "ex:"), ("url.ssh://b.example/.pushInsteadOf", "ex:"),
                ("remote.origin.url", "ex:lists.git"), ("remote.origin.pushurl", "ex:push.git"),
            ], "origin"
        ),
        // A remote whose name holds dots and capitals; another remote beside it.
        (
            [
                ("remote.My.Server.url", "/srv/lists.git"), ("remote.origin.url", "/srv/other.git"),
                ("url.file:///mnt/.insteadOf", "/srv/"),
            ], "My.Server"
        ),
        // Of several URLs, git fetches from the first.
        ([("remote.origin.url", "/first.git"), ("remote.origin.url", "/second.git")], "origin"),
    ]

    @Test(arguments: 0..<cases.count)
    func urlsAreGitsOwn(index: Int) throws {
        let (config, remote) = Self.cases[index]
        let scratch = Scratch()
        _ = try git("init", "-q", "-b", "main", scratch.path, in: "/")
        for (key, value) in config { _ = try git("config", "--add", key, value, in: scratch.path) }
        let repository = try Repository.open(at: scratch.path)
        let settings = try #require(try repository.remoteSettings(remote))
        let fetchURL = try git("remote", "get-url", remote, in: scratch.path).trimmingCharacters(in: .newlines)
        let pushURL = try git("remote", "get-url", "--push", remote, in: scratch.path).trimmingCharacters(in: .newlines)
        #expect(settings.url == fetchURL)
        #expect(settings.pushURL == pushURL)
        #expect(try repository.remoteURL(remote) == fetchURL)
    }

    @Test func aRemoteWithoutAURLIsNone() throws {
        let scratch = Scratch()
        _ = try git("init", "-q", "-b", "main", scratch.path, in: "/")
        _ = try git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*", in: scratch.path)
        let repository = try Repository.open(at: scratch.path)
        #expect(try repository.remoteSettings("origin") == nil)
        #expect(try repository.remoteSettings("elsewhere") == nil)
    }

    @Test func fetchRefspecsAreKeptInOrder() {
        let settings = RemoteSettings.resolve(
            "origin",
            from: [
                ("remote.origin.url", "/srv/lists.git"), ("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"),
                ("remote.originals.fetch", "+refs/heads/x:refs/remotes/x/x"),
                ("remote.origin.fetch", "+refs/notes/*:refs/notes/*"),
            ])
        #expect(settings?.fetchRefspecs == ["+refs/heads/*:refs/remotes/origin/*", "+refs/notes/*:refs/notes/*"])
    }
}
