import Foundation
import Testing
import TestSupport

/// Repository states that git handles in its own way, handled the same way (issue 29, point 5),
/// each through a real repository and checked with the git CLI.
@Suite struct RepositoryStateTests {
    @Test func listsOutsideASparseCheckoutAreLeftAsTheyAre() throws {
        let fixture = try Fixture(gitFiles: ["home/TODO.md": "- [ ] Home item\n", "work/TODO.md": "- [ ] Work item\n"])
        try fixture.todosync()
        let workBefore = try fixture.git("show", "HEAD:work/TODO.md")
        _ = try fixture.git("sparse-checkout", "set", "home")
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/work/TODO.md"))
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))

        try fixture.write("home/TODO.md", try fixture.read("home/TODO.md") + "- [ ] Second home item\n")
        try fixture.todosync()
        #expect(fixture.lastSubject == "Add \"Second home item\"")
        #expect(try fixture.git("show", "HEAD:work/TODO.md") == workBefore)
        try fixture.todosync("add", "Third home item", "--file", "home/TODO.md")
        #expect(try fixture.git("show", "HEAD:work/TODO.md") == workBefore)
        #expect(try fixture.git("status", "--porcelain").isEmpty)

        // An item outside the cone cannot be written: the message says how to bring it in.
        let workID = try #require(
            try fixture.git("show", "HEAD:work/TODO.md").firstMatch(of: /id: ([0-9A-Fa-f-]{36})/)?.1)
        let refused = try fixture.todosync("done", String(workID), expectStatus: 1)
        #expect(refused.stderr.contains("work/TODO.md is outside the sparse checkout"))
        #expect(refused.stderr.contains("git sparse-checkout add work"))
        try fixture.expectCleanAndSound()
    }

    @Test func aSyncChangesListsOutsideASparseCheckoutInGitsIndexOnly() throws {
        let origin = try Fixture(gitFiles: ["home/TODO.md": "- [ ] Home item\n", "work/TODO.md": "- [ ] Work item\n"])
        try origin.todosync()
        let remote = Scratch()
        _ = try git("clone", "-q", "--bare", origin.path, ".", in: remote.path)
        let sparse = try Fixture(cloning: remote.path)
        let other = try Fixture(cloning: remote.path)
        _ = try sparse.git("sparse-checkout", "set", "home")
        try other.todosync("add", "Second work item", "--file", "work/TODO.md")
        try other.todosync("sync")
        try sparse.todosync("add", "Second home item", "--file", "home/TODO.md")

        try sparse.todosync("sync")  // a merge: both sides moved
        #expect(try sparse.git("show", "HEAD:work/TODO.md").contains("Second work item"))
        #expect(try sparse.git("show", "HEAD:home/TODO.md").contains("Second home item"))
        #expect(!FileManager.default.fileExists(atPath: sparse.path + "/work/TODO.md"))
        #expect(try sparse.git("ls-files", "-t", "work/TODO.md").hasPrefix("S "))
        try sparse.expectCleanAndSound()

        try other.todosync("sync")
        try other.todosync("add", "Third work item", "--file", "work/TODO.md")
        try other.todosync("sync")
        try sparse.todosync("sync")  // a fast-forward
        #expect(try sparse.git("show", "HEAD:work/TODO.md").contains("Third work item"))
        #expect(!FileManager.default.fileExists(atPath: sparse.path + "/work/TODO.md"))
        try sparse.expectCleanAndSound()
    }

    @Test func aShallowCloneSyncsOnlyAfterItsHistoryIsFetched() throws {
        let origin = try Fixture(gitFiles: ["TODO.md": "- [ ] First\n"])
        for n in 2...4 { try origin.todosync("add", "Item \(n)") }
        let remote = Scratch()
        _ = try git("clone", "-q", "--bare", origin.path, ".", in: remote.path)
        let shallow = Scratch()
        _ = try git("clone", "-q", "--depth", "1", "file://" + remote.path, ".", in: shallow.path)
        let clone = Fixture(existing: shallow)

        // Work within the shallow history: commits and undo of its own units work.
        try clone.todosync("add", "From the shallow clone")
        try clone.todosync("undo")
        try clone.todosync("redo")
        let before = try clone.git("rev-parse", "HEAD")
        let refused = try clone.todosync("sync", expectStatus: 1)
        #expect(refused.stderr.contains("shallow"))
        #expect(refused.stderr.contains("git fetch --unshallow"))
        #expect(try clone.git("rev-parse", "HEAD") == before)

        _ = try clone.git("fetch", "-q", "--unshallow")
        try clone.todosync("sync")
        try clone.expectCleanAndSound()
    }

    @Test func undoReachingPastAShallowHistorySaysSo() throws {
        let origin = try Fixture(gitFiles: ["TODO.md": "- [ ] First\n"])
        try origin.todosync("add", "Second")
        let shallow = Scratch()
        _ = try git("clone", "-q", "--depth", "1", "file://" + origin.path, ".", in: shallow.path)
        let clone = Fixture(existing: shallow)
        // The log shows the history there is, and says where it ends.
        let log = try clone.todosync("log")
        #expect(log.stdout.contains("Add \"Second\""))
        #expect(log.stderr.contains("shallow history") && log.stderr.contains("git fetch --unshallow"))
        // Nothing was made on this clone; the unit at the cut, named, cannot be read back.
        #expect(try clone.todosync("undo").stdout.contains("Nothing of yours to undo"))
        let refused = try clone.todosync("undo", "HEAD", expectStatus: 1)
        #expect(refused.stderr.contains("shallow"))
        #expect(refused.stderr.contains("git fetch --unshallow"))
        #expect(try clone.git("status", "--porcelain").isEmpty)
    }

    @Test func aTrackedListThatGitignoreMatchesIsStillAList() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n", "notes/plan.md": "- [ ] p\n"])
        try fixture.write(".gitignore", "TODO.md\nnotes/\n")
        _ = try fixture.git("add", ".gitignore")
        _ = try fixture.git("commit", "-qm", "ignore")
        try fixture.todosync()
        try fixture.write("TODO.md", try fixture.read("TODO.md") + "- [ ] b\n")
        try fixture.write("notes/plan.md", try fixture.read("notes/plan.md") + "- [ ] q\n")
        try fixture.todosync()
        #expect(fixture.lastSubject == "Add \"b\" and add \"q\"")
        try fixture.expectCleanAndSound()
        // An untracked file that .gitignore matches is still no list.
        try fixture.write("notes/other.md", "- [ ] ignored\n")
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))
    }

    @Test(arguments: ["directory", "symlink"])
    func aListReplacedByADirectoryOrALinkIsNamed(_ replacement: String) throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n", "other.md": "- [ ] o\n"])
        try fixture.todosync()
        let head = try fixture.git("rev-parse", "HEAD")
        try FileManager.default.removeItem(atPath: fixture.path + "/TODO.md")
        if replacement == "directory" {
            try fixture.write("TODO.md/inside.txt", "x\n")
        } else {
            try FileManager.default.createSymbolicLink(
                atPath: fixture.path + "/TODO.md", withDestinationPath: "other.md")
        }
        try fixture.write("other.md", try fixture.read("other.md") + "- [ ] more\n")
        let kind = replacement == "directory" ? "a directory" : "a symbolic link"
        let refused = try fixture.todosync(expectStatus: 1)
        #expect(refused.stderr.contains("TODO.md is now \(kind)"))
        #expect(try fixture.git("rev-parse", "HEAD") == head)
        #expect(try fixture.todosync("status", expectStatus: 1).stderr.contains("TODO.md is now \(kind)"))
    }

    @Test func aFileNameThatIsNotUTF8IsNamed() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n"])
        try fixture.todosync()
        // "caf\xE9.md": Latin-1, as an old system might write it.
        let name = Array((fixture.path + "/caf").utf8) + [0xE9] + Array(".md".utf8) + [0]
        let descriptor = name.withUnsafeBufferPointer {
            creat(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o644)
        }
        #expect(descriptor >= 0)
        #expect(Array("- [ ] x\n".utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == 8)
        close(descriptor)
        try fixture.write("TODO.md", try fixture.read("TODO.md") + "- [ ] b\n")
        let result = try fixture.todosync()
        #expect(result.stderr.contains("caf\\351.md"))
        #expect(result.stderr.contains("not valid UTF-8"))
        #expect(fixture.lastSubject == "Add \"b\"")
    }

    @Test func aDamagedObjectEndsInAnErrorNamingFsck() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] a\n- [ ] b\n"])
        try fixture.todosync()
        let blob = try fixture.git("rev-parse", "HEAD:TODO.md").trimmingCharacters(in: .whitespacesAndNewlines)
        let object = fixture.path + "/.git/objects/" + blob.prefix(2) + "/" + blob.dropFirst(2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: object))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: object)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: object))
        try fixture.write("TODO.md", try fixture.read("TODO.md") + "- [ ] c\n")
        let edited = try fixture.read("TODO.md")
        // libgit2 1.5 loops forever on a truncated loose object: the read is called stuck after 2 s.
        let result = try run(
            "/usr/bin/timeout", ["-s", "KILL", "60", todosyncBinary], in: fixture.path,
            environment: ["TODOSYNC_OBJECT_READ_TIMEOUT": "2"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("git fsck"))
        #expect(try fixture.git("status", "--porcelain") == " M TODO.md\n")
        #expect(try fixture.read("TODO.md") == edited)
    }

    /// todosync run with a limit on the size of any file it writes, as a full disk stops a
    /// write (the limit's signal ignored, so writes fail with EFBIG instead).
    private func runOutOfSpace(_ fixture: Fixture, kilobytes: Int) throws -> ProcessResult {
        try run(
            "/bin/sh", ["-c", "trap '' XFSZ; ulimit -f \(kilobytes * 2); exec \"$0\"", todosyncBinary], in: fixture.path
        )
    }

    @Test(arguments: [20, 200])
    func aFullDiskStopsTheWriteWithNothingLost(kilobytes: Int) throws {
        // 20 KB: git's objects cannot be written; 200 KB: they can (compressed), the list's new
        // version with ids cannot.
        let list = (0..<6000).map { "- [ ] Item \($0) with some words to make the line longer\n" }.joined()
        let fixture = try Fixture(gitFiles: ["TODO.md": list])
        try fixture.todosync()
        let head = fixture.head
        let edited =
            try fixture.read("TODO.md").replacingOccurrences(of: "[ ] Item 0 ", with: "[x] Item 0 ")
            + "- [ ] New item\n"
        try fixture.write("TODO.md", edited)

        let result = try runOutOfSpace(fixture, kilobytes: kilobytes)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("File too large") || result.stderr.contains("file too large"), "\(result.stderr)")
        #expect(result.stderr.contains("hint: free some space on the disk"))
        #expect(try fixture.read("TODO.md") == edited)
        #expect(fixture.head == head)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.path + "/.git/todosync/tmp") == [])
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/.git/todosync/journal"))
        _ = try fixture.git("fsck", "--strict")

        // With room again, the edit is committed as it was.
        try fixture.todosync()
        #expect(fixture.lastSubject == "Check \"Item 0 with some words to make the line longer\" and 1 more")
        #expect(try fixture.git("show", "HEAD:TODO.md").contains("- [ ] New item <!-- id: "))
        try fixture.expectCleanAndSound()
    }
}
