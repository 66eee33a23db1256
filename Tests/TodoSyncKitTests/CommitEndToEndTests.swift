import Foundation
import Testing
import TestSupport

/// The whole tool through real repositories in temporary folders, with git as the witness.
@Suite struct CommitEndToEndTests {
    @Test func initCreatesARepositoryWithAnExampleListAndOneCommit() throws {
        let fixture = try Fixture()
        let result = try run(todosyncBinary, ["init", "lists"], in: fixture.path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Created a git repository"))
        let lists = fixture.path + "/lists"
        #expect(try git("rev-list", "--count", "HEAD", in: lists) == "1\n")
        #expect(try git("symbolic-ref", "--short", "HEAD", in: lists) == "main\n")
        #expect(try git("log", "-1", "--format=%s%n%b", in: lists).contains("Todosync-Unit: adopt"))
        let text = try String(contentsOfFile: lists + "/TODO.md", encoding: .utf8)
        #expect(text.components(separatedBy: "<!-- id: ").count - 1 == 3)
        #expect(try git("status", "--porcelain", in: lists).isEmpty)
        try git("fsck", "--strict", in: lists)
    }

    @Test func anEditorSessionBecomesOneCommitThatSaysWhatChanged() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "# Home\n\n- [ ] Buy milk\n- [ ] Call Bob\n  about the car\n- [ ] Old idea\n")
        try fixture.todosync()
        let committed = try fixture.read("TODO.md")
        let ids = try fixture.ids(in: "TODO.md")
        #expect(ids.count == 3)

        // An editor session: check one, rename one, remove one, add two, edit notes.
        var edited = committed
        edited = edited.replacingOccurrences(of: "- [ ] Buy milk", with: "- [x] Buy milk")
        edited = edited.replacingOccurrences(of: "about the car", with: "about the red car")
        edited = edited.replacingOccurrences(of: "Old idea", with: "New idea")
        edited += "- [ ] Pay rent ⏫ 📅 2026-12-01\n- [ ] Water plants\n"
        try fixture.write("TODO.md", edited)
        let status = try fixture.todosync("status")
        #expect(status.stdout.contains("Check \"Buy milk\"  (TODO.md:3)"))
        #expect(status.stdout.contains("2 items need an id."))
        #expect(try fixture.read("TODO.md") == edited)  // status writes nothing

        let result = try fixture.todosync()
        #expect(fixture.commitCount == 2)
        #expect(fixture.lastSubject == "Check \"Buy milk\", edit notes of \"Call Bob\" and 3 more")
        #expect(fixture.lastBody.contains("- Rename \"Old idea\" to \"New idea\""))
        #expect(fixture.lastBody.contains("- Add \"Pay rent\""))
        #expect(fixture.lastBody.contains("- Add \"Water plants\""))
        #expect(fixture.lastBody.contains("Todosync-Unit: edit"))
        #expect(result.stdout.hasPrefix("[main "))
        // Only id comments were added to the editor's bytes, and old ids stayed.
        let final = try fixture.read("TODO.md")
        let newIDs = try fixture.ids(in: "TODO.md")
        #expect(Array(newIDs.prefix(3)) == ids)
        var stripped = final
        for id in newIDs.suffix(2) { stripped = stripped.replacingOccurrences(of: " <!-- id: \(id) -->", with: "") }
        #expect(stripped == edited)
        try fixture.expectCleanAndSound()
        // The edited bytes' blob, written ahead of the commit, was not used (ids were added).
        try fixture.expectNoStrayObjects()
    }

    /// A large list's committed version is read on another thread while its working version is
    /// parsed: an edit is committed as one change; a list touched but not changed (the read
    /// ahead unused) is nothing to commit.
    @Test func aLargeListsCommittedVersionIsReadAhead() throws {
        let fixture = try Fixture.committedNumberedList(30_000)
        #expect(try fixture.read("TODO.md").utf8.count > 1 << 20)
        usleep(1_100_000)
        try fixture.write(
            "TODO.md",
            try fixture.read("TODO.md").replacingOccurrences(
                of: "- [ ] Task number 29998 ", with: "- [x] Task number 29998 "))
        let traced = try run(todosyncBinary, [], in: fixture.path, environment: ["TODOSYNC_TRACE": "1"])
        #expect(
            traced.status == 0 && traced.stderr.contains("todosync trace: HEAD's version read ahead: TODO.md"),
            "\(traced.stderr)")
        #expect(fixture.lastSubject == "Check \"Task number 29998 to do\"")
        #expect(try fixture.git("show", "HEAD:TODO.md") == (try fixture.read("TODO.md")))
        // Its blob was stored while it was parsed, and that is the blob committed.
        #expect(traced.stderr.contains("todosync trace: wait for TODO.md's blob, stored ahead"), "\(traced.stderr)")
        try fixture.write("TODO.md", try fixture.read("TODO.md"))
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))
        try fixture.expectCleanAndSound()
        // An item typed in gets an id: the bytes read, being stored meanwhile, are not the
        // commit's, and their blob is not left behind however far it got.
        try fixture.write("TODO.md", try fixture.read("TODO.md") + "- [ ] Typed in\n")
        try fixture.todosync()
        #expect(fixture.lastSubject == "Add \"Typed in\"")
        #expect(try fixture.git("show", "HEAD:TODO.md") == (try fixture.read("TODO.md")))
        try fixture.expectNoStrayObjects()
    }

    /// A large list copied with its repository (`cp -a`, a backup restored: every file has
    /// another inode and a later ctime) is hashed, as git checks it, not compared item by item
    /// with HEAD's version; an edit of the same size and time is still seen.
    @Test func aLargeListCopiedWithItsRepositoryIsHashedNotReadAgain() throws {
        let fixture = try Fixture.committedNumberedList(12_000)
        #expect(try fixture.read("TODO.md").utf8.count > 256 << 10)
        let copy = Scratch()
        _ = try run("/bin/cp", ["-a", fixture.path + "/.", copy.path], in: copy.path)
        let traced = try run(todosyncBinary, ["status"], in: copy.path, environment: ["TODOSYNC_TRACE": "1"])
        #expect(traced.status == 0 && traced.stdout.contains("Nothing changed"), "\(traced.stdout)")
        #expect(!traced.stderr.contains("read and parse HEAD's lists"), "\(traced.stderr)")
        // Same size, same modification time, other bytes: the hash tells.
        let path = copy.path + "/TODO.md"
        let stamp = copy.path + "/.git/stamp"
        _ = try run("/usr/bin/touch", ["-r", path, stamp], in: copy.path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "- [ ] Task number 11999 ", with: "- [x] Task number 11999 ")
            .write(toFile: path, atomically: false, encoding: .utf8)
        _ = try run("/usr/bin/touch", ["-r", stamp, path], in: copy.path)
        let status = try run(todosyncBinary, ["status"], in: copy.path)
        #expect(status.stdout.contains("Check \"Task number 11999 to do\""), "\(status.stdout)")
    }

    @Test func anEditIsCommittedFromTheBlobStoredAheadUnlessIdsAreWrittenBack() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n")
        try fixture.todosync()
        // Every item keeps its id: the bytes stored while HEAD was read are what is committed.
        try fixture.write(
            "TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "Buy milk", with: "Buy oat milk"))
        try fixture.todosync()
        #expect(try fixture.git("show", "HEAD:TODO.md") == (try fixture.read("TODO.md")))
        try fixture.expectNoStrayObjects()
        // A line pasted twice: the copy gets an id of its own, and the commit holds the bytes
        // written back, not the bytes read (whose blob was stored ahead in vain).
        let text = try fixture.read("TODO.md")
        try fixture.write("TODO.md", text + text.split(separator: "\n")[1] + "\n")
        try fixture.todosync()
        let ids = try fixture.ids(in: "TODO.md")
        #expect(ids.count == 3 && Set(ids).count == 3)
        #expect(try fixture.git("show", "HEAD:TODO.md") == (try fixture.read("TODO.md")))
        try fixture.expectCleanAndSound()
    }

    @Test func textTypedAfterTheIdStaysInTheSameItem() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Book dentist\n- [ ] Call Bob\n")
        try fixture.todosync()
        let ids = try fixture.ids(in: "TODO.md")
        // As vim's `A` or the End key types it: after the id comment, at the end of the line.
        var lines = try fixture.read("TODO.md").split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        lines[0] += " 📅 2026-12-03"
        lines[1] = lines[1].replacingOccurrences(of: "- [ ]", with: "- [x]") + " ✅ 2026-11-24"
        try fixture.write("TODO.md", lines.joined(separator: "\n"))
        try fixture.todosync()
        #expect(fixture.lastSubject.hasPrefix("Set due date of \"Book dentist\" to 2026-12-03"))
        #expect(fixture.lastBody.contains("- Check \"Call Bob"), "\(fixture.lastBody)")
        #expect(!fixture.lastBody.contains("Add") && !fixture.lastBody.contains("Remove"), "\(fixture.lastBody)")
        // Nothing was written into the file: the same ids, each once.
        #expect(try fixture.ids(in: "TODO.md") == ids)
        #expect(try fixture.read("TODO.md") == lines.joined(separator: "\n"))
        let status = try fixture.todosync("status")
        #expect(status.stdout.contains("Nothing changed"))
        try fixture.expectCleanAndSound()
    }

    /// Issue 30 point 2: a new id goes before the fields Obsidian Tasks reads from the end of
    /// the line and before a block reference; Obsidian Tasks then completes the item (rewriting
    /// its line with a done date before the reference) and it stays one item. An id already
    /// written after fields stays where it is.
    @Test func newIdsGoBeforeObsidianTasksFieldsAndBlockReferences() throws {
        let fixture = try Fixture()
        let old = "- [ ] Pay rent ⏫ <!-- id: 0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F -->"
        try fixture.write(
            "TODO.md",
            "- [ ] Book dentist 📅 2026-12-03 ^dentist\n- [ ] Water plants 🔁 every week ⏳ 2026-11-23\n- [ ] Call Bob\n\(old)\n"
        )
        try fixture.todosync()
        let text = try fixture.read("TODO.md")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines[0].firstMatch(of: /^- \[ \] Book dentist <!-- id: [0-9A-F-]{36} --> 📅 2026-12-03 \^dentist$/) != nil,
            "\(lines[0])")
        #expect(
            lines[1].firstMatch(of: /^- \[ \] Water plants <!-- id: [0-9A-F-]{36} --> 🔁 every week ⏳ 2026-11-23$/)
                != nil, "\(lines[1])")
        #expect(lines[2].firstMatch(of: /^- \[ \] Call Bob <!-- id: [0-9A-F-]{36} -->$/) != nil, "\(lines[2])")
        #expect(lines[3] == old)
        let json = try fixture.todosync("list", "--json").stdout
        let items = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        #expect(items.map { $0["title"] as? String } == ["Book dentist", "Water plants", "Call Bob", "Pay rent"])
        #expect(items.map { $0["recurrence"] as? String } == [nil, "every week", nil, nil])
        #expect(items.map { $0["scheduled"] as? String } == [nil, "2026-11-23", nil, nil])
        #expect(items.map { $0["due"] as? String } == ["2026-12-03", nil, nil, nil])
        #expect(items.map { $0["priority"] as? String } == [nil, nil, nil, "high"])
        // Obsidian Tasks checks the item: it writes the done date after the other fields.
        let ids = try fixture.ids(in: "TODO.md")
        let completed = lines[0].replacingOccurrences(of: "- [ ]", with: "- [x]").replacingOccurrences(
            of: " ^dentist", with: " ✅ 2026-11-24 ^dentist")
        try fixture.write("TODO.md", ([completed] + lines.dropFirst()).joined(separator: "\n") + "\n")
        try fixture.todosync()
        #expect(fixture.lastSubject.hasPrefix("Check \"Book dentist"), "\(fixture.lastSubject)")
        #expect(!fixture.lastBody.contains("Add") && !fixture.lastBody.contains("Remove"), "\(fixture.lastBody)")
        #expect(try fixture.ids(in: "TODO.md") == ids)
        try fixture.expectCleanAndSound()
    }

    @Test func nothingChangedMakesNoCommit() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        try fixture.todosync()
        let again = try fixture.todosync()
        #expect(again.stdout == "Nothing changed since the last commit.\n")
        #expect(fixture.commitCount == 1)
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))
    }

    /// `todosync` and `todosync status` skip argument parsing; they must act as the parsed forms do.
    @Test func theArgumentlessRunsActAsTheParsedCommands() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        let parsedStatus = try fixture.todosync("status", "-C", ".").stdout
        #expect(parsedStatus.contains("Add \"a\""))
        #expect(try fixture.todosync("status").stdout == parsedStatus)
        let plain = try fixture.todosync().stdout
        try fixture.write("TODO.md", try fixture.read("TODO.md") + "- [ ] b\n")
        let parsed = try fixture.todosync("commit").stdout
        #expect(plain.hasPrefix("[main ") && plain.hasSuffix("] Add \"a\"\n"))
        #expect(parsed.hasPrefix("[main ") && parsed.hasSuffix("] Add \"b\"\n"))
        #expect(fixture.commitCount == 2)
        #expect(try fixture.todosync("status").stdout == fixture.todosync("status", "-C", ".").stdout)
        // Outside a repository both fail the same way, with status 1.
        let outside = Scratch()
        let fast = try run(todosyncBinary, [], in: outside.path)
        let slow = try run(todosyncBinary, ["commit"], in: outside.path)
        #expect(fast.status == 1 && slow.status == 1)
        #expect(fast.stderr.contains("not a git repository") && fast.stderr == slow.stderr)
    }

    @Test func aDamagedIdIsRepairedInTheFileEvenWhenNothingElseChanged() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n- [ ] b\n")
        try fixture.todosync()
        let committed = try fixture.read("TODO.md")
        let id = try fixture.ids(in: "TODO.md")[1]
        // An editor lost a dash and a digit.
        try fixture.write(
            "TODO.md", committed.replacingOccurrences(of: "<!-- id: \(id)", with: "<!- id: \(id.dropLast())"))
        let result = try fixture.todosync()
        #expect(result.stderr.contains("TODO.md:2: damaged id comment repaired"))
        #expect(result.stdout == "Nothing changed since the last commit.\n")
        #expect(try fixture.read("TODO.md") == committed)
        #expect(fixture.commitCount == 1)
        try fixture.expectCleanAndSound()
    }

    @Test func theFirstCommitOfAnEmptyRepositoryHasNoParent() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        try fixture.todosync("commit", "-m", "Start")
        #expect(fixture.lastSubject == "Start")
        #expect(try fixture.git("log", "-1", "--format=%P") == "\n")
        try fixture.expectCleanAndSound()
    }

    @Test func clonesAdoptingPlainGitHistoryDeriveTheSameIds() throws {
        let origin = try Fixture(gitFiles: [
            "TODO.md": "- [ ] a\n- [ ] b\n", "work/plan.md": "* [x] c\n", ".gitattributes": "*.md todosync\n",
        ])
        let one = Scratch(), two = Scratch()
        try git("clone", "-q", origin.path, one.path + "/c", in: one.path)
        try git("clone", "-q", origin.path, two.path + "/c", in: two.path)
        for clone in [one, two] { #expect(try run(todosyncBinary, [], in: clone.path + "/c").status == 0) }
        #expect(try one.read("c/TODO.md") == two.read("c/TODO.md"))
        #expect(try one.read("c/work/plan.md") == two.read("c/work/plan.md"))
        #expect(try git("log", "-1", "--format=%s", in: one.path + "/c") == "Add ids to 3 items\n")
    }

    @Test func aPlainGitCommitInBetweenIsJustHistory() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        try fixture.todosync()
        // Someone edits and commits with git, adding an item without an id.
        try fixture.write("TODO.md", try fixture.read("TODO.md") + "- [ ] from git\n")
        _ = try fixture.git("commit", "-qam", "git edit")
        let result = try fixture.todosync()
        #expect(result.stdout.contains("Add an id to 1 item"))
        #expect(fixture.commitCount == 3)
        // The derived id is the same a clone of that commit would derive.
        let clone = Scratch()
        _ = try git("clone", "-q", fixture.path, clone.path + "/c", in: clone.path)
        _ = try git("reset", "-q", "--hard", "HEAD~1", in: clone.path + "/c")
        #expect(try run(todosyncBinary, [], in: clone.path + "/c").status == 0)
        #expect(try clone.read("c/TODO.md") == fixture.read("TODO.md"))
        try fixture.expectCleanAndSound()
    }

    @Test func readmeIgnoredFilesAndProseOnlyFilesAreNotLists() throws {
        let fixture = try Fixture()
        try fixture.write("README.md", "- [ ] not a list item\n")
        try fixture.write("notes.md", "Just prose.\n")
        try fixture.write("drafts/ideas.md", "- [ ] ignored\n")
        try fixture.write(".gitignore", "drafts/\n")
        try fixture.write("home/groceries.md", "- [ ] eggs\n")
        try fixture.todosync()
        #expect(try fixture.read("README.md") == "- [ ] not a list item\n")
        #expect(try fixture.read("drafts/ideas.md") == "- [ ] ignored\n")
        #expect(try fixture.ids(in: "home/groceries.md").count == 1)
        #expect(try fixture.git("ls-files") == "home/groceries.md\n")
    }

    /// Every file git reads ignore patterns from leaves out what git leaves out (git's own
    /// `status --ignored` is the witness); ignore files holding only comments and blank lines
    /// leave nothing out.
    @Test func everyIgnoreFileLeavesOutWhatGitLeavesOut() throws {
        let fixture = try Fixture()
        let lists = [
            "a.md", "area/b.md", "area/sub/c.md", "area/sub/#hash.md", "secret.md", "private/d.md", "area/sub/e.md",
        ]
        for path in lists { try fixture.write(path, "- [ ] item in \(path)\n") }
        // Comments and blanks only (as git's own template): nothing is left out.
        try fixture.write(
            ".git/info/exclude", "# git ls-files --others --exclude-from=.git/info/exclude\n\n   \n# *.md\n")
        try fixture.todosync()
        #expect(try fixture.git("ls-files").split(separator: "\n").count == lists.count)
        _ = try fixture.git("rm", "-q", "-r", "--cached", ".")
        _ = try fixture.git("commit", "-q", "-m", "untrack")

        try fixture.write(".git/info/exclude", "# comment\nsecret.md\n")
        try fixture.write("../excludes", "private/\n")
        _ = try fixture.git("config", "core.excludesFile", fixture.path + "/../excludes")
        try fixture.write("area/sub/.gitignore", "\\#hash.md\n e.md\n")
        try fixture.todosync()
        let ignored = try fixture.git("status", "--porcelain", "--ignored", "--untracked-files=all")
        #expect(
            ignored.contains("!! secret.md") && ignored.contains("!! private/")
                && ignored.contains("!! area/sub/#hash.md"), "\(ignored)")
        #expect(try fixture.git("ls-files") == "a.md\narea/b.md\narea/sub/c.md\narea/sub/e.md\n")
        // Every Markdown file git does not leave out is committed (" e.md" names another file).
        #expect(!ignored.split(separator: "\n").contains { $0.hasPrefix("?? ") && $0.hasSuffix(".md") }, "\(ignored)")
    }

    /// A linked worktree reads info/attributes and info/exclude from the git directory it shares
    /// (as git does): the Markdown files they mark are lists there, the files they leave out
    /// stay out.
    @Test func aLinkedWorktreeReadsTheSharedInfoFiles() throws {
        let fixture = try Fixture(gitFiles: ["README.txt": "lists\n"])
        try fixture.write(".git/info/exclude", "secret.md\n")
        let worktree = fixture.path + "/../worktree-\(UUID().uuidString)"
        _ = try fixture.git("worktree", "add", "-q", "-b", "elsewhere", worktree)
        defer { try? FileManager.default.removeItem(atPath: worktree) }
        try Data("- [ ] In a note\n".utf8).write(to: URL(fileURLWithPath: worktree + "/note.md"))
        try Data("- [ ] Secret\n".utf8).write(to: URL(fileURLWithPath: worktree + "/secret.md"))
        let result = try run(todosyncBinary, [], in: worktree)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try git("ls-files", in: worktree) == "README.txt\nnote.md\n")
        #expect(try git("status", "--porcelain", in: worktree).isEmpty)
    }

    /// An empty or prose-only TODO.md is a list: committed, so items typed into it later have a
    /// history, and item commands add to it.
    @Test func anEmptyOrProseOnlyTodoFileIsAList() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "# Plans\n\nNothing yet.\n")
        try fixture.write("work/todo.md", "")
        try fixture.todosync()
        #expect(try fixture.git("ls-files") == "TODO.md\nwork/todo.md\n")
        #expect(fixture.commitCount == 1)
        #expect(fixture.lastSubject == "Edit the text of TODO.md and 1 more file")
        try fixture.expectCleanAndSound()
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))

        try fixture.write("TODO.md", "# Plans\n\nNothing yet, soon.\n")
        #expect(
            try fixture.todosync("status").stdout.contains(
                "No item changed; the text around the items did, in TODO.md."))
        try fixture.todosync()
        #expect(fixture.lastSubject == "Edit the text of TODO.md")
        try fixture.todosync("add", "Buy milk")
        #expect(try fixture.read("TODO.md").hasPrefix("# Plans\n\nNothing yet, soon.\n- [ ] Buy milk <!-- id: "))
        #expect(fixture.lastSubject == "Add \"Buy milk\"")
        // Emptied again, it stays committed as it is.
        try fixture.write("TODO.md", "")
        try fixture.todosync()
        #expect(fixture.lastSubject == "Remove \"Buy milk\"")
        #expect(try fixture.git("show", "HEAD:TODO.md").isEmpty)
        try fixture.expectCleanAndSound()
    }

    /// In a repository without the todosync attribute (a code project), `todosync.include`
    /// adds lists to the TODO.md files; `todosync.exclude` takes files out, TODO.md included.
    @Test func configuredPatternsChooseTheLists() throws {
        let fixture = try Fixture(listsRepository: false)
        _ = try fixture.git("config", "todosync.include", "lists/*.md")
        _ = try fixture.git("config", "todosync.exclude", "lists/old/TODO.md")
        try fixture.write("TODO.md", "- [ ] always a list\n")
        try fixture.write("lists/a.md", "- [ ] inside\n")
        try fixture.write("lists/old/TODO.md", "- [ ] excluded\n")
        try fixture.write("docs/b.md", "- [ ] not named\n")
        try fixture.todosync()
        #expect(try fixture.git("ls-files") == "TODO.md\nlists/a.md\n")
        #expect(try fixture.ids(in: "docs/b.md").isEmpty && fixture.ids(in: "lists/old/TODO.md").isEmpty)
    }

    @Test func whatTheUserStagedStaysStagedAndOutOfTheCommit() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] a\n")
        try fixture.write("other.txt", "staged\n")
        _ = try fixture.git("add", "other.txt")
        try fixture.todosync()
        #expect(try fixture.git("show", "--name-only", "--format=", "HEAD") == "TODO.md\n")
        #expect(try fixture.git("status", "--porcelain") == "A  other.txt\n")
    }

    @Test func aDeletedListFileIsCommittedAsRemovedItems() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] keep\n")
        try fixture.write("old.md", "- [ ] gone\n")
        try fixture.todosync()
        try FileManager.default.removeItem(atPath: fixture.path + "/old.md")
        try fixture.todosync()
        #expect(fixture.lastSubject == "Remove \"gone\"")
        try fixture.expectCleanAndSound()
    }

    @Test func lineEndingsModeAndBytesTodosyncDoesNotOwnAreKept() throws {
        let fixture = try Fixture()
        let text =
            "\u{FEFF}---\r\ntags: x\r\n---\r\n# List\r\n\r\n- [ ] a  \r\n\tnote\r\n```\r\n- [ ] code\r\n```\r\n| t |\r\n- [x] b"
        try fixture.write("TODO.md", text)
        chmod(fixture.path + "/TODO.md", 0o640)
        try fixture.todosync()
        let final = try fixture.read("TODO.md")
        let ids = try fixture.ids(in: "TODO.md")
        #expect(ids.count == 2)
        #expect(
            final == text.replacingOccurrences(of: "- [ ] a  \r\n", with: "- [ ] a <!-- id: \(ids[0]) -->  \r\n")
                + " <!-- id: \(ids[1]) -->")
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.path + "/TODO.md")
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        try fixture.expectCleanAndSound()
    }

    /// A conflict block a git merge left in a list is refused, naming its lines and the way
    /// out; nothing is committed until it is mended. A lone marker line only warns.
    @Test func aConflictBlockLeftInAListIsRefusedNamingItsLines() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n"])
        let head = fixture.head
        let text = "- [ ] a\n<<<<<<< HEAD\n- [ ] b\n=======\n- [ ] c\n>>>>>>> theirs\n"
        try fixture.write("TODO.md", text)
        let status = try fixture.todosync("status")
        #expect(
            status.stderr.contains("TODO.md:2: a git conflict block (<<<<<<< at line 2, ======= at 4, >>>>>>> at 6)"))
        let refused = try fixture.todosync(expectStatus: 1)
        #expect(refused.stderr.contains("todosync: error: TODO.md:2: a git conflict block"))
        #expect(refused.stderr.contains("hint: keep the lines you want, delete the marker lines"))
        #expect(fixture.head == head)
        #expect(try fixture.read("TODO.md") == text)
        try fixture.write("TODO.md", "- [ ] a\n- [ ] b\n- [ ] c\n")
        try fixture.todosync()
        #expect(fixture.head != head)
        // A lone opening marker is reported, not refused (it may be a line of prose).
        try fixture.write("TODO.md", try fixture.read("TODO.md") + "<<<<<<< just a line\n")
        #expect(try fixture.todosync().stderr.contains("a git conflict marker"))
        try fixture.expectCleanAndSound()
    }

    /// A line that looks meant as a task but is not one is committed as the text it is, with a
    /// warning naming its line and what to write; status names it too.
    @Test func aNearMissTaskLineIsCommittedAsTextWithAWarning() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n"])
        try fixture.write("TODO.md", "- [ ] a\n-[ ] b\n")
        let status = try fixture.todosync("status")
        #expect(
            status.stderr.contains(
                "TODO.md:2: looks like a task but is not one: no space between the list marker and the box"),
            "\(status.stderr)")
        let committed = try fixture.todosync()
        #expect(committed.stderr.contains("TODO.md:2: looks like a task but is not one"))
        #expect(committed.stderr.contains("a task is written \"- [ ] title\""))
        #expect(try fixture.read("TODO.md").hasSuffix("\n-[ ] b\n"))
        #expect(try fixture.git("show", "HEAD:TODO.md").hasSuffix("\n-[ ] b\n"))
        try fixture.expectCleanAndSound()
    }

    /// A list saved over with binary bytes (git would call it binary) is refused, named, and
    /// nothing is committed: the items it held are not removed.
    @Test func aListSavedOverWithBinaryBytesIsRefused() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n- [ ] b\n"])
        try fixture.todosync()
        let head = fixture.head
        var bytes = [UInt8](repeating: 0x41, count: 3_000)
        bytes[1_500] = 0
        bytes[700] = 0x0A
        #expect(FileManager.default.createFile(atPath: fixture.path + "/TODO.md", contents: Data(bytes)))
        let refused = try fixture.todosync(expectStatus: 1)
        #expect(refused.stderr.contains("TODO.md:2: the file holds a NUL byte, so git reads it as binary"))
        #expect(refused.stderr.contains("hint: if it was saved over by mistake, get it back with git restore TODO.md"))
        #expect(fixture.head == head)
        _ = try fixture.git("restore", "TODO.md")
        #expect(try fixture.todosync().stdout.contains("Nothing changed"))
    }

    @Test func invalidUTF8IsKeptAndReportedWithFileAndLine() throws {
        let fixture = try Fixture()
        let bytes: [UInt8] = Array("# x\n- [ ] caf".utf8) + [0xE9] + Array("\n".utf8)
        try fixture.scratch.write("TODO.md", bytes: bytes)
        let result = try fixture.todosync()
        #expect(result.stderr.contains("TODO.md:2: bytes that are not valid UTF-8"))
        let final = try fixture.scratch.readBytes("TODO.md")
        #expect(Array(final.prefix(bytes.count - 1)) == Array(bytes.dropLast()))
        try fixture.expectCleanAndSound()
    }
}

/// todosync enters committed list files in git's index with the blob it committed and the stat
/// taken when it read or wrote the bytes, instead of having libgit2 read and hash them again.
@Suite struct IndexEntryTests {
    /// The index entry's blob, size and inode, from `git ls-files --debug`.
    private func indexEntry(_ fixture: Fixture, _ path: String) throws -> (blob: String, size: Int, inode: Int) {
        let staged = try fixture.git("ls-files", "-s", path).split(separator: " ")
        let debug = try fixture.git("ls-files", "--debug", path)
        func field(_ name: String) -> Int? {
            debug.split(separator: "\n").first { $0.contains(name + ":") }
                .flatMap { line in
                    line.split(separator: name + ":").last?.split(whereSeparator: \.isWhitespace).first.flatMap {
                        Int($0)
                    }
                }
        }
        return (String(staged[1]), field("size") ?? -1, field("ino") ?? -1)
    }

    private func fileStat(_ fixture: Fixture, _ path: String) throws -> (size: Int, inode: Int) {
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.path + "/" + path)
        return (
            (attributes[.size] as? NSNumber)?.intValue ?? -2,
            (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -2
        )
    }

    @Test func theIndexHoldsTheCommittedBlobAndTheFilesStat() throws {
        let fixture = try Fixture()
        // Rewritten by todosync (ids added), then committed as the editor left it (ids present).
        try fixture.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n")
        try fixture.todosync()
        for round in 0..<2 {
            let entry = try indexEntry(fixture, "TODO.md")
            let file = try fileStat(fixture, "TODO.md")
            #expect(
                entry.blob == (try fixture.git("rev-parse", "HEAD:TODO.md")).trimmingCharacters(in: .newlines),
                "round \(round)")
            #expect(entry.blob == (try fixture.git("hash-object", "TODO.md")).trimmingCharacters(in: .newlines))
            #expect(entry.size == file.size)
            #expect(entry.inode == file.inode % (1 << 32))
            try fixture.expectCleanAndSound()
            try fixture.expectNoStrayObjects()
            try fixture.write(
                "TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "Call Bob", with: "Call Amy"))
            try fixture.todosync()
        }
    }

    @Test func aSaveRightAfterTheCommitIsSeenByGit() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        try fixture.todosync()
        // Same size, at once: only the stat can tell git the file changed.
        try fixture.write("TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "milk", with: "mild"))
        #expect(try fixture.git("status", "--porcelain") == " M TODO.md\n")
        #expect(try fixture.git("diff", "--stat").contains("TODO.md"))
        // todosync, which trusts the index only while the stat matches, sees it too.
        #expect(try fixture.todosync("status").stdout.contains("Rename \"Buy milk\" to \"Buy mild\""))
        try fixture.todosync()
        #expect(fixture.lastSubject == "Rename \"Buy milk\" to \"Buy mild\"")
    }

    @Test func aFileTouchedButNotChangedIsStillUnchanged() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        try fixture.todosync()
        try fixture.write("TODO.md", try fixture.read("TODO.md"))  // new stat, same bytes
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))
        try fixture.todosync()
        #expect(fixture.commitCount == 1)
        try fixture.expectNoStrayObjects()
    }
}
