import Foundation
import Testing
import TestSupport

/// Histories join as git joins them: an unrelated history is refused unless asked, and
/// `init --remote` takes in a remote's lists as a clone would, or pushes to an empty one.
@Suite struct HistoriesEndToEndTests {
    private func initialize(
        _ folder: String, remote: String, in scratch: Scratch, expectStatus: Int32 = 0
    ) throws -> ProcessResult {
        let result = try run(todosyncBinary, ["init", folder, "--remote", remote], in: scratch.path)
        guard result.status == expectStatus else {
            throw TestFailure(
                "todosync init exited \(result.status)\nstdout: \(result.stdout)\nstderr: \(result.stderr)")
        }
        return result
    }

    @Test func anUnrelatedHistoryIsRefusedUnlessAsked() throws {
        let remote = try Remote()
        let alice = try remote.clone(seeding: ["TODO.md": "- [ ] Water plants\n"])
        try alice.sync()
        let bob = try Fixture(gitFiles: ["TODO.md": "- [ ] Call Bob\n"])
        try bob.todosync()
        _ = try bob.git("remote", "add", "origin", remote.url)
        let (head, list) = (bob.head, try bob.read("TODO.md"))
        let refused = try bob.todosync("sync", expectStatus: 1)
        #expect(refused.stderr.contains("origin/main holds a history unrelated to this branch's"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-unrelated-histories"))
        #expect(bob.head == head)
        #expect(try bob.read("TODO.md") == list)
        let remoteList = try remote.clone().read("TODO.md")
        #expect(remoteList.contains("Water plants") && !remoteList.contains("Call Bob"))

        try bob.sync("--allow-unrelated-histories")
        let merged = try bob.read("TODO.md")
        #expect(merged.contains("Water plants") && merged.contains("Call Bob"))
        #expect(try bob.git("rev-list", "--parents", "-1", "HEAD").split(separator: " ").count == 3)
        try alice.sync()
        #expect(try alice.read("TODO.md") == merged)
        try bob.expectCleanAndSound()
    }

    /// The first machine pushes to an empty remote; the second takes its lists in, with no
    /// example list of its own, so every clone holds each item once.
    @Test func initWithARemoteClonesOrPushesAndNeverWritesASecondList() throws {
        let remote = try Remote()
        let scratch = Scratch()
        let first = try initialize("a", remote: remote.url, in: scratch)
        #expect(first.stdout.contains("Wrote an example list: TODO.md"))
        #expect(first.stdout.contains("Pushed to origin/main."), "\(first.stdout)")
        #expect(try git("log", "--format=%s", "main", in: remote.path) == "Start todo lists\n")

        let second = try initialize("b", remote: remote.url, in: scratch)
        #expect(!second.stdout.contains("example list"), "\(second.stdout)")
        #expect(second.stdout.contains("Took in the lists of origin/main"), "\(second.stdout)")
        let (a, b) = (Fixture(existing: scratch, at: "a"), Fixture(existing: scratch, at: "b"))
        #expect(try b.read("TODO.md") == a.read("TODO.md"))
        #expect(b.head == a.head)
        #expect(try b.git("status", "--porcelain", "--branch") == "## main...origin/main\n")

        try b.todosync("add", "From b")
        try b.sync()
        try a.sync()
        let list = try a.read("TODO.md")
        #expect(list.components(separatedBy: "Buy milk").count == 2, "\(list)")
        #expect(list.contains("From b"))
        #expect(try b.read("TODO.md") == list)
        try a.expectCleanAndSound()
        try b.expectCleanAndSound()
    }

    /// A remote that cannot be reached stops init before any list is written; once it can be,
    /// init again finishes the job.
    @Test func initWithAnUnreachableRemoteWritesNothingAndCanBeRunAgain() throws {
        let scratch = Scratch()
        let missing = scratch.path + "/remote.git"
        let failed = try initialize("lists", remote: missing, in: scratch, expectStatus: 1)
        #expect(failed.stderr.contains("run todosync init again"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/lists/TODO.md"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/lists/.git"))
        _ = try git("init", "-q", "--bare", "-b", "main", missing, in: scratch.path)
        let again = try initialize("lists", remote: missing, in: scratch)
        #expect(again.stdout.contains("Pushed to origin/main."), "\(again.stdout)")
        #expect(try git("log", "--format=%s", "main", in: missing) == "Start todo lists\n")
    }

    /// A folder with lists of its own, joined to a remote that has a file of the same name:
    /// the remote's file with the folder's own items and text it lacked appended, in one
    /// commit on top of the remote's history; nothing doubled, nothing lost.
    @Test func initBringsAFoldersOwnListsIntoTheRemotes() throws {
        let remote = try Remote()
        _ = try remote.clone(seeding: ["TODO.md": "# Home\n\n- [ ] Water plants\n- [ ] Buy milk\n"])
        let scratch = Scratch()
        try scratch.write(
            "b/TODO.md", "# Home\n\n- [ ] Buy milk\n- [ ] My own item\n  with a note\n\nA line of my own.\n")
        try scratch.write("b/ideas.md", "- [ ] An idea only here\n")
        let joined = try initialize("b", remote: remote.url, in: scratch)
        #expect(
            joined.stdout.contains(
                "TODO.md: this folder's own 1 item and 1 line of text the remote's lacked, appended to it"),
            "\(joined.stdout)")
        #expect(joined.stdout.contains("Pushed to origin/main."), "\(joined.stdout)")
        let text = try scratch.read("b/TODO.md")
        #expect(text.hasPrefix("# Home\n\n- [ ] Water plants <!-- id: "), "\(text)")
        #expect(text.components(separatedBy: "Buy milk").count == 2, "\(text)")
        #expect(text.contains("- [ ] My own item <!-- id: "), "\(text)")
        #expect(text.contains("  with a note\n\nA line of my own.\n"), "\(text)")
        #expect(try scratch.read("b/ideas.md").hasPrefix("- [ ] An idea only here <!-- id: "))
        // One unit on top of the remote's history: the remote's commit, then init's.
        let log = try git("log", "--format=%s", "main", in: scratch.path + "/b")
        #expect(log.split(separator: "\n").count == 2 && log.hasPrefix("Bring this folder's own lists in\n"), "\(log)")
        #expect(try git("status", "--porcelain", in: scratch.path + "/b").isEmpty)
        _ = try git("fsck", "--strict", in: scratch.path + "/b")
    }

    /// Another kind of file in the way is refused, and the repository init began is gone.
    @Test func initRefusesToOverwriteAnotherFileTheRemoteAlsoHasAndLeavesNoRepository() throws {
        let remote = try Remote()
        _ = try remote.clone(seeding: ["TODO.md": "- [ ] Water plants\n", "notes.txt": "theirs\n"])
        let scratch = Scratch()
        try scratch.write("b/notes.txt", "mine\n")
        let refused = try initialize("b", remote: remote.url, in: scratch, expectStatus: 1)
        #expect(
            refused.stderr.contains("notes.txt is already here, and origin/main has a different file of that name"),
            "\(refused.stderr)")
        #expect(try scratch.read("b/notes.txt") == "mine\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/b/.git"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/b/TODO.md"))
    }
}
