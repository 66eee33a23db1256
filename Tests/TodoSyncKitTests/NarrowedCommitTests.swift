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
            let text =
                index % 4 == 3
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
        let result = try run(
            todosyncBinary, ["status", "--json"], in: fixture.path, environment: ["TODOSYNC_TRACE": "1"])
        guard result.status == 0 else { throw TestFailure(result.stderr) }
        let workspace = try Workspace.open(at: fixture.path)
        let unit = try workspace.pending()
        return (
            unit.changedPaths + unit.changes.map(\.phrase),
            !result.stderr.contains("files the note and git's index do not vouch for")
        )
    }

    private func withoutNote<T>(_ fixture: Fixture, _ body: () throws -> T) throws -> T {
        let path = fixture.path + "/.git/" + CheckedHead.fileName
        let saved = FileManager.default.contents(atPath: path)
        try? FileManager.default.removeItem(atPath: path)
        defer { if let saved { _ = FileManager.default.createFile(atPath: path, contents: saved) } }
        return try body()
    }

    typealias Edit = @Sendable (Fixture) throws -> Void

    static let edits: [(String, Edit)] = [
        (
            "one line edited",
            {
                try $0.write(
                    "daily/n0.md",
                    try $0.read("daily/n0.md").replacingOccurrences(of: "Task 0-a", with: "Task 0-a edited"))
            }
        ),
        (
            "an item moved between notes",
            { f in
                let from = try f.read("daily/n4.md"),
                    line = from.split(separator: "\n").first { $0.contains("Task 4-a") }!
                try f.write("daily/n4.md", from.replacingOccurrences(of: line + "\n", with: ""))
                try f.write("projects/a/n1.md", try f.read("projects/a/n1.md") + line + "\n")
            }
        ),
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
        let left = try #require(
            FileManager.default.contents(atPath: notePath).flatMap { CheckedHead(decoding: Array($0)) })
        try FileManager.default.removeItem(atPath: notePath)
        _ = try run(todosyncBinary, ["status"], in: fixture.path, environment: ["TODOSYNC_TRACE": "1"])
        let recorded = try #require(
            FileManager.default.contents(atPath: notePath).flatMap { CheckedHead(decoding: Array($0)) })
        #expect(
            left.commit == recorded.commit && left.blobs == recorded.blobs && left.plain == recorded.plain, "\(name)")
    }

    /// An item command, undo and redo commit from HEAD's lists: the note they leave (the last
    /// one with the changed files' lines replaced) lets the next pass read only what changed
    /// since, and names what a pass reading every file notes.
    @Test func afterAnItemCommandUndoOrRedoTheNextPassReadsOnlyWhatChanged() throws {
        let fixture = try vault()
        let notePath = fixture.path + "/.git/" + CheckedHead.fileName
        for command in [
            ["done", "Task 5-a"], ["add", "Fresh one", "--file", "daily/n0.md"],
            ["mv", "Task 6-b", "--under", "Task 1-a"], ["undo"], ["redo"], ["rm", "Sub 9"],
        ] {
            let result = try run(todosyncBinary, command, in: fixture.path)
            try #require(result.status == 0, "\(command): \(result.stderr)")
            let left = try #require(
                FileManager.default.contents(atPath: notePath).flatMap { CheckedHead(decoding: Array($0)) },
                "\(command)")
            #expect(
                left.commit.description == (try fixture.git("rev-parse", "HEAD")).trimmingCharacters(in: .newlines),
                "\(command)")
            try fixture.write("daily/n12.md", try fixture.read("daily/n12.md") + "- [ ] After \(command[0])\n")
            let narrowed = try pending(fixture)
            #expect(!narrowed.readAll, "\(command)")
            let full = try withoutNote(fixture) { try pending(fixture) }
            #expect(narrowed.found == full.found && !full.found.isEmpty, "\(command)")
            try FileManager.default.removeItem(atPath: notePath)
            try fixture.write(
                "daily/n12.md",
                try fixture.read("daily/n12.md").replacingOccurrences(of: "- [ ] After \(command[0])\n", with: ""))
            _ = try run(todosyncBinary, ["status"], in: fixture.path)
            let recorded = try #require(
                FileManager.default.contents(atPath: notePath).flatMap { CheckedHead(decoding: Array($0)) })
            #expect(
                left.commit == recorded.commit && left.blobs == recorded.blobs && left.plain == recorded.plain,
                "\(command)")
            // The note as left goes back in place for the next command.
            try #require(left.encoded()).withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: notePath)) }
            usleep(30_000)
        }
        try fixture.expectCleanAndSound()
    }

    /// Every note touched or copied (its stat no longer what git's index recorded, its bytes
    /// the same): the files are hashed, as git checks them, not compared with HEAD's versions
    /// read from the object store; an edit among them is found as reading everything finds it.
    @Test func filesTouchedButUnchangedAreHashedNotComparedWithHead() throws {
        let fixture = try vault()
        let later = Date().addingTimeInterval(5)
        func touchAll() throws {
            for path in try fixture.git("ls-files", "*.md").split(separator: "\n") {
                try FileManager.default.setAttributes(
                    [.modificationDate: later], ofItemAtPath: fixture.path + "/" + path)
            }
        }
        try touchAll()
        let result = try run(todosyncBinary, ["status"], in: fixture.path, environment: ["TODOSYNC_TRACE": "1"])
        #expect(result.stdout.contains("Nothing changed since the last commit"), "\(result.stdout)")
        #expect(!result.stderr.contains("read and parse HEAD's lists"), "\(result.stderr)")
        let edit = Self.edits[0].1
        try edit(fixture)
        try touchAll()
        let narrowed = try pending(fixture)
        let full = try withoutNote(fixture) { try pending(fixture) }
        #expect(
            narrowed.found == full.found && narrowed.found.contains { $0.contains("Task 0-a edited") },
            "\(narrowed.found)")
        try fixture.todosync()
        #expect(try fixture.git("status", "--porcelain").isEmpty)
    }

    /// HEAD moved by plain git (a commit, a pull, an Obsidian git plugin): the note is carried
    /// to it, the files the commit changed read with the edited ones; a commit that copies an
    /// id into another note is not carried over (that id would be used twice, unseen).
    @Test func afterAPlainGitCommitOnlyTheFilesItChangedAreRead() throws {
        let fixture = try vault()
        try fixture.write(
            "daily/n0.md",
            try fixture.read("daily/n0.md").replacingOccurrences(of: "[ ] Task 0-a", with: "[x] Task 0-a"))
        try fixture.write("projects/a/n1.md", try fixture.read("projects/a/n1.md") + "- [ ] From git\n")
        _ = try fixture.git("commit", "-qam", "plain git")
        try fixture.write(
            "daily/n4.md", try fixture.read("daily/n4.md").replacingOccurrences(of: "Task 4-b", with: "Task 4-b edited")
        )
        usleep(30_000)
        let carried = try run(todosyncBinary, ["status"], in: fixture.path, environment: ["TODOSYNC_TRACE": "1"])
        #expect(carried.stderr.contains("carry the note"), "\(carried.stderr)")
        let narrowed = try pending(fixture)
        #expect(!narrowed.readAll)
        let full = try withoutNote(fixture) { try pending(fixture) }
        #expect(
            narrowed.found == full.found && full.found.contains { $0.contains("Task 4-b edited") }
                && full.found.count > 1, "\(full.found)")
        try fixture.todosync()
        #expect(try fixture.git("status", "--porcelain").isEmpty)
        #expect(try fixture.ids(in: "projects/a/n1.md").count == 4, "the item git committed without an id has one now")

        let source = try fixture.read("projects/a/n5.md")
        let line = try #require(source.split(separator: "\n").first { $0.contains("Task 5-a") })
        try fixture.write("daily/n8.md", try fixture.read("daily/n8.md") + line + "\n")
        _ = try fixture.git("commit", "-qam", "an id pasted")
        usleep(30_000)
        let pasted = try pending(fixture)
        #expect(pasted.readAll, "not carried: every file read")
        let expected = try withoutNote(fixture) { try pending(fixture) }
        #expect(pasted.found == expected.found)
        try fixture.todosync()
        var ids: [String] = []
        for path in try fixture.git("ls-files", "*.md").split(separator: "\n") {
            ids += try fixture.ids(in: String(path))
        }
        #expect(Set(ids).count == ids.count, "no id twice")
        try fixture.expectCleanAndSound()
    }

    @Test func anItemPastedFromAFileNotReadGetsAnIdOfItsOwn() throws {
        let fixture = try vault()
        let source = try fixture.read("projects/a/n1.md")
        let line = try #require(source.split(separator: "\n").first { $0.contains("Task 1-a") })
        try fixture.write("daily/n0.md", try fixture.read("daily/n0.md") + line + "\n")
        try fixture.todosync()
        var ids: [String] = []
        for path in try fixture.git("ls-files", "*.md").split(separator: "\n") {
            ids += try fixture.ids(in: String(path))
        }
        #expect(Set(ids).count == ids.count, "no id twice")
        #expect(try fixture.read("projects/a/n1.md") == source, "the original keeps its id")
    }

    @Test func aDamagedOrStaleNoteIsOnlyMissed() throws {
        let fixture = try vault()
        try fixture.write(
            "daily/n0.md",
            try fixture.read("daily/n0.md").replacingOccurrences(of: "[ ] Task 0-b", with: "[x] Task 0-b"))
        let path = fixture.path + "/.git/" + CheckedHead.fileName
        let good = try #require(FileManager.default.contents(atPath: path))
        let expected = try withoutNote(fixture) { try pending(fixture).found }
        var stale = String(decoding: good, as: UTF8.self)
        // A note naming another blob for a file: that file is read.
        let line = try #require(stale.range(of: #"b. [0-9a-f]{40} daily/n4.md"#, options: .regularExpression))
        stale.replaceSubrange(line, with: stale[line].prefix(3) + String(repeating: "0", count: 40) + " daily/n4.md")
        for damage in [Data(good.prefix(good.count / 3)), Data("garbage".utf8), Data(stale.utf8)] {
            try damage.write(to: URL(fileURLWithPath: path))
            #expect(try pending(fixture).found == expected)
        }
    }
}
