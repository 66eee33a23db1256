import Foundation
import Testing
import TestSupport
import TodoModel

/// A sync in a vault reads and merges only the lists either side changed since the merge base
/// (docs/MERGE.md, "Which commits"). Whatever it leaves out, the result must be what the
/// item-by-item merge of every list of the three commits gives: that merge, run here on
/// the commits' files as `git archive` writes them, is the reference.
@Suite struct VaultSyncTests {
    static let notes = 2_000

    static func path(_ index: Int) -> String {
        "\(["daily", "projects/a", "projects/b", "notes"][index % 4])/n\(index).md"
    }

    /// Notes of two tasks each (ids `^a<n>`, `^b<n>`), every fourth one prose only.
    static func seed() -> [String: String] {
        var files: [String: String] = [".gitattributes": "*.md todosync\n"]
        for index in 0..<notes {
            files[path(index)] =
                index % 4 == 3
                ? "# Prose \(index)\n\nNo tasks here, only words.\n"
                : withIDs(
                    "# Note \(index)\n\n- [ ] Task \(index)-a ^a\(index)\n- [ ] Task \(index)-b ^b\(index)\n\nA closing line.\n"
                )
        }
        return files
    }

    /// Takes the line holding `title` out of one note and appends it to another.
    static func move(_ title: String, from: Int, to: Int, in clone: Fixture) throws {
        let source = try clone.read(path(from))
        let line = try #require(source.split(separator: "\n").first { $0.contains(title + " ") })
        try clone.write(path(from), source.replacingOccurrences(of: line + "\n", with: ""))
        try clone.write(path(to), try clone.read(path(to)) + line + "\n")
    }

    static func replace(_ old: String, _ new: String, inNote index: Int, of clone: Fixture) throws {
        let text = try clone.read(path(index))
        #expect(text.contains(old))
        try clone.write(path(index), text.replacingOccurrences(of: old, with: new))
    }

    /// The lists of a commit, as `git archive` writes its files.
    static func lists(at revision: String, of clone: Fixture) throws -> ListSet {
        let folder = Scratch()
        _ = try clone.git("archive", "-o", folder.path + "/tree.tar", revision)
        _ = try run("/usr/bin/tar", ["-xf", "tree.tar"], in: folder.path)
        var documents: [ListDocument] = []
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let name = enumerator?.nextObject() as? String {
            guard name.hasSuffix(".md"), let data = FileManager.default.contents(atPath: folder.path + "/" + name)
            else { continue }
            let document = ListDocument(path: name, bytes: Array(data))
            if document.hasItems { documents.append(document) }
        }
        return ListSet(documents)
    }

    @Test func aSyncInAVaultMergesWhatChangedAndAgreesWithMergingEveryList() throws {
        let (remote, alice, bob) = try Remote.withTwoClones(seeding: Self.seed())
        let base = alice.head
        // Items moved between the same two notes in both directions, fields of one item edited
        // on both sides, notes added and removed on both sides.
        try Self.move("Task 0-a", from: 0, to: 1, in: alice)
        try Self.replace("- [ ] Task 2-b", "- [x] Task 2-b", inNote: 2, of: alice)
        try Self.replace("Task 6-a", "Task 6-a from alice", inNote: 6, of: alice)
        try alice.write("daily/alice-new.md", "# New\n\n- [ ] Written by alice\n")
        try FileManager.default.removeItem(atPath: alice.path + "/" + Self.path(5))
        try alice.todosync()
        try alice.sync()
        let theirs = alice.head

        try Self.move("Task 1-a", from: 1, to: 0, in: bob)
        try Self.replace("Task 2-b", "Task 2-b from bob", inNote: 2, of: bob)
        try Self.replace("- [ ] Task 6-a", "- [x] Task 6-a", inNote: 6, of: bob)
        try Self.move("Task 12-b", from: 12, to: 1, in: bob)
        try bob.write("projects/bob-new.md", "- [ ] Written by bob\n")
        try FileManager.default.removeItem(atPath: bob.path + "/" + Self.path(9))
        try bob.todosync()
        let ours = bob.head

        let synced = try run(todosyncBinary, ["sync"], in: bob.path, environment: ["TODOSYNC_TRACE": "1"])
        #expect(synced.status == 0, "\(synced.stderr)")
        // The lists either side changed (notes 0, 1, 2, 5, 6, 9, 12 and the two new ones), not all.
        #expect(synced.stderr.contains("todosync trace: lists merged: 9\n"), "\(synced.stderr)")
        #expect(try bob.git("log", "-1", "--format=%P").split(separator: " ").count == 2)

        let reference = ListMerge.merge(
            base: try Self.lists(at: base, of: bob), ours: try Self.lists(at: ours, of: bob),
            theirs: try Self.lists(at: theirs, of: bob))
        #expect(reference.reports.isEmpty)
        let result = try Self.lists(at: "HEAD", of: bob)
        #expect(Set(result.documents.keys) == Set(reference.lists.documents.keys))
        for (path, document) in reference.lists.documents {
            #expect(result[path]?.render() == document.render(), "\(path)")
        }
        #expect(try bob.read(Self.path(6)).contains("- [x] Task 6-a from alice"))
        #expect(try bob.read(Self.path(2)).contains("- [x] Task 2-b from bob"))
        #expect(try bob.read(Self.path(0)).contains("Task 1-a"))
        #expect(try bob.read(Self.path(1)).contains("Task 0-a"))
        #expect(!FileManager.default.fileExists(atPath: bob.path + "/" + Self.path(5)))
        #expect(try bob.read("daily/alice-new.md").contains("Written by alice"))
        // A note neither side touched is byte for byte what both had.
        #expect(try bob.read(Self.path(100)) == Self.seed()[Self.path(100)])

        // The fast-forward on the other clone brings just those lists.
        let forward = try run(todosyncBinary, ["sync"], in: alice.path, environment: ["TODOSYNC_TRACE": "1"])
        #expect(forward.status == 0, "\(forward.stderr)")
        #expect(forward.stderr.contains("todosync trace: lists brought forward: "), "\(forward.stderr)")
        let brought = forward.stderr.split(separator: "\n").first {
            $0.hasPrefix("todosync trace: lists brought forward: ")
        }
        #expect(brought.flatMap { Int($0.split(separator: " ").last!) }.map { $0 <= 9 } == true, "\(forward.stderr)")
        #expect(alice.head == bob.head)
        #expect(try git("rev-parse", "main", in: remote.path).trimmingCharacters(in: .newlines) == bob.head)
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    /// Files that are not lists, changed on one side only, come in as that side has them (links
    /// and modes too); where the sides have a file and a folder at one path, git's merge decides.
    @Test func otherFilesChangedOnOneSideArriveAsThatSideHasThem() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            "TODO.md": withIDs("- [ ] A ^a\n"), "notes.txt": "one\n", "old.bin": "\u{1}\u{2}\n",
            "README.txt": "read me\n",
        ])
        try alice.write("notes.txt", "one\ntwo\n")
        try alice.write("run.sh", "#!/bin/sh\necho hi\n")
        chmod(alice.path + "/run.sh", 0o755)
        try FileManager.default.createSymbolicLink(atPath: alice.path + "/link", withDestinationPath: "README.txt")
        _ = try alice.git("rm", "-q", "old.bin")
        _ = try alice.git("add", "-A")
        _ = try alice.git("commit", "-qm", "alice's files")
        try alice.write("TODO.md", withIDs("- [x] A ^a\n"))
        try alice.sync()
        try bob.write("TODO.md", withIDs("- [ ] A, renamed ^a\n"))
        try bob.write("pictures/cat.txt", "a cat\n")
        _ = try bob.git("add", "-A")
        _ = try bob.git("commit", "-qm", "a picture")
        try bob.sync()
        #expect(withShortIDs(try bob.read("TODO.md")) == "- [x] A, renamed ^a\n")
        let tree = try bob.git("ls-tree", "-r", "HEAD")
        #expect(tree.contains("120000 blob"), "\(tree)")
        #expect(tree.contains("100755 blob") && tree.contains("\trun.sh"), "\(tree)")
        #expect(!tree.contains("old.bin") && tree.contains("pictures/cat.txt"), "\(tree)")
        #expect(try bob.read("notes.txt") == "one\ntwo\n")
        #expect(try String(contentsOfFile: bob.path + "/link", encoding: .utf8) == "read me\n")
        try bob.expectCleanAndSound()

        // A file on one side where the other has a folder: git's merge, which refuses it.
        try alice.sync()
        try alice.write("media", "a file\n")
        _ = try alice.git("add", "media")
        _ = try alice.git("commit", "-qm", "media file")
        try alice.sync()
        try bob.write("media/x.txt", "in a folder\n")
        _ = try bob.git("add", "-A")
        _ = try bob.git("commit", "-qm", "media folder")
        let head = bob.head
        let refused = try bob.todosync("sync", expectStatus: 1)
        #expect(refused.stderr.contains("git cannot merge"), "\(refused.stderr)")
        #expect(bob.head == head)
        try bob.expectCleanAndSound()
    }
}
