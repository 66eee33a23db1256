import Foundation
import Testing
import TestSupport

@Suite struct InitAndIdentityTests {
    @Test func initAdoptsAnExistingRepositoryAndItsLists() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n", "README.md": "# readme\n"])
        let result = try fixture.todosync("init")
        #expect(result.stdout.contains("Using the git repository in \(fixture.path)"))
        #expect(!result.stdout.contains("example list"))
        #expect(fixture.lastSubject == "Adopt lists into todosync")
        #expect(fixture.lastBody.contains("Todosync-Unit: adopt"))
        #expect(try fixture.ids(in: "TODO.md").count == 1)
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/TODO.md.orig"))
        // Run again: nothing more to adopt.
        #expect(try fixture.todosync("init").stdout.contains("nothing to commit"))
        try fixture.expectCleanAndSound()
    }

    /// Adopting a vault prints a summary (how many lists in each top-level folder), not every
    /// file name; --verbose names each. Every file gets its ids in the one commit.
    @Test func initOnAVaultPrintsASummaryAndVerboseNamesEveryFile() throws {
        var files: [String: String] = [:]
        for index in 0..<300 {
            let folder = index < 15 * 18 ? "area\(index % 15)" : "top"
            files[folder == "top" ? "note\(index).md" : "\(folder)/sub/note\(index).md"] =
                "# Note \(index)\n\n- [ ] Task \(index)\n"
        }
        files["prose.md"] = "# Only words\n"
        let fixture = try Fixture(gitFiles: files)
        let result = try fixture.todosync("init")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count <= 40 && result.stdout.utf8.count <= 4_096, "\(result.stdout)")
        #expect(result.stdout.contains("Lists: 300 files (--verbose names them)\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  (top level) 30\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  area0/ 18\n"), "\(result.stdout)")
        #expect(result.stdout.contains("other folders"), "\(result.stdout)")
        #expect(!result.stdout.contains("note7.md"))
        #expect(try fixture.ids(in: "area3/sub/note3.md").count == 1)
        try fixture.expectCleanAndSound()

        let verbose = try Fixture(gitFiles: files)
        let named = try verbose.todosync("init", "--verbose")
        #expect(named.stdout.contains("Lists: 300\n  area0/sub/note0.md\n"), "\(named.stdout)")
        #expect(named.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.hasSuffix(".md") }.count == 300)
    }

    /// On a terminal, adopting a vault of a thousand notes or more tells how it is getting on,
    /// on one line rewritten in place and cleared before the summary; into a pipe, nothing.
    @Test func initOnAVaultShowsProgressOnATerminal() throws {
        var files: [String: String] = [:]
        for index in 0..<1_200 {
            files["daily/d\(index / 100)/note\(index).md"] = "# Day \(index)\n\n- [ ] Task \(index)\n"
        }
        let fixture = try Fixture(gitFiles: files)
        let command = "'\(todosyncBinary)' init"
        let result = try run(
            "/usr/bin/script", ["-qec", command, "/dev/null"], in: fixture.path,
            environment: ["TERM": "xterm", "NO_COLOR": nil])
        let shown = result.stdout
        #expect(shown.contains("\r\u{1B}[KReading notes: 600 of 1200"), "\(shown.debugDescription)")
        #expect(shown.contains("\r\u{1B}[KCommitting 1200 lists"), "\(shown.debugDescription)")
        #expect(
            shown.contains("1200\r\u{1B}[KUsing the git repository in "),
            "cleared before the summary: \(shown.debugDescription)")
        #expect(shown.contains("Lists: 1200 files"), "\(shown.debugDescription)")
        #expect(try fixture.ids(in: "daily/d7/note777.md").count == 1)
        try fixture.expectCleanAndSound()

        let piped = try Fixture(gitFiles: files)
        let quiet = try piped.todosync("init")
        #expect(!(quiet.stdout + quiet.stderr).contains("Reading notes"))
    }

    /// A write of more list files than the process may hold open at once (init in a vault
    /// ran out of file descriptors): run under a limit of 128, 400 notes get their ids.
    @Test func initWritesMoreFilesThanItMayHoldOpen() throws {
        var files: [String: String] = [:]
        for index in 0..<400 { files["n\(index % 7)/note\(index).md"] = "- [ ] Task \(index)\n" }
        let fixture = try Fixture(gitFiles: files)
        let result = try run("/bin/sh", ["-c", "ulimit -n 128 && exec \"$0\" init", todosyncBinary], in: fixture.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.ids(in: "n3/note3.md").count == 1)
        #expect(try fixture.ids(in: "n6/note398.md").count == 1)
        try fixture.expectCleanAndSound()
    }

    @Test func initSetsUpTheRemoteAndTheBranchTrackingIt() throws {
        let scratch = Scratch()
        let remote = try Remote()
        let result = try run(todosyncBinary, ["init", "lists", "--remote", remote.path], in: scratch.path)
        #expect(result.status == 0)
        let lists = scratch.path + "/lists"
        #expect(try git("config", "remote.origin.url", in: lists) == remote.path + "\n")
        #expect(try git("config", "branch.main.remote", in: lists) == "origin\n")
        #expect(try git("config", "branch.main.merge", in: lists) == "refs/heads/main\n")
        // Another URL for an existing origin is refused, naming both.
        let again = try run(todosyncBinary, ["init", "lists", "--remote", "/srv/other.git"], in: scratch.path)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already has a remote 'origin' at \(remote.path)"))
        #expect(again.stderr.contains("git remote set-url origin /srv/other.git"))
    }

    @Test func withNoIdentityConfiguredItCommitsAsTheUserAndSaysHowToSetIt() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        let home = Scratch()
        let result = try run(
            todosyncBinary, [], in: fixture.path,
            environment: [
                "HOME": home.path, "XDG_CONFIG_HOME": home.path, "USER": "ann", "GIT_AUTHOR_NAME": nil,
                "GIT_AUTHOR_EMAIL": nil,
                "GIT_COMMITTER_NAME": nil, "GIT_COMMITTER_EMAIL": nil,
            ])
        #expect(result.status == 0)
        #expect(result.stderr.contains("no user.name / user.email in git config; committed as ann <ann@"))
        #expect(result.stderr.contains("git config --global user.name"))
        #expect(try fixture.git("log", "-1", "--format=%an").hasPrefix("ann"))
    }

    @Test func gitIdentityVariablesWinAsTheyDoForGit() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        try fixture.todosync()
        #expect(
            try fixture.git("log", "-1", "--format=%an <%ae> / %cn <%ce>")
                == "Test Author <author@example.com> / Test Committer <committer@example.com>\n")
    }

    @Test func symlinkedMarkdownIsNotAList() throws {
        let fixture = try Fixture()
        try fixture.write("real.md", "- [ ] a\n")
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/link.md", withDestinationPath: "real.md")
        try fixture.todosync()
        #expect(try fixture.git("ls-files") == "real.md\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: fixture.path + "/link.md") == "real.md")
    }
}
