import Foundation
import Testing
import TestSupport
@testable import GitStore
@testable import TodoSyncKit

/// The uncompressed copies of HEAD's lists a commit keeps for the next one: they must hold
/// exactly what git holds, and a damaged one must never be believed.
@Suite struct BlobCopiesTests {
    private func copies(_ fixture: Fixture) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixture.path + "/.git/" + BlobCopies.folderName)) ?? []).sorted()
    }

    private func blob(_ fixture: Fixture, _ path: String) throws -> String {
        try fixture.git("rev-parse", "HEAD:" + path).trimmingCharacters(in: .newlines)
    }

    @Test func aCommitKeepsACopyOfEachListItWroteAndDropsTheOldOnes() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "# Home\n- [ ] Buy milk\n")
        try fixture.write("work.md", "- [ ] Ship it\n")
        try fixture.todosync()
        for path in ["TODO.md", "work.md"] {
            let blob = try blob(fixture, path)
            let name = try #require(copies(fixture).first { $0.hasPrefix(blob + ".") })
            let copy = try #require(FileManager.default.contents(atPath: fixture.path + "/.git/\(BlobCopies.folderName)/" + name))
            #expect(String(decoding: copy, as: UTF8.self) == (try fixture.git("cat-file", "blob", blob)))
        }
        #expect(copies(fixture).filter { !$0.hasSuffix(BlobCopies.piecesSuffix) }.count == 2)

        try fixture.write("TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "Buy milk", with: "Buy oat milk"))
        try fixture.todosync()
        let kept = Set(copies(fixture).map { String($0.prefix { $0 != "." }) })
        #expect(kept == [try blob(fixture, "TODO.md"), try blob(fixture, "work.md")])
        try fixture.expectCleanAndSound()
    }

    /// A blob written when todosync writes ids in, or by a command, is compressed in pieces
    /// too, kept for the next commit (without them it was compressed whole, ~10 ms at 10,000 items).
    @Test func idsWrittenInAndCommandsKeepTheBlobsPieces() throws {
        let fixture = try Fixture()
        let items = (0..<400).map { "- [ ] Item \($0) with some words to fill a line\n" }.joined()
        try fixture.write("TODO.md", "# Home\n" + items)
        try fixture.todosync()
        func hasPieces() throws -> Bool { copies(fixture).contains(try blob(fixture, "TODO.md") + BlobCopies.piecesSuffix) }
        #expect(try hasPieces())

        try fixture.write("TODO.md", try fixture.read("TODO.md") + "- [ ] A new item, no id yet\n")
        try fixture.todosync()
        #expect(try fixture.read("TODO.md").contains("A new item, no id yet <!-- id: "))
        #expect(try hasPieces())

        try fixture.todosync("add", "Added by a command")
        #expect(fixture.lastSubject.contains("Added by a command"))
        #expect(try hasPieces())
        #expect(try fixture.git("cat-file", "blob", "HEAD:TODO.md") == (try fixture.read("TODO.md")))
        try fixture.expectCleanAndSound()
    }

    /// A sync moves HEAD to a commit the last commit's copies do not describe: it keeps copies
    /// of the lists it brought in (a fast-forward) or merged (with their pieces), so the next
    /// commit need not inflate them from git.
    @Test func aSyncKeepsCopiesOfTheListsItBringsIn() throws {
        let items = (0..<300).map { "- [ ] Item \($0) with some words to fill a line ^i\($0)\n" }.joined()
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs("# Home\n" + items), "work.md": withIDs("- [ ] Ship ^ship\n")])
        func expectCopiesOfHead(_ fixture: Fixture, pieces: Bool, _ note: Comment) throws {
            let blobs = [try blob(fixture, "TODO.md"), try blob(fixture, "work.md")]
            let kept = copies(fixture).filter { !$0.hasSuffix(BlobCopies.piecesSuffix) }
            #expect(Set(kept.map { String($0.prefix { $0 != "." }) }) == Set(blobs), note)
            for name in kept {
                let copy = try #require(FileManager.default.contents(atPath: fixture.path + "/.git/\(BlobCopies.folderName)/" + name))
                #expect(String(decoding: copy, as: UTF8.self) == (try fixture.git("cat-file", "blob", String(name.prefix { $0 != "." }))), note)
            }
            #expect(copies(fixture).contains(blobs[0] + BlobCopies.piecesSuffix) == pieces, note)
        }

        try alice.write("TODO.md", try alice.read("TODO.md").replacingOccurrences(of: "Item 10 with", with: "Item 10 (alice) with"))
        try alice.sync()
        try bob.sync()
        #expect(try bob.read("TODO.md").contains("Item 10 (alice) with"))
        try expectCopiesOfHead(bob, pieces: false, "after a fast-forward")

        try alice.write("TODO.md", try alice.read("TODO.md").replacingOccurrences(of: "Item 20 with", with: "Item 20 (alice) with"))
        try alice.sync()
        try bob.write("TODO.md", try bob.read("TODO.md").replacingOccurrences(of: "Item 250 with", with: "Item 250 (bob) with"))
        try bob.sync()
        #expect(try bob.git("log", "-1", "--format=%P").split(separator: " ").count == 2)
        try expectCopiesOfHead(bob, pieces: true, "after a merge")

        // The next commit reads the copies: what it describes is bob's edit alone.
        try bob.write("TODO.md", try bob.read("TODO.md").replacingOccurrences(of: "Item 30 with", with: "Item 30 (bob) with"))
        try bob.todosync()
        #expect(bob.lastSubject == "Rename \"Item 30 with some words to fill a line\" to \"Item 30 (bob) with some words to fill a line\"")
        try bob.expectCleanAndSound()
    }

    @Test func aDamagedCopyIsNotBelievedAndGoes() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n")
        try fixture.todosync()
        let name = try #require(copies(fixture).first)
        let path = fixture.path + "/.git/\(BlobCopies.folderName)/" + name
        // Same size, one word changed: only the checksum can tell.
        let damaged = String(decoding: try #require(FileManager.default.contents(atPath: path)), as: UTF8.self)
            .replacingOccurrences(of: "Buy milk", with: "Buy silk")
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: path))

        try fixture.write("TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "Call Bob", with: "Call Bob today"))
        let output = try fixture.todosync().stdout
        // Believed, the copy would have made this "Rename "Buy silk" to "Buy milk"" as well.
        #expect(fixture.lastSubject == "Rename \"Call Bob\" to \"Call Bob today\"", "\(output)")
        #expect(!copies(fixture).contains(name))
        try fixture.expectCleanAndSound()
    }

    @Test func theChecksumSeesAnyOneChangedByte() {
        var generator = SeededGenerator(seed: 7)
        let bytes = (0..<301).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let sum = BlobCopies.checksum(bytes)
        for offset in bytes.indices {
            var changed = bytes
            changed[offset] ^= UInt8.random(in: 1...255, using: &generator)
            #expect(BlobCopies.checksum(changed) != sum, "byte \(offset)")
        }
        #expect(BlobCopies.checksum(Array(bytes.dropLast())) != sum)
        #expect(BlobCopies.checksum(bytes + [0]) != sum)
    }
}
