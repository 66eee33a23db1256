import Foundation
import Testing
import TestSupport
@testable import GitStore
import QuickStatus
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
        guard let data = FileManager.default.contents(atPath: fixture.path + "/.git/" + CheckedHead.fileName) else {
            return nil
        }
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
            #expect(
                blob.description == (try fixture.git("rev-parse", "HEAD:" + path)).trimmingCharacters(in: .newlines))
        }
        let answer = try status(fixture)
        #expect(answer.stdout.contains("Nothing changed since the last commit."))
        #expect(answer.fromNote)
    }

    @Test func everyKindOfChangeIsStillSeen() throws {
        typealias Edit = (Fixture) throws -> Void
        let edits: [(String, Edit)] = [
            (
                "same-size save",
                { try $0.write("TODO.md", try $0.read("TODO.md").replacingOccurrences(of: "milk", with: "mild")) }
            ),
            (
                "save then git add",
                { f in
                    try f.write(
                        "TODO.md", try f.read("TODO.md").replacingOccurrences(of: "Buy milk", with: "Buy more milk"))
                    _ = try f.git("add", "TODO.md")
                }
            ),
            ("new list", { try $0.write("later.md", "- [ ] Paint\n") }),
            ("items added to a file without any", { try $0.write("notes.md", "No items here.\n- [ ] Now one\n") }),
            ("list removed", { f in try FileManager.default.removeItem(atPath: f.path + "/work/PLAN.md") }),
            (
                "plain git commit",
                { f in
                    try f.write("TODO.md", try f.read("TODO.md") + "- [ ] From git\n")
                    _ = try f.git("commit", "-qam", "plain")
                }
            ),
            (
                "selection changed",
                { f in
                    try f.write("extra.txt", "- [ ] In a text file\n")
                    _ = try f.git("config", "--add", "todosync.include", "*.txt")
                    _ = try f.git("config", "--add", "todosync.include", "*.md")
                }
            ),
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
            if let damage {
                try damage.write(toFile: path, atomically: false, encoding: .utf8)
            } else {
                try FileManager.default.removeItem(atPath: path)
            }
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
        let note = CheckedHead(
            commit: commit, selector: ListFileSelector(include: ["*.md", "lists/*.txt"], exclude: ["README.md"]),
            blobs: ["a b.md": blob, "lists/x.txt": blob])
        let bytes = try #require(note.encoded())
        #expect(CheckedHead(decoding: bytes) == note)
        #expect(CheckedHead(decoding: Array(bytes.dropLast())) == nil, "a note cut short")
        var lineBreak = note
        lineBreak.files = [NotedFile(path: "a\nb.md", blob: blob, isList: true)]
        #expect(lineBreak.encoded() == nil)
    }

    /// The note's files are kept in git's order of paths, by bytes (joined with the candidate
    /// files in one pass): a note whose files are out of that order, or name a path twice, is
    /// read as damaged, never half trusted.
    @Test func theNoteKeepsPathsInByteOrderAndRejectsAnyOtherOrder() throws {
        let commit = try #require(OID(hex: String(repeating: "ab", count: 20)))
        let blob = try #require(OID(hex: String(repeating: "01", count: 20)))
        // "é" composed (C3 A9) and decomposed ("e" + U+0301): Swift's String calls them equal.
        let composed = "caf\u{E9}.md", decomposed = "cafe\u{301}.md"
        let files = ["b.md", composed, "a/z.md", "a.md", decomposed, "a-b.md"].map {
            NotedFile(path: $0, blob: blob, isList: $0 != "a.md")
        }
        let note = CheckedHead(
            commit: commit, selector: ListFileSelector(include: [], exclude: []),
            files: files.sorted { PathOrder.precedes($0.path, $1.path) })
        #expect(
            note.files.map(\.path).elementsEqual(["a-b.md", "a.md", "a/z.md", "b.md", decomposed, composed]) {
                Array($0.utf8) == Array($1.utf8)
            })
        let bytes = try #require(note.encoded())
        #expect(CheckedHead(decoding: bytes) == note)
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        let first = try #require(lines.firstIndex { $0.hasSuffix(" a.md") }),
            second = try #require(lines.firstIndex { $0.hasSuffix(" b.md") })
        lines.swapAt(first, second)
        #expect(CheckedHead(decoding: Array(lines.joined(separator: "\n").utf8)) == nil, "out of order")
        lines.swapAt(first, second)
        lines.insert(lines[first], at: first)
        #expect(CheckedHead(decoding: Array(lines.joined(separator: "\n").utf8)) == nil, "a path twice")
    }
}

/// What gitattributes say of each file, kept in the note for the next command (a vault's
/// thousands of lookups): never trusted over the files they come from.
@Suite struct NotedAttributesTests {
    /// A workspace that records markings as soon as the attribute files are a clock tick old.
    private func workspace(_ fixture: Fixture) throws -> Workspace {
        usleep(30_000)
        let workspace = try Workspace.open(at: fixture.path)
        workspace.attributeSettleTime = 0
        return workspace
    }

    private func note(_ fixture: Fixture) -> CheckedHead? {
        FileManager.default.contents(atPath: fixture.path + "/.git/" + CheckedHead.fileName).flatMap {
            CheckedHead(decoding: Array($0))
        }
    }

    /// A code project where only what .gitattributes marks is a list (`*.md`): TODO.md, a
    /// notes.md of prose holding a task, and `more`; committed with git, then by todosync.
    private func markedProject(_ more: [String: String] = [:]) throws -> Fixture {
        let fixture = try Fixture(listsRepository: false)
        try fixture.write(".gitattributes", "*.md todosync\n")
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        try fixture.write("notes.md", "prose\n- [ ] a task in prose\n")
        for (name, text) in more { try fixture.write(name, text) }
        _ = try fixture.git("add", "-A")
        _ = try fixture.git("commit", "-qm", "start")
        _ = try workspace(fixture).commit()
        return fixture
    }

    /// What a commit pass finds: changed paths and changes in words, with the note as it is.
    private func pending(_ fixture: Fixture) throws -> [String] {
        let unit = try workspace(fixture).pending()
        return unit.changedPaths + unit.changes.map(\.phrase)
    }

    @Test(arguments: [
        ("*.md -todosync\n", "unmarked in the root .gitattributes"),
        ("notes.md todosync\n*.md todosync\n", "a file marked that was not"),
        ("", "the attributes emptied"),
    ])
    func anEditOfGitattributesIsSeenAtOnce(_ attributes: String, _ name: String) throws {
        let fixture = try markedProject(["plan.md": "- [ ] Ship it\n"])
        #expect(!(note(fixture)?.markings.isEmpty ?? true), "the note holds markings once the files settled")
        try fixture.write(".gitattributes", attributes)
        try fixture.write("plan.md", "- [ ] Ship it\n- [ ] And test it\n")
        let withNote = try pending(fixture)
        try FileManager.default.removeItem(atPath: fixture.path + "/.git/" + CheckedHead.fileName)
        let withoutNote = try pending(fixture)
        #expect(withNote == withoutNote, "\(name)")
    }

    /// `list` after an edit of .gitattributes looks each file up once, and keeps what it found
    /// in the note for the next pass: the new markings, never the old ones.
    @Test func aListRecordsWhatEditedGitattributesSay() throws {
        let fixture = try markedProject()
        let before = try #require(note(fixture))
        #expect(before.markings["notes.md"] == .marked)
        try fixture.write(".gitattributes", "*.md todosync\nnotes.md -todosync\n")
        let titles = try workspace(fixture).items().items.map(\.plainTitle)
        #expect(titles == ["Buy milk"])
        let after = try #require(note(fixture))
        #expect(after.markings["notes.md"] == .unmarked)
        #expect(after.attributeSources != before.attributeSources)
        #expect(after.commit == before.commit && after.blobs == before.blobs)
        // Read back, and without the note: the same answer.
        #expect(try workspace(fixture).items().items.map(\.plainTitle) == titles)
        try FileManager.default.removeItem(atPath: fixture.path + "/.git/" + CheckedHead.fileName)
        #expect(try workspace(fixture).items().items.map(\.plainTitle) == titles)
    }

    @Test func aNoteFromAnotherCommitLendsItsMarkingsAndNothingElse() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        try fixture.write("a/plan.md", "- [ ] Ship it\n")
        try fixture.write("a/notes.md", "prose only\n")
        _ = try workspace(fixture).commit()
        // A plain git commit moves HEAD past the note: its markings still hold (the attribute
        // files are as they were), its blobs are about another commit.
        try fixture.write("a/plan.md", "- [ ] Ship it\n- [ ] From git\n")
        _ = try fixture.git("commit", "-qam", "plain")
        try fixture.write(
            "TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "Buy milk", with: "Buy oat milk"))
        let withNote = try pending(fixture)
        try FileManager.default.removeItem(atPath: fixture.path + "/.git/" + CheckedHead.fileName)
        #expect(try pending(fixture) == withNote)
        #expect(withNote.contains("TODO.md"))
    }

    @Test func aDamagedNoteIsOnlyMissed() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        _ = try workspace(fixture).commit()
        let path = fixture.path + "/.git/" + CheckedHead.fileName
        let good = try #require(FileManager.default.contents(atPath: path))
        try fixture.write("TODO.md", "- [x] Buy milk\n")
        for damage in [
            Data(good.prefix(good.count / 2)), Data("garbage\n\u{0}\u{1}".utf8), Data(),
            good + Data("mark x TODO.md\n".utf8),
        ] {
            try damage.write(to: URL(fileURLWithPath: path))
            #expect(try pending(fixture).contains("Check \"Buy milk\""))
        }
    }

    @Test func theNoteRoundTripsMarkingsPlainFilesAndStamps() throws {
        let commit = try #require(OID(hex: String(repeating: "ab", count: 20)))
        let blob = try #require(OID(hex: String(repeating: "01", count: 20)))
        let stamp = FileStamp(
            path: "/r/a b/.gitattributes",
            status: .init(size: 3, modified: -5, changed: 7, inode: 9, device: 11, mode: 33188))
        let note = CheckedHead(
            commit: commit, selector: ListFileSelector(include: ["*.txt"], exclude: ["README.md"]),
            blobs: ["TODO.md": blob, "a b/plan.md": blob], plain: ["notes.md": blob],
            markings: ["TODO.md": .marked, "a b/plan.md": .unspecified, "notes.md": .unmarked],
            attributeSources: [stamp, FileStamp(path: "/etc/gitattributes", status: nil)])
        let bytes = try #require(note.encoded())
        #expect(CheckedHead(decoding: bytes) == note)
        #expect(CheckedHead(decoding: Array(bytes.dropLast())) == nil)
    }
}
