import Foundation
import Testing
import TestSupport
@testable import TodoSyncKit

/// A password or token in a remote's URL is never shown: not by init, sync's errors, the
/// commits, nor anything else todosync writes.
@Suite struct CredentialsTests {
    @Test(arguments: [
        ("fetching https://alice:S3CRET@example.com/lists.git failed", "fetching https://example.com/lists.git failed"),
        (
            "at https://TOKEN@example.com:8443/x.git and http://u:p@h/",
            "at https://example.com:8443/x.git and http://h/"
        ),
        ("ssh://git:S3CRET@example.com/lists.git", "ssh://git@example.com/lists.git"),
        ("'https://a:b@c/d'", "'https://c/d'"),
        ("no url, user@host:path, a://b", "no url, user@host:path, a://b"),
        ("Tâche — https://tök:en@例え.jp/x ✓", "Tâche — https://例え.jp/x ✓"),
        ("git+ssh://u:p@h/x and éhttps://t@h2", "git+ssh://u@h/x and éhttps://h2"),
    ])
    func urlsLoseTheirCredentials(text: String, shown: String) {
        #expect(Credentials.removed(from: text) == shown)
    }

    /// Errors are safe to show for a program using the library, not only through the CLI.
    @Test func errorsCarryNoCredentials() {
        let error = TodoSyncError(
            "fetching from https://alice:S3CRET@example.com/x.git failed", hint: "try http://u:S3CRET@h/")
        #expect(!error.description.contains("S3CRET"))
    }

    @Test func nothingTodosyncPrintsOrWritesShowsTheSecret() throws {
        let secret = "S3CRET-TOKEN-42"
        let scratch = Scratch()
        let url = "https://alice:\(secret)@127.0.0.1:9/lists.git"
        var printed = ""
        // init sets the remote up, cannot reach it, and says so without the secret.
        let unreachable = try run(todosyncBinary, ["init", "lists", "--remote", url], in: scratch.path)
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("https://127.0.0.1:9/lists.git"), "\(unreachable.stderr)")
        printed += unreachable.stdout + unreachable.stderr
        // (The repository that init began is gone again: nothing half-made is left.)
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/lists/.git"))
        let initialized = try run(todosyncBinary, ["init", "lists"], in: scratch.path)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        printed += initialized.stdout + initialized.stderr
        let lists = scratch.path + "/lists"
        _ = try git("remote", "add", "origin", url, in: lists)
        try scratch.write("lists/TODO.md", try scratch.read("lists/TODO.md") + "- [ ] Call Bob\n")
        let synced = try run(todosyncBinary, ["sync"], in: lists)
        #expect(synced.status == 1)
        #expect(synced.stderr.contains("https://127.0.0.1:9/lists.git"), "\(synced.stderr)")
        printed += synced.stdout + synced.stderr
        let again = try run(
            todosyncBinary, ["init", "lists", "--remote", "https://bob:OTHER-\(secret)@127.0.0.1:9/x.git"],
            in: scratch.path)
        #expect(again.status == 1)
        printed += again.stdout + again.stderr
        for command in [["log"], ["status"], ["list", "--json"]] {
            let result = try run(todosyncBinary, command, in: lists)
            printed += result.stdout + result.stderr
        }
        #expect(!printed.contains(secret), "\(printed)")
        // The commits, their messages, the reflog and todosync's own files.
        let written = try git("log", "--all", "-p", "--format=%H%n%B", in: lists) + git("reflog", in: lists)
        #expect(!written.contains(secret))
        for name in (try FileManager.default.contentsOfDirectory(atPath: lists + "/.git"))
        where name.hasPrefix("todosync") {
            let path = lists + "/.git/" + name
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            #expect(!String(decoding: data, as: UTF8.self).contains(secret), "\(name)")
        }
    }
}
