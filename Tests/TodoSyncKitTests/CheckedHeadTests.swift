import Foundation
import Testing
import TestSupport
@testable import GitStore
@testable import TodoSyncKit

/// The note that HEAD's lists were checked, and the status answer it allows without reading
/// a list: it must never hide a change.
@Suite struct CheckedHeadTests {
    /// `todosync status`, and whether it answered from the note (no list read or parsed).
    private func status(_ fixture: Fixture) throws -> (stdout: String, fromNote: Bool) {
        let result = try run(todosyncBinary, ["status"], in: fixture.path, environment: ["TODOSYNC_TRACE": "1"])
        guard result.status == 0 else { throw TestFailure("todosync status failed: \(result.stderr)") }
        return (result.stdout, !result.stderr.contains("parse working lists"))
    }

    private func note(_ fixture: Fixture) throws -> CheckedHead? {
        guard let data = FileManager.default.contents(atPath: fixture.path + "/.git/" + CheckedHead.fileName) else { return nil }
        return CheckedHead(decoding: Array(data))
    }

    private func committed(_ fixture: Fixture) throws -> Fixture {
        try fixture.write("TODO.md", "# Home\n- [ ] Buy milk\n  - [ ] oat\n- [x] Call Bob\n")
        try fixture.write("work/PLAN.md", "- [ ] Ship it\n")
        try fixture.write("notes.md", "No items here.\n")
        try fixture.todosync()
        return fixture
    }

    @Test func aCommitRecordsItsListsAndStatusAnswersFromTheNote() throws {
        let fixture = try committed(Fixture())
        let note = try #require(try note(fixture))
        #expect(note.commit.description == (try fixture.git("rev-parse", "HEAD")).trimmingCharacters(in: .newlines))
        #expect(note.blobs.keys.sorted() == ["TODO.md", "work/PLAN.md"])
        for (path, blob) in note.blobs {
            #expect(blob.description == (try fixture.git("rev-parse", "HEAD:" + path)).trimmingCharacters(in: .newlines))
        }
        let answer = try status(fixture)
        #expect(answer.stdout.contains("Nothing changed since the last commit."))
        #expect(answer.fromNote)
    }

    @Test func everyKindOfChangeIsStillSeen() throws {
        typealias Edit = (Fixture) throws -> Void
        let edits: [(String, Edit)] = [
            ("same-size save", { try $0.write("TODO.md", try $0.read("TODO.md").replacingOccurrences(of: "milk", with: "mild")) }),
            ("save then git add", { f in
                try f.write("TODO.md", try f.read("TODO.md").replacingOccurrences(of: "Buy milk", with: "Buy more milk"))
                _ = try f.git("add", "TODO.md")
            }),
            ("new list", { try $0.write("later.md", "- [ ] Paint\n") }),
            ("items added to a file without any", { try $0.write("notes.md", "No items here.\n- [ ] Now one\n") }),
            ("list removed", { f in try FileManager.default.removeItem(atPath: f.path + "/work/PLAN.md") }),
            ("plain git commit", { f in
                try f.write("TODO.md", try f.read("TODO.md") + "- [ ] From git\n")
                _ = try f.git("commit", "-qam", "plain")
            }),
            ("selection changed", { f in
                try f.write("extra.txt", "- [ ] In a text file\n")
                _ = try f.git("config", "--add", "todosync.include", "*.txt")
                _ = try f.git("config", "--add", "todosync.include", "*.md")
            }),
        ]
        for (name, edit) in edits {
            let fixture = try committed(Fixture())
            #expect(try status(fixture).fromNote, "\(name): before")
            try edit(fixture)
            let answer = try status(fixture)
            #expect(!answer.stdout.contains("Nothing changed"), "\(name): \(answer.stdout)")
            #expect(!answer.fromNote, "\(name)")
        }
    }

    @Test func aMissingOrDamagedNoteIsRebuiltByTheFullCheck() throws {
        let fixture = try committed(Fixture())
        let path = fixture.path + "/.git/" + CheckedHead.fileName
        for damage in [nil, "todosync checked-head 1\ncommit xyz\n", "todosync checked-head 0\n"] {
            if let damage { try damage.write(toFile: path, atomically: false, encoding: .utf8) } else { try FileManager.default.removeItem(atPath: path) }
            let full = try status(fixture)
            #expect(full.stdout.contains("Nothing changed since the last commit."))
            #expect(!full.fromNote, "\(damage ?? "no note")")
            // The full check found HEAD in order and wrote the note again.
            #expect(try status(fixture).fromNote, "\(damage ?? "no note")")
        }
    }

    @Test func noNoteWhileItemsLackIdsOrDrawWarnings() throws {
        // Committed by plain git: items without ids. Status says so every time, never from a note.
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        for _ in 0..<2 {
            let answer = try status(fixture)
            #expect(answer.stdout.contains("1 item needs an id."))
            #expect(!answer.fromNote)
        }
        #expect(try note(fixture) == nil)
    }

    @Test func theNoteRoundTripsAndRejectsWhatItCannotHold() throws {
        let commit = try #require(OID(hex: String(repeating: "ab", count: 20)))
        let blob = try #require(OID(hex: String(repeating: "01", count: 20)))
        let note = CheckedHead(commit: commit, selector: ListFileSelector(include: ["*.md", "lists/*.txt"], exclude: ["README.md"]),
                               blobs: ["a b.md": blob, "lists/x.txt": blob])
        let bytes = try #require(note.encoded())
        #expect(CheckedHead(decoding: bytes) == note)
        #expect(CheckedHead(decoding: Array(bytes.dropLast())) == nil, "a note cut short")
        var lineBreak = note
        lineBreak.blobs = ["a\nb.md": blob]
        #expect(lineBreak.encoded() == nil)
    }
}
