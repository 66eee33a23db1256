import Foundation
import Testing
import TestSupport

/// Item commands and batches through the built binary, with git as the witness.
@Suite struct ItemCommandEndToEndTests {
    static let start =
        "# Home\n- [ ] Buy milk ^milk\n- [ ] Errands ^err\n  - [ ] Post office ^post\n- [ ] Pay rent ^rent\n"

    func fixture() throws -> Fixture {
        let fixture = try Fixture(gitFiles: ["TODO.md": withIDs(Self.start)])
        try fixture.todosync()
        return fixture
    }

    @Test func eachCommandIsOneCommitThatSaysWhatItDid() throws {
        let f = try fixture()
        let before = f.commitCount
        try f.todosync("add", "Call Bob", "--under", "errands", "--priority", "high", "--due", "2026-12-01")
        #expect(f.lastSubject == "Add \"Call Bob\"")
        // The id goes before the fields, where Obsidian Tasks still reads them.
        #expect(try f.read("TODO.md").contains(/\n  - \[ \] Call Bob <!-- id: [0-9A-F-]{36} --> ⏫ 📅 2026-12-01\n/))
        try f.todosync("done", "milk")
        #expect(f.lastSubject == "Check \"Buy milk\"")
        try f.todosync("edit", "bob", "--title", "Call Bobby", "--notes", "about the car\\nand the keys")
        try f.todosync("mv", "Bobby", "--before", "Buy milk")
        try f.todosync("reopen", "milk")
        try f.todosync("rm", "rent")
        #expect(f.commitCount == before + 6)
        let text = withShortIDs(try f.read("TODO.md"))
        #expect(text.firstMatch(of: /^# Home\n- \[ \] Call Bobby <!-- id: [0-9A-F-]{36} --> ⏫ 📅 2026-12-01\n/) != nil)
        #expect(
            text.contains(
                "  about the car\n  and the keys\n- [ ] Buy milk ^milk\n- [ ] Errands ^err\n  - [ ] Post office ^post\n"
            ))
        #expect(!text.contains("Pay rent"))
        let log = try f.git("log", "--format=%s|%(trailers:key=Todosync-Unit,valueonly)", "-6")
        #expect(log.components(separatedBy: "command").count - 1 == 6)
        try f.expectCleanAndSound()
    }

    @Test func aBatchIsOneCommitAndABadLineRejectsItAll() throws {
        let f = try fixture()
        let plan = "add \"Tea\" --priority low\n\n# a comment\ndone 'post office'\nmv milk --after rent\n"
        try f.write("plan.txt", plan)
        let before = f.commitCount
        let result = try f.todosync("batch", "plan.txt")
        #expect(f.commitCount == before + 1)
        #expect(result.stdout.contains("Add \"Tea\""))
        #expect(try f.git("log", "-1", "--format=%(trailers:key=Todosync-Unit,valueonly)").contains("batch"))
        let text = withShortIDs(try f.read("TODO.md"))
        #expect(text.contains("  - [x] Post office ^post\n- [ ] Pay rent ^rent\n- [ ] Buy milk ^milk\n"))

        let head = f.head
        let bytes = try f.read("TODO.md")
        for bad in [
            "add \"Ok\"\ndone nothing-like-this\n", "add \"Ok\"\nfrobnicate\n", "add \"Ok\"\ndone \"unclosed\n",
        ] {
            let failed = try run(todosyncBinary, ["batch"], in: f.path, input: bad)
            #expect(failed.status == 1)
            #expect(failed.stderr.contains("line 2"))
            #expect(failed.stderr.contains("nothing in the batch was applied"))
            #expect(f.head == head)
            #expect(try f.read("TODO.md") == bytes)
        }
    }

    @Test func aQueryThatMatchesSeveralItemsListsThemAndChangesNothing() throws {
        let f = try fixture()
        let head = f.head
        let result = try f.todosync("done", "e", expectStatus: 1)
        #expect(result.stderr.contains("\"e\" matches"))
        #expect(
            result.stderr.contains("Errands") && result.stderr.contains("Post office")
                && result.stderr.contains("Pay rent"))
        let none = try f.todosync("rm", "zebra", expectStatus: 1)
        #expect(none.stderr.contains("no item matches \"zebra\""))
        #expect(f.head == head)
        // An id prefix names one item.
        try f.todosync("add", "Tea")
        let id = try f.ids(in: "TODO.md").last!
        try f.todosync("done", String(id.prefix(6)).lowercased())
        #expect(f.lastSubject == "Check \"Tea\"")
    }

    @Test func editsPendingInTheFilesAreCommittedFirstAsTheirOwnUnit() throws {
        let f = try fixture()
        try f.write("TODO.md", try f.read("TODO.md") + "- [ ] Typed in the editor\n")
        let before = f.commitCount
        let result = try f.todosync("done", "milk")
        #expect(result.stdout.contains("(your edits, committed first)"))
        #expect(f.commitCount == before + 2)
        let subjects = try f.git("log", "--format=%s", "-2").split(separator: "\n")
        #expect(subjects == ["Check \"Buy milk\"", "Add \"Typed in the editor\""])
        try f.expectCleanAndSound()
    }

    @Test func listShowsNestingAndStateAndJSONForScripts() throws {
        let f = try fixture()
        try f.todosync("add", "Call Bob", "--under", "errands", "--priority", "high")
        try f.todosync("done", "post")
        let text = try f.todosync("list").stdout
        #expect(text.contains("TODO.md\n  [ ] Buy milk  "))
        #expect(text.contains("    [x] Post office  "))
        #expect(text.contains("    [ ] Call Bob  (high)  "))
        let open = try f.todosync("list", "--open", "--sort", "priority").stdout
        #expect(open.hasPrefix("[ ] Call Bob  (high, TODO.md:5)"))
        #expect(!open.contains("Post office"))
        let json = try f.todosync("list", "--json").stdout
        let items = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect(items?.count == 5)
        let bob = items?.first { $0["title"] as? String == "Call Bob" }
        #expect(bob?["priority"] as? String == "high")
        #expect(bob?["parent"] as? String == shortIDText("err"))
        #expect(bob?["done"] as? Bool == false)
    }

    @Test func addToAListFileThatHasNoItemYet() throws {
        let f = try fixture()
        try f.write("work.md", "# Work\n\nNothing here yet.\n")
        _ = try f.git("add", "work.md")
        _ = try f.git("commit", "-q", "-m", "a file without items")
        try f.todosync("add", "Write the report", "--file", "work.md")
        #expect(try f.read("work.md").hasPrefix("# Work\n\nNothing here yet.\n- [ ] Write the report <!-- id: "))
        try f.expectCleanAndSound()
    }

    /// docs/UNDO.md: undo never deletes what the user made. A prose file git never tracked that a
    /// command put an item in comes back as it was: untracked, its own bytes; redo puts the item
    /// back into it.
    @Test(arguments: [["mv", "milk", "--file", "notes.md"], ["add", "Tea", "--file", "notes.md"]])
    func undoGivesBackAnUntrackedFileACommandMadeAList(_ command: [String]) throws {
        let f = try fixture()
        try f.write("notes.md", "My notes\r\nkept as they are\r\n")
        let list = try f.read("TODO.md")
        _ = try run(todosyncBinary, command, in: f.path)
        #expect(try f.git("ls-files", "notes.md") == "notes.md\n")
        try f.todosync("undo")
        #expect(try f.read("notes.md") == "My notes\r\nkept as they are\r\n")
        #expect(try f.read("TODO.md") == list)
        #expect(try f.git("status", "--porcelain") == "?? notes.md\n")
        #expect(try f.git("ls-files", "notes.md").isEmpty)
        try f.todosync("redo")
        #expect(try f.read("notes.md").hasPrefix("My notes\r\nkept as they are\r\n- [ ] "))
        #expect(try f.git("status", "--porcelain").isEmpty)
        try f.todosync("undo")
        #expect(try f.read("notes.md") == "My notes\r\nkept as they are\r\n")
        _ = try f.git("fsck", "--strict")
    }

    @Test func undoOfAnAddToANewFileRemovesTheFileItMade() throws {
        let f = try fixture()
        try f.todosync("add", "Tea", "--file", "new.md")
        try f.todosync("undo")
        #expect(!FileManager.default.fileExists(atPath: f.path + "/new.md"))
        #expect(try f.git("status", "--porcelain").isEmpty)
    }

    @Test func aBatchWithWindowsLineEndingsReadsItsLines() throws {
        let f = try fixture()
        let result = try run(todosyncBinary, ["batch"], in: f.path, input: "# plan\r\ndone milk\r\nrm rent\r\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(f.lastSubject == "Check \"Buy milk\" and remove \"Pay rent\"")
    }

    @Test func refusalsNameItemsByTitleAndChangeNothing() throws {
        let f = try Fixture(gitFiles: [
            "TODO.md": withIDs("Intro\n1. [ ] A ^a\n2. [ ] B ^b\n- [ ] P ^p\n  ```\n  open\n")
        ])
        try f.todosync()
        let head = f.head
        let itself = try f.todosync("mv", "A", "--after", "A", expectStatus: 1)
        #expect(itself.stderr.contains("\"A\" cannot go under, before or after itself"))
        let fence = try f.todosync("add", "X", "--under", "P", expectStatus: 1)
        #expect(
            fence.stderr.contains("TODO.md:7: \"X\" cannot go there: it would be read as part of the notes of \"P\""))
        let notes = try f.todosync("edit", "A", "--notes=- [ ] sub", expectStatus: 1)
        #expect(notes.stderr.contains("would be a task item of its own"))
        #expect(!(itself.stderr + fence.stderr + notes.stderr).contains("00000000-"))
        #expect(f.head == head)
        // The swap the report found: both items kept, the moved one named.
        try f.todosync("mv", "A", "--after", "B")
        #expect(f.lastSubject == "Move \"A\"")
        #expect(withShortIDs(try f.read("TODO.md")).hasPrefix("Intro\n1. [ ] B ^b\n2. [ ] A ^a\n"))
        try f.expectCleanAndSound()
    }

    /// The first hour: `git init`, then `todosync add`: TODO.md is made, as the first commit;
    /// words not in quotes are one title; a code project with no list gets a TODO.md too.
    @Test func addStartsTODOmdWhereThereIsNoListYet() throws {
        let f = try Fixture(listsRepository: false)
        try f.todosync("add", "First")
        try f.todosync("add", "Buy", "eggs", "--priority", "high")
        #expect(
            withShortIDs(try f.read("TODO.md")).contains(
                /^- \[ \] First <!-- id: [0-9A-F-]{36} -->\n- \[ \] Buy eggs <!-- id: [0-9A-F-]{36} --> ⏫\n$/))
        #expect(f.commitCount == 2)
        #expect(try f.git("log", "--format=%s").split(separator: "\n") == ["Add \"Buy eggs\"", "Add \"First\""])
        try f.expectCleanAndSound()

        let code = try Fixture(gitFiles: ["main.c": "int main(void) { return 0; }\n"], listsRepository: false)
        try code.todosync("add", "In", "a", "code", "project")
        #expect(try code.read("TODO.md").hasPrefix("- [ ] In a code project <!-- id: "))
        try code.expectCleanAndSound()
        // Nothing to name yet: said so, as before.
        let none = try Fixture(listsRepository: false)
        let done = try none.todosync("done", "milk", expectStatus: 1)
        #expect(done.stderr.contains("there are no lists here yet"))
    }

    /// `list --file` naming no list is an error naming the lists, not an empty answer.
    @Test func listOfAFileThatIsNoListSaysSo() throws {
        let f = try fixture()
        let none = try f.todosync("list", "--file", "nosuch.md", expectStatus: 1)
        #expect(none.stderr.contains("todosync: error: nosuch.md is not a list here"))
        #expect(none.stderr.contains("hint: the lists: TODO.md"))
        #expect(try f.todosync("list", "--file", "TODO.md").stdout.contains("Buy milk"))
    }
}
