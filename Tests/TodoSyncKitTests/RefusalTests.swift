import Foundation
import Testing
import TestSupport

/// todosync refuses clearly and leaves the repository and the files exactly as they were.
@Suite struct RefusalTests {
    @Test func outsideARepositoryItSuggestsInit() throws {
        let scratch = Scratch()
        try scratch.write("TODO.md", "- [ ] a\n")
        let result = try run(todosyncBinary, [], in: scratch.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("todosync: error: not a git repository: \(scratch.path)"))
        #expect(result.stderr.contains("hint: run 'todosync init'"))
        #expect(try scratch.read("TODO.md") == "- [ ] a\n")
    }

    /// A repository another user owns is refused as git refuses it ("dubious ownership"),
    /// from its folder or one below, by a command or by init, with git's exact way out; once
    /// that is followed, todosync works there. (Needs root, to give the folder away.)
    @Test(.enabled(if: getuid() == 0)) func aRepositoryOwnedByAnotherUserGetsGitsWordsAndCommand() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n"])
        try FileManager.default.createDirectory(atPath: fixture.path + "/sub", withIntermediateDirectories: true)
        let home = Scratch()
        let before = fixture.head
        #expect(chown(fixture.path, 65_534, 65_534) == 0 && chown(fixture.path + "/.git", 65_534, 65_534) == 0)
        for (arguments, folder) in [
            ([String](), fixture.path), (["status"], fixture.path + "/sub"), (["init", "."], fixture.path),
        ] {
            let result = try run(todosyncBinary, arguments, in: folder, environment: ["HOME": home.path])
            #expect(result.status == 1, "\(arguments)")
            #expect(
                result.stderr.contains(
                    "todosync: error: detected dubious ownership in repository at '\(fixture.path)'"),
                "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "hint: if you trust it, add an exception: git config --global --add safe.directory \(fixture.path)\n"
                ))
        }
        _ = try run(
            "/usr/bin/git", ["config", "--global", "--add", "safe.directory", fixture.path], in: home.path,
            environment: ["HOME": home.path])
        let trusted = try run(todosyncBinary, [], in: fixture.path, environment: ["HOME": home.path])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        let after = try run("/usr/bin/git", ["rev-parse", "HEAD"], in: fixture.path, environment: ["HOME": home.path])
        #expect(after.status == 0 && after.stdout != before + "\n" && !before.isEmpty)
    }

    @Test func aMergeInProgressIsRefused() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n"])
        _ = try fixture.git("checkout", "-q", "-b", "other")
        try fixture.write("TODO.md", "- [ ] b\n")
        _ = try fixture.git("commit", "-qam", "other")
        _ = try fixture.git("checkout", "-q", "main")
        try fixture.write("TODO.md", "- [ ] c\n")
        _ = try fixture.git("commit", "-qam", "main")
        _ = try run("/usr/bin/git", ["merge", "other"], in: fixture.path)  // conflicts
        try expectRefusal(fixture, containing: "a git merge is in progress", hint: "git merge --abort")
    }

    @Test func aRebaseInProgressIsRefused() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n"])
        try FileManager.default.createDirectory(
            atPath: fixture.path + "/.git/rebase-merge", withIntermediateDirectories: true)
        try fixture.write("TODO.md", "- [ ] a\n- [ ] b\n")
        try expectRefusal(fixture, containing: "a git rebase is in progress", hint: "git rebase --continue")
    }

    /// Detached at an older commit whose list differs from main's, with an edit: the advice
    /// works as given (plain `git switch main` would refuse over the edit).
    @Test func aDetachedHeadIsRefusedWithAdviceThatWorks() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n"])
        try fixture.write("TODO.md", "- [ ] a\n- [ ] b\n")
        try fixture.todosync()
        _ = try fixture.git("checkout", "-q", "--detach", "HEAD~1")
        try fixture.write("TODO.md", "- [ ] a\n- [ ] c\n")
        try expectRefusal(fixture, containing: "HEAD is detached", hint: "git switch -c NEW-BRANCH")
        try expectRefusal(
            fixture, containing: "HEAD is detached", hint: "git stash && git switch main && git stash pop")
        let refused = try run("/usr/bin/git", ["switch", "main"], in: fixture.path)
        #expect(refused.status != 0, "plain git switch main refuses over the edit")
        _ = try fixture.git("switch", "-q", "-c", "kept")
        #expect(try fixture.todosync().stdout.contains("Add \"c\""))
        #expect(try fixture.git("status", "--porcelain").isEmpty)
    }

    @Test func anEmptyMessageIsRefusedBeforeAnyWork() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        let result = try fixture.todosync("commit", "-m", " ", expectStatus: 64)
        #expect(result.stderr.contains("the message given with -m is empty"))
        #expect(try fixture.read("TODO.md") == "- [ ] a\n")
    }

    @Test(arguments: ["index.lock", "refs/heads/main.lock", "HEAD.lock"])
    func aLockOfGitsIsRefusedBeforeAnythingIsWritten(lock: String) throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n"])
        try fixture.write("TODO.md", "- [ ] a\n- [ ] b\n")
        try fixture.write(".git/" + lock, "")
        try expectRefusal(fixture, containing: "git's lock file \(fixture.path)/.git/\(lock) exists", hint: "rm '")
        try FileManager.default.removeItem(atPath: fixture.path + "/.git/" + lock)
        try fixture.todosync()
        try fixture.expectCleanAndSound()
    }

    /// A NUL byte past the first 8,000 bytes (git still calls the file text; within them the
    /// list is refused as binary, `CommitEndToEndTests`).
    @Test func aNulByteInATitleKeepsTheUnitWhole() throws {
        let fixture = try Fixture()
        try fixture.write(
            "TODO.md",
            String(repeating: "Some prose to fill the first eight thousand bytes.\n", count: 170) + "- [ ] a\n")
        try fixture.todosync()
        try fixture.write("TODO.md", try fixture.read("TODO.md") + "- [ ] bad\u{0}byte\n")
        try fixture.todosync()
        #expect(try fixture.git("log", "-1", "--format=%(trailers:key=Todosync-Unit,valueonly)").contains("edit"))
        #expect(fixture.lastSubject == "Add \"bad␀byte\"")
        try fixture.todosync("undo")
        #expect(!(try fixture.read("TODO.md")).contains("bad"))
        try fixture.expectCleanAndSound()
    }

    private func expectRefusal(_ fixture: Fixture, containing message: String, hint: String) throws {
        let before = try fixture.read("TODO.md")
        let head = try fixture.git("rev-parse", "HEAD")
        let status = try fixture.git("status", "--porcelain")
        let result = try fixture.todosync(expectStatus: 1)
        #expect(result.stderr.contains(message))
        #expect(result.stderr.contains(hint))
        #expect(try fixture.read("TODO.md") == before)
        #expect(try fixture.git("rev-parse", "HEAD") == head)
        #expect(try fixture.git("status", "--porcelain") == status)
    }
}
