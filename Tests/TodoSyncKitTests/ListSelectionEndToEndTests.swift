import Foundation
import Testing
import TestSupport

/// Which files are lists (docs/FORMAT.md, "Which files are lists"): in a code project only
/// TODO.md files and what is named; `init` names and records what it adopts; an item moved
/// into a file makes it a list; git itself (`git check-attr`) agrees with what todosync does.
@Suite struct ListSelectionEndToEndTests {
    static let pullRequestTemplate = "## Checklist\n\n- [ ] Tests added\n- [ ] Docs updated\n"
    static let changelog = "# Changelog\n\n## 1.2\n\n- [x] Fixed the crash on start\n"

    /// A software project committed with plain git: a pull-request template and a changelog
    /// with checkboxes, a design note with tasks, a TODO.md.
    private func codeProject() throws -> Fixture {
        try Fixture(
            gitFiles: [
                "Package.swift": "// swift-tools-version:6.0\n",
                ".github/pull_request_template.md": Self.pullRequestTemplate,
                "CHANGELOG.md": Self.changelog,
                "docs/road map.md": "# Road map\n\n- [ ] Ship 2.0\n",
                "TODO.md": "- [ ] Fix the build\n",
            ],
            listsRepository: false)
    }

    private func attribute(_ fixture: Fixture, _ path: String) throws -> String {
        let line = try fixture.git("check-attr", "todosync", "--", path)
        return String(line.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Issue 33: with several lists and no TODO.md, `add` does not pick one silently.
    @Test func addWithSeveralListsAndNoTodoMdAsksForAFile() throws {
        let f = try Fixture(gitFiles: ["home.md": "- [ ] Milk\n", "work.md": "- [ ] Report\n"])
        try f.todosync()
        let head = f.head
        let refused = try f.todosync("add", "Bread", expectStatus: 1)
        #expect(
            refused.stderr.contains(
                "there are 2 lists and no TODO.md, so todosync does not guess which one gets the item; nothing was changed"
            ))
        #expect(refused.stderr.contains("hint: name one with --file: home.md, work.md"))
        #expect(f.head == head)
        try f.todosync("add", "Bread", "--file", "home.md")
        #expect(try f.read("home.md").contains("- [ ] Bread <!-- id: "))
        try f.expectCleanAndSound()
    }

    @Test func inACodeProjectTodosyncWritesIdsOnlyIntoTodoFiles() throws {
        let fixture = try codeProject()
        let result = try fixture.todosync()
        #expect(result.stdout.contains("Add an id to 1 item"), "\(result.stdout)")
        #expect(try fixture.ids(in: "TODO.md").count == 1)
        #expect(try fixture.read(".github/pull_request_template.md") == Self.pullRequestTemplate)
        #expect(try fixture.read("CHANGELOG.md") == Self.changelog)
        #expect(try fixture.read("docs/road map.md") == "# Road map\n\n- [ ] Ship 2.0\n")
        #expect(try fixture.git("show", "--name-only", "--format=", "HEAD") == "TODO.md\n")
        // New checkboxes in the project's documents stay theirs.
        try fixture.write("CHANGELOG.md", Self.changelog + "- [ ] Next: the docs\n")
        try fixture.write("docs/new.md", "- [ ] An idea\n")
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))
        try fixture.todosync()
        #expect(try fixture.ids(in: "CHANGELOG.md").isEmpty && fixture.ids(in: "docs/new.md").isEmpty)
        #expect(fixture.commitCount == 2)
        try fixture.expectCleanAndSound(except: [" M CHANGELOG.md", "?? docs/new.md"])
    }

    /// A plain commit that only touches the project's documents is no undo unit.
    @Test func undoPassesOverPlainCommitsThatChangeNoList() throws {
        let fixture = try codeProject()
        try fixture.todosync()
        try fixture.todosync("add", "Second")
        try fixture.write("CHANGELOG.md", Self.changelog + "- [ ] Next\n")
        _ = try fixture.git("commit", "-qam", "Changelog")
        #expect(try !fixture.todosync("log").stdout.contains("Changelog"))
        try fixture.todosync("undo")
        #expect(fixture.lastSubject == "Undo: Add \"Second\"")
        #expect(try !fixture.read("TODO.md").contains("Second"))
        #expect(try fixture.read("CHANGELOG.md") == Self.changelog + "- [ ] Next\n")
        try fixture.expectCleanAndSound()
    }

    @Test func initInACodeProjectNamesAndRecordsWhatItAdoptsAndLeavesTheProjectsDocumentsAlone() throws {
        let fixture = try codeProject()
        let result = try fixture.todosync("init")
        #expect(result.stdout.contains("Lists: TODO.md, docs/road map.md"), "\(result.stdout)")
        #expect(result.stdout.contains("a software project"))
        #expect(
            result.stdout.contains(
                "Left alone, not lists (a project's own documents): .github/pull_request_template.md, CHANGELOG.md"))
        #expect(try fixture.read(".github/pull_request_template.md") == Self.pullRequestTemplate)
        #expect(try fixture.read("CHANGELOG.md") == Self.changelog)
        #expect(try fixture.ids(in: "docs/road map.md").count == 1)
        // Recorded in the commit, and git reads the record as todosync does.
        #expect(
            try fixture.git("show", "--name-only", "--format=", "HEAD") == ".gitattributes\nTODO.md\ndocs/road map.md\n"
        )
        #expect(try attribute(fixture, "docs/road map.md") == "set")
        #expect(try attribute(fixture, "docs/other.md") == "unspecified")
        #expect(try attribute(fixture, "CHANGELOG.md") == "unspecified")
        try fixture.expectCleanAndSound()

        // Later: items typed into the adopted file are adopted; other Markdown is not.
        try fixture.write("docs/road map.md", try fixture.read("docs/road map.md") + "- [ ] Ship 2.1\n")
        try fixture.write("docs/other.md", "- [ ] Not a list\n")
        try fixture.todosync()
        #expect(fixture.lastSubject == "Add \"Ship 2.1\"")
        #expect(try fixture.ids(in: "docs/other.md").isEmpty)

        // Every clone agrees: a clone made with git has nothing to adopt.
        let clone = Scratch()
        _ = try git("clone", "-q", fixture.path, clone.path + "/c", in: clone.path)
        #expect(try run(todosyncBinary, ["status"], in: clone.path + "/c").stdout.contains("Nothing changed"))
    }

    @Test func initInAFolderOfListsMakesEveryMarkdownFileWithItemsAList() throws {
        let fixture = try Fixture(
            gitFiles: [
                "groceries.md": "- [ ] Milk\n",
                "work/plan.md": "- [ ] Report\n",
                ".trash/old.md": "- [ ] Deleted note\n",
                "notes.md": "Just prose.\n",
            ],
            listsRepository: false)
        let result = try fixture.todosync("init")
        #expect(result.stdout.contains("Lists: groceries.md, work/plan.md"), "\(result.stdout)")
        #expect(result.stdout.contains("every Markdown file with task items is a list"))
        #expect(result.stdout.contains("Left alone, not lists (a project's own documents): .trash/old.md"))
        #expect(
            try fixture.read(".gitattributes").contains(
                "*.md todosync\n*.markdown todosync\n/.trash/old.md -todosync\n"))
        #expect(try fixture.read(".trash/old.md") == "- [ ] Deleted note\n")
        #expect(try attribute(fixture, "anything new.md") == "set")
        try fixture.expectCleanAndSound()

        // A new list written on another clone is adopted there and arrives here as a list.
        let clone = Scratch()
        _ = try git("clone", "-q", fixture.path, clone.path + "/c", in: clone.path)
        try clone.write("c/travel.md", "- [ ] Book flights\n")
        #expect(try run(todosyncBinary, [], in: clone.path + "/c").status == 0)
        #expect(try clone.read("c/travel.md").hasPrefix("- [ ] Book flights <!-- id: "))
        try fixture.write(".trash/old.md", "- [ ] Deleted note\n- [ ] Still not a list\n")
        try fixture.todosync()
        #expect(try fixture.ids(in: ".trash/old.md").isEmpty)
    }

    @Test func anItemMovedIntoAFileThatIsNotAListMakesItOneAndUndoLeavesEveryIdOnce() throws {
        let fixture = try codeProject()
        try fixture.todosync()
        let notes = "# Notes\n\nSome prose.\n"
        try fixture.write("docs/notes.md", notes)
        _ = try fixture.git("add", "docs/notes.md")
        _ = try fixture.git("commit", "-qm", "notes")
        let id = try fixture.ids(in: "TODO.md")[0]

        try fixture.todosync("mv", "Fix the build", "--file", "docs/notes.md")
        #expect(fixture.lastSubject == "Move \"Fix the build\" from TODO.md to docs/notes.md")
        #expect(try fixture.ids(in: "docs/notes.md") == [id])
        #expect(try fixture.ids(in: "TODO.md").isEmpty)
        // The item stays tracked there: a check is committed as a check.
        try fixture.write(
            "docs/notes.md", try fixture.read("docs/notes.md").replacingOccurrences(of: "- [ ]", with: "- [x]"))
        try fixture.todosync()
        #expect(fixture.lastSubject == "Check \"Fix the build\"")

        try fixture.todosync("undo")
        try fixture.todosync("undo")
        #expect(try fixture.ids(in: "TODO.md") == [id])
        #expect(try fixture.read("docs/notes.md") == notes)
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))
        try fixture.expectCleanAndSound()
    }

    @Test func itemsAreNeverAddedOrMovedIntoAFileThatCannotBeAList() throws {
        let fixture = try codeProject()
        try fixture.write(".gitattributes", "CHANGELOG.md -todosync\n")
        try fixture.write("README.md", "# Project\n")
        _ = try fixture.git("add", "-A")
        _ = try fixture.git("commit", "-qm", "attributes")
        try fixture.todosync()
        let before = fixture.commitCount
        for (file, reason) in [
            ("CHANGELOG.md", "-todosync"), ("README.md", "todosync.exclude"), ("notes.txt", "Markdown"),
        ] {
            let refused = try fixture.todosync("mv", "Fix the build", "--file", file, expectStatus: 1)
            #expect(refused.stderr.contains("\(file) cannot hold a list"), "\(refused.stderr)")
            #expect(refused.stderr.contains(reason), "\(refused.stderr)")
            try fixture.todosync("add", "New", "--file", file, expectStatus: 1)
        }
        #expect(fixture.commitCount == before)
        #expect(try fixture.read("CHANGELOG.md") == Self.changelog)
        try fixture.expectCleanAndSound()
    }
}
