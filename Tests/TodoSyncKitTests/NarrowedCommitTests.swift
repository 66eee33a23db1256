import Foundation
import Testing
import TestSupport
@testable import TodoSyncKit

/// A commit reads only the files that changed where the checked-head note and git's index vouch
/// for the rest (docs/PERFORMANCE.md, "Checked head"): it must find exactly what reading every
/// file finds, with the note present, absent or damaged, and fall back to every file where an
/// edit names an id it cannot place (an item pasted from a file not read).
@Suite struct NarrowedCommitTests {
    /// A vault of `notes` notes kept in git (prose notes too), its tasks given ids by todosync,
    /// its files left a clock tick alone.
    private func vault(_ notes: Int = 60) throws -> Fixture {
        let fixture = try Fixture()
        for index in 0..<notes {
            let folder = ["daily", "projects/a", "projects/b", "notes"][index % 4]
            let text = index % 4 == 3
                ? "# Prose \(index)\n\nNo tasks here.\n"
                : "# Note \(index)\n\n- [ ] Task \(index)-a\n- [ ] Task \(index)-b\n  - [ ] Sub \(index)\n"
            try fixture.write("\(folder)/n\(index).md", text)
        }
        _ = try fixture.git("add", "-A")
        _ = try fixture.git("commit", "-qm", "the vault")
        try fixture.todosync()
        usleep(30_000)
        return fixture
    }

    /// What the next commit pass finds, and whether it read every file.
    private func pending(_ fixture: Fixture) throws -> (found: [String], readAll: Bool) {
        let result = try run(todosyncBinary, ["status", "--json"], in: fixture.path, environment: ["TODOSYNC_TRACE": "1"])
        guard result.status == 0 else { throw TestFailure(result.stderr) }
        let workspace = try Workspace.open(at: fixture.path)
        let unit = try workspace.pending()
        return (unit.changedPaths + unit.changes.map(\.phrase), !result.stderr.contains("files the note and git's index do not vouch for"))
    }

    private func withoutNote<T>(_ fixture: Fixture, _ body: () throws -> T) throws -> T {
        let path = fixture.path + "/.git/" + CheckedHead.fileName
        let saved = FileManager.default.contents(atPath: path)
        try? FileManager.default.removeItem(atPath: path)
        defer { if let saved { FileManager.default.createFile(atPath: path, contents: saved) } }
        return try body()
    }

    typealias Edit = @Sendable (Fixture) throws -> Void

    static let edits: [(String, Edit)] = [
        ("one line edited", { try $0.write("daily/n0.md", try $0.read("daily/n0.md").replacingOccurrences(of: "Task 0-a", with: "Task 0-a edited")) }),
        ("an item moved between notes", { f in
            let from = try f.read("daily/n4.md"), line = from.split(separator: "\n").first { $0.contains("Task 4-a") }!
            try f.write("daily/n4.md", from.replacingOccurrences(of: line + "\n", with: ""))
            try f.write("projects/a/n1.md", try f.read("projects/a/n1.md") + line + "\n")
        }),
        ("a note removed", { f in try FileManager.default.removeItem(atPath: f.path + "/projects/b/n2.md") }),
        ("a note added", { try $0.write("notes/new.md", "- [ ] Fresh\n") }),
        ("a prose note given a task", { try $0.write("notes/n3.md", "# Prose 3\n\n- [ ] Now a task\n") }),
        ("a note renamed with git mv", { f in _ = try f.git("mv", "daily/n8.md", "daily/renamed.md") }),
    ]

    @Test(arguments: 0..<edits.count)
    func aNarrowedPassFindsWhatReadingEveryFileFinds(_ index: Int) throws {
        let (name, edit) = Self.edits[index]
        let fixture = try vault()
        try edit(fixture)
        let narrowed = try pending(fixture)
        #expect(!narrowed.readAll, "\(name): only the changed files are read")
        let full = try withoutNote(fixture) { try pending(fixture) }
        #expect(full.readAll)
        #expect(narrowed.found == full.found, "\(name)")
        #expect(!narrowed.found.isEmpty, "\(name)")
        // The commit made that way leaves git and the next pass agreeing.
        try fixture.todosync()
        #expect(try fixture.git("status", "--porcelain").isEmpty, "\(name)")
        #expect(try pending(fixture).found.isEmpty, "\(name)")
        try fixture.expectCleanAndSound()
        // The note it left (the files read put into the tables of those vouched for) names what
        // a pass reading every file notes.
        let notePath = fixture.path + "/.git/" + CheckedHead.fileName
        let left = try #require(FileManager.default.contents(atPath: notePath).flatMap { CheckedHead(decoding: Array($0)) })
        try FileManager.default.removeItem(atPath: notePath)
        _ = try run(todosyncBinary, ["status"], in: fixture.path, environment: ["TODOSYNC_TRACE": "1"])
        let recorded = try #require(FileManager.default.contents(atPath: notePath).flatMap { CheckedHead(decoding: Array($0)) })
        #expect(left.commit == recorded.commit && left.blobs == recorded.blobs && left.plain == recorded.plain, "\(name)")
    }

    @Test func anItemPastedFromAFileNotReadGetsAnIdOfItsOwn() throws {
        let fixture = try vault()
        let source = try fixture.read("projects/a/n1.md")
        let line = try #require(source.split(separator: "\n").first { $0.contains("Task 1-a") })
        try fixture.write("daily/n0.md", try fixture.read("daily/n0.md") + line + "\n")
        try fixture.todosync()
        var ids: [String] = []
        for path in try fixture.git("ls-files", "*.md").split(separator: "\n") { ids += try fixture.ids(in: String(path)) }
        #expect(Set(ids).count == ids.count, "no id twice")
        #expect(try fixture.read("projects/a/n1.md") == source, "the original keeps its id")
    }

    @Test func aDamagedOrStaleNoteIsOnlyMissed() throws {
        let fixture = try vault()
        try fixture.write("daily/n0.md", try fixture.read("daily/n0.md").replacingOccurrences(of: "[ ] Task 0-b", with: "[x] Task 0-b"))
        let path = fixture.path + "/.git/" + CheckedHead.fileName
        let good = try #require(FileManager.default.contents(atPath: path))
        let expected = try withoutNote(fixture) { try pending(fixture).found }
        var stale = String(decoding: good, as: UTF8.self)
        // A note naming another blob for a file: that file is read.
        if let range = stale.range(of: #"blob [0-9a-f]{40} daily/n4.md"#, options: .regularExpression) {
            stale.replaceSubrange(range, with: "blob " + String(repeating: "0", count: 40) + " daily/n4.md")
        }
        for damage in [Data(good.prefix(good.count / 3)), Data("garbage".utf8), Data(stale.utf8)] {
            try damage.write(to: URL(fileURLWithPath: path))
            #expect(try pending(fixture).found == expected)
        }
    }
}
