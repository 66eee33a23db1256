import Foundation
import Testing
import TestSupport

/// `todosync watch` through the built binary, with the git CLI as witness: bursts of saves
/// become one commit each, nothing saved is ever left out, and it takes turns with commands.
@Suite struct WatchEndToEndTests {
    /// A repository with a committed list whose items all have ids.
    private func committedFixture(_ items: [String] = ["Milk", "Bread"]) throws -> Fixture {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "# Todo\n\n" + items.map { "- [ ] \($0)\n" }.joined())
        try fixture.todosync()
        return fixture
    }

    /// The file with `line` appended: what an editor would save.
    private func appending(_ line: String, to name: String, in fixture: Fixture) throws -> String {
        try fixture.read(name) + line + "\n"
    }

    /// A vault with more folders than the system lets be watched (a limit of 5 here): watch
    /// says so once, with the way to raise it, and goes on by looking at the files; a save in
    /// a folder past the limit, and one in a folder made later, are committed.
    @Test func pastTheSystemsLimitOfWatchedFoldersItLooksAtTheFiles() throws {
        let fixture = try Fixture()
        for index in 0..<12 { try fixture.write("area\(index)/notes.md", "- [ ] Task \(index)\n") }
        try fixture.todosync()
        let before = fixture.commitCount
        let watch = try WatchProcess(
            in: fixture, ["--quiet-period", "1s"], environment: ["TODOSYNC_TEST_WATCH_LIMIT": "5"])
        let said = watch.stdout + watch.stderr
        #expect(said.contains("limit of watched folders (fs.inotify.max_user_watches) is reached"), "\(said)")
        #expect(said.contains("watching by looking at the files"), "\(said)")
        #expect(said.contains("sysctl fs.inotify.max_user_watches"), "\(said)")
        try fixture.save(
            "area11/notes.md", try appending("- [ ] Past the limit", to: "area11/notes.md", in: fixture), like: .vim)
        try waitUntil("the commit", timeout: 20) { fixture.commitCount == before + 1 }
        #expect(fixture.lastSubject.contains("Add \"Past the limit\""), "\(fixture.lastSubject)")
        try fixture.write("new/folder/later.md", "- [ ] In a new folder\n")
        try waitUntil("the second commit", timeout: 20) { fixture.commitCount == before + 2 }
        #expect(try fixture.git("show", "HEAD:new/folder/later.md").contains("- [ ] In a new folder <!-- id: "))
        #expect(try watch.stop() == 0)
        #expect(
            (watch.stdout + watch.stderr).components(separatedBy: "watching by looking at the files").count == 2,
            "said once")
        try fixture.expectCleanAndSound()
    }

    @Test func threeRapidSavesBecomeOneCommit() throws {
        let fixture = try committedFixture()
        let before = fixture.commitCount
        let watch = try WatchProcess(in: fixture, ["--quiet-period", "1s"])
        try fixture.save("TODO.md", try appending("- [ ] Eggs", to: "TODO.md", in: fixture), like: .vim)
        usleep(150_000)
        try fixture.save("TODO.md", try appending("- [ ] Tea", to: "TODO.md", in: fixture), like: .nano)
        usleep(150_000)
        try fixture.save(
            "TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "- [ ] Milk", with: "- [x] Milk"),
            like: .vim)
        try waitUntil("the commit", timeout: 20) { fixture.commitCount == before + 1 }
        // The ids it wrote, and anything else, bring no second commit.
        usleep(2_000_000)
        #expect(fixture.commitCount == before + 1, "\((try? fixture.git("log", "--format=%s%n%b")) ?? "")")
        let committed = try fixture.git("show", "HEAD:TODO.md")
        for line in ["- [ ] Eggs <!--", "- [ ] Tea <!--", "- [x] Milk <!--"] { #expect(committed.contains(line)) }
        #expect(fixture.lastBody.contains("Add \"Eggs\"") && fixture.lastBody.contains("Check \"Milk\""))
        #expect(try watch.stop() == 0)
        try fixture.expectCleanAndSound()
        #expect(try fixture.read("TODO.md") == committed)
    }

    @Test func editsMadeBeforeWatchStartedAreCommittedFirst() throws {
        let fixture = try committedFixture()
        try fixture.save("TODO.md", try appending("- [ ] Eggs", to: "TODO.md", in: fixture), like: .vim)
        let watch = try WatchProcess(in: fixture, ["--quiet-period", "30s"])
        try waitUntil("the commit", timeout: 20) { fixture.lastSubject == "Add \"Eggs\"" }
        #expect(try watch.stop() == 0)
        try fixture.expectCleanAndSound()
    }

    /// A save while a commit runs (here: while its post-commit hook runs, so the commit is
    /// already made) becomes the next commit.
    @Test func aSaveDuringACommitBecomesTheNextCommit() throws {
        let fixture = try committedFixture()
        let marker = fixture.scratch.path + "/.git/committing"
        try fixture.write(".git/hooks/post-commit", "#!/bin/sh\ntouch '\(marker)'\nsleep 1\n")
        chmod(fixture.path + "/.git/hooks/post-commit", 0o755)
        let before = fixture.commitCount
        let watch = try WatchProcess(in: fixture, ["--quiet-period", "300ms"])
        try fixture.save(
            "TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "- [ ] Milk", with: "- [x] Milk"),
            like: .vim)
        try waitUntil("the post-commit hook", timeout: 20) { FileManager.default.fileExists(atPath: marker) }
        try fixture.save(
            "TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "- [ ] Bread", with: "- [x] Bread"),
            like: .nano)
        try waitUntil("the second commit", timeout: 20) { fixture.commitCount == before + 2 }
        #expect(try fixture.git("log", "-2", "--format=%s") == "Check \"Bread\"\nCheck \"Milk\"\n")
        #expect(try watch.stop() == 0)
        #expect(fixture.commitCount == before + 2)
        try fixture.expectCleanAndSound()
    }

    @Test func sigtermCommitsThePendingSave() throws {
        let fixture = try committedFixture()
        let watch = try WatchProcess(in: fixture, ["--quiet-period", "1h"])
        let before = fixture.commitCount
        try fixture.save("TODO.md", try appending("- [ ] Eggs", to: "TODO.md", in: fixture), like: .vim)
        usleep(300_000)
        #expect(fixture.commitCount == before)
        #expect(try watch.stop() == 0)
        #expect(fixture.commitCount == before + 1)
        #expect(fixture.lastSubject == "Add \"Eggs\"")
        #expect(watch.stdout.contains("Stopping: committing what is pending."))
        try fixture.expectCleanAndSound()
    }

    @Test func listsCreatedRenamedAndDeletedArePickedUp() throws {
        let fixture = try committedFixture()
        let watch = try WatchProcess(in: fixture, ["--quiet-period", "200ms"])
        // A new folder, then a list in it: the folder is watched from its creation on.
        try FileManager.default.createDirectory(atPath: fixture.path + "/work", withIntermediateDirectories: false)
        usleep(100_000)
        try fixture.write("work/TODO.md", "- [ ] Report\n")
        try waitUntil("the new list committed", timeout: 20) {
            (try? fixture.git("ls-files")) == "TODO.md\nwork/TODO.md\n"
        }
        try waitUntil("its id written", timeout: 20) {
            (try? fixture.read("work/TODO.md"))?.contains("<!-- id:") == true
        }
        #expect(rename(fixture.path + "/work/TODO.md", fixture.path + "/work/Later.md") == 0)
        try waitUntil("the rename committed", timeout: 20) {
            (try? fixture.git("ls-files")) == "TODO.md\nwork/Later.md\n"
        }
        #expect(unlink(fixture.path + "/work/Later.md") == 0)
        try waitUntil("the deletion committed", timeout: 20) { (try? fixture.git("ls-files")) == "TODO.md\n" }
        #expect(try watch.stop() == 0)
        try fixture.expectCleanAndSound()
    }

    /// In a vault, watch keeps the candidate files and their stats between its commits (as
    /// git's fsmonitor spares `git status` its walk): every save is committed all the same, in
    /// whichever note; a new note, a deleted one, and a file git was told to track by hand in a
    /// folder .gitignore leaves out (so not watched) make it walk and look at every file again.
    @Test func savesInAVaultAreCommittedFromTheFilesWatchKept() throws {
        let fixture = try Fixture()
        for folder in 0..<3 {
            for note in 0..<10 {
                try fixture.write("area\(folder)/note\(note).md", "# Note\n\n- [ ] Task \(folder)-\(note)\n")
            }
        }
        try fixture.write(".gitignore", "private/\n")
        _ = try fixture.git("add", ".gitignore")
        _ = try fixture.git("commit", "-q", "-m", "Leave private/ out")
        try fixture.write("private/forced.md", "- [ ] Forced\n")
        try fixture.todosync()
        let watch = try WatchProcess(in: fixture, ["--quiet-period", "300ms"], environment: ["TODOSYNC_TRACE": "1"])
        var count = fixture.commitCount
        func save(_ path: String, _ old: String, _ new: String) throws {
            try fixture.save(path, try fixture.read(path).replacingOccurrences(of: old, with: new), like: .vim)
            count += 1
            try waitUntil("\(path) committed", timeout: 20) { fixture.commitCount == count }
            #expect(try fixture.git("show", "HEAD:" + path).contains(new), "\(path)")
        }
        try save("area0/note1.md", "Task 0-1", "Task 0-1 edited")
        try save("area1/note2.md", "Task 1-2", "Task 1-2 edited")
        try save("area2/note3.md", "Task 2-3", "Task 2-3 edited")
        try save("area0/note1.md", "Task 0-1 edited", "Task 0-1 again")

        try fixture.write("area1/new.md", "- [ ] Written in a new note\n")
        count += 1
        try waitUntil("the new note committed", timeout: 20) { fixture.commitCount == count }
        #expect(try fixture.git("show", "HEAD:area1/new.md").contains("Written in a new note <!-- id: "))
        #expect(unlink(fixture.path + "/area2/note4.md") == 0)
        count += 1
        try waitUntil("the deletion committed", timeout: 20) { fixture.commitCount == count }
        #expect(!(try fixture.git("ls-files")).contains("area2/note4.md"))

        // Tracked by hand with plain git: git's index changed, so the next pass walks and takes
        // in a change made where nothing watched.
        _ = try fixture.git("add", "-f", "private/forced.md")
        _ = try fixture.git("commit", "-q", "-m", "Track the forced note")
        count += 1
        try fixture.write(
            "private/forced.md",
            try fixture.read("private/forced.md").replacingOccurrences(of: "Forced", with: "Forced, edited unwatched"))
        try save("area2/note5.md", "Task 2-5", "Task 2-5 edited")
        #expect(try fixture.git("show", "HEAD:private/forced.md").contains("Forced, edited unwatched"))
        // Its folder is watched from then on.
        try save("private/forced.md", "edited unwatched", "edited watched")

        #expect(try watch.stop() == 0)
        #expect(
            watch.stderr.components(separatedBy: "candidate files: as watch kept them").count - 1 >= 3,
            "\(watch.stderr)")
        try fixture.expectCleanAndSound()
        for folder in 0..<3 {
            for note in 0..<10 where (folder, note) != (2, 4) {
                let path = "area\(folder)/note\(note).md"
                #expect(try fixture.git("show", "HEAD:" + path) == (try fixture.read(path)), "\(path)")
            }
        }
    }

    /// `todosync done` and `add` typed while watch commits an editor's saves (in another list):
    /// they take turns through the write lock; every edit ends committed.
    @Test func commandsRunDuringWatchLoseNothing() throws {
        let fixture = try committedFixture((1...8).map { "Item \($0)" })
        try fixture.write("work/TODO.md", "- [ ] Start\n")
        try fixture.todosync()
        let watch = try WatchProcess(in: fixture, ["--quiet-period", "100ms"])
        for round in 1...8 {
            try fixture.save(
                "work/TODO.md", try appending("- [ ] Saved \(round)", to: "work/TODO.md", in: fixture),
                like: round % 2 == 0 ? .vim : .nano)
            try fixture.todosync("done", "Item \(round)")
            try fixture.todosync("add", "Added \(round)")
        }
        #expect(try watch.stop() == 0)
        let list = try fixture.git("show", "HEAD:TODO.md")
        let work = try fixture.git("show", "HEAD:work/TODO.md")
        for round in 1...8 {
            #expect(list.contains("- [x] Item \(round) <!--"))
            #expect(list.contains("- [ ] Added \(round) <!--"))
            #expect(work.contains("- [ ] Saved \(round) <!--"))
        }
        #expect(!(try fixture.git("log", "--format=%B")).contains("Remove"))
        try fixture.expectCleanAndSound()
    }

    @Test func syncEveryConvergesTwoClonesEditedConcurrently() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": "- [ ] Milk\n- [ ] Bread\n"])
        try alice.todosync()
        try alice.sync()
        try bob.sync()
        let arguments = ["--quiet-period", "200ms", "--sync-every", "1s"]
        let watchers = [try WatchProcess(in: alice, arguments), try WatchProcess(in: bob, arguments)]
        try alice.save(
            "TODO.md",
            try alice.read("TODO.md").replacingOccurrences(of: "- [ ] Milk", with: "- [x] Milk") + "- [ ] From Alice\n",
            like: .vim)
        try bob.save(
            "TODO.md",
            try bob.read("TODO.md").replacingOccurrences(of: "- [ ] Bread", with: "- [x] Bread") + "- [ ] From Bob\n",
            like: .nano)
        let expected = ["- [x] Milk <!--", "- [x] Bread <!--", "- [ ] From Alice <!--", "- [ ] From Bob <!--"]
        try waitUntil("both clones hold every edit", timeout: 60) {
            let lists = [try alice.read("TODO.md"), try bob.read("TODO.md")]
            return lists[0] == lists[1] && expected.allSatisfy { lists[0].contains($0) }
        }
        for watch in watchers { #expect(try watch.stop() == 0) }
        #expect(alice.head == bob.head)
        for clone in [alice, bob] {
            try clone.expectCleanAndSound()
            #expect(try clone.git("show", "HEAD:TODO.md") == (try clone.read("TODO.md")))
        }
        #expect(!watchers.contains { $0.stderr.contains("error") })
    }

    /// An unreachable remote is reported once, tried again later and later, and said to work
    /// again once it is there.
    @Test func aRemoteThatIsDownIsReportedOnceThenRecovers() throws {
        let fixture = try committedFixture()
        let remote =
            fixture.scratch.path + "/../" + URL(fileURLWithPath: fixture.scratch.path).lastPathComponent + "-remote.git"
        defer { try? FileManager.default.removeItem(atPath: remote) }
        _ = try fixture.git("remote", "add", "origin", remote)
        let watch = try WatchProcess(in: fixture, ["--quiet-period", "100ms", "--sync-every", "200ms"])
        try waitUntil("a failure reported", timeout: 20) { watch.stderr.contains("sync failed") }
        usleep(1_500_000)
        #expect(
            watch.stderr.components(separatedBy: "sync failed").count == 2, "reported more than once:\n\(watch.stderr)")
        _ = try git("init", "-q", "--bare", "-b", "main", remote, in: fixture.scratch.path)
        try waitUntil("sync to work again", timeout: 30) { watch.stdout.contains("Sync works again.") }
        #expect(try git("rev-parse", "main", in: remote) == (try fixture.git("rev-parse", "HEAD")))
        #expect(try watch.stop() == 0)
    }

    /// A watch syncing again and again keeps its memory. libgit2 1.5 leaks a buffer for each
    /// config entry each time it looks a remote up (`RemoteSettings`): with the 300 entries of
    /// a well-used config, megabytes a sync.
    @Test func aWatchSyncingAgainAndAgainKeepsItsMemory() throws {
        let (remote, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": "- [ ] One\n"])
        _ = remote
        let settings = (0..<300).map { "\tkey\($0) = value \($0)\n" }.joined()
        let config = alice.path + "/.git/config"
        try (String(contentsOfFile: config, encoding: .utf8) + "[someTool]\n" + settings).write(
            toFile: config, atomically: true, encoding: .utf8)
        let watch = try WatchProcess(in: alice, ["--quiet-period", "100ms", "--sync-every", "200ms"])
        func ownMemory() -> Int {
            let status =
                (try? String(contentsOfFile: "/proc/\(watch.process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        usleep(3_000_000)
        let early = ownMemory()
        usleep(8_000_000)
        let late = ownMemory()
        // Still syncing: a change pushed with plain git comes in.
        _ = try bob.git("pull", "-q", "--no-rebase", "--no-edit")
        try bob.write("TODO.md", try bob.read("TODO.md") + "- [ ] From Bob\n")
        try bob.commitAndPushWithGit("Add From Bob")
        try waitUntil("Bob's item to come in", timeout: 20) {
            (try? alice.read("TODO.md"))?.contains("From Bob") == true
        }
        #expect(
            early > 0 && late - early < 16_000, "watch's own memory grew from \(early) kB to \(late) kB in 8 s of syncs"
        )
        #expect(try watch.stop() == 0)
    }

    @Test func aDurationWithoutUnitIsRefused() throws {
        let fixture = try committedFixture()
        let result = try fixture.todosync("watch", "--quiet-period", "3", expectStatus: 64)
        #expect(result.stderr.contains("'3' is not a duration; write it with its unit, as 500ms, 3s, 5m or 1h"))
    }
}
