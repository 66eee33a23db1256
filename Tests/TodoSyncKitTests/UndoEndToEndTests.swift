import Foundation
import Testing
import TestSupport

/// Undo and redo through real repositories: new commits that invert units, read from history.
@Suite struct UndoEndToEndTests {
    static let start = "# Home\n- [ ] Milk ^milk\n- [ ] Bread ^bread\n- [ ] Eggs ^eggs\n"

    func fixture() throws -> Fixture {
        let fixture = try Fixture(gitFiles: ["TODO.md": withIDs(Self.start)])
        try fixture.todosync()
        return fixture
    }

    /// In a large list, the unit's parent's version is read on another thread and parsed
    /// reusing HEAD's: an undo of the newest unit, and of an older one named by its id with a
    /// later unit kept, each take back exactly their own edit.
    @Test func undoInALargeListTakesBackExactlyItsUnit() throws {
        let f = try Fixture(gitFiles: ["TODO.md": Fixture.numberedList(12_000)])
        try f.todosync()
        let original = try f.read("TODO.md")
        #expect(original.utf8.count > 256 << 10)
        try f.todosync("done", "Task number 5 to do")
        let first = f.head
        try f.todosync("done", "Task number 11990 to do")
        let afterBoth = try f.read("TODO.md")
        let traced = try run(todosyncBinary, ["undo"], in: f.path, environment: ["TODOSYNC_TRACE": "1"])
        #expect(
            traced.status == 0 && traced.stdout.contains("Undo: Check \"Task number 11990 to do\""), "\(traced.stdout)")
        #expect(traced.stderr.contains("read ahead: TODO.md of tree"), "\(traced.stderr)")
        #expect(
            try f.read("TODO.md")
                == afterBoth.replacingOccurrences(of: "- [x] Task number 11990 ", with: "- [ ] Task number 11990 "))
        try f.todosync("redo")
        #expect(try f.read("TODO.md") == afterBoth)
        // The older unit, by its id: the later check stays.
        let older = try f.todosync("undo", first)
        #expect(older.stdout.contains("Undo: Check \"Task number 5 to do\""), "\(older.stdout)")
        #expect(
            try f.read("TODO.md")
                == afterBoth.replacingOccurrences(of: "- [x] Task number 5 ", with: "- [ ] Task number 5 "))
        #expect(try f.git("show", "HEAD:TODO.md") == (try f.read("TODO.md")))
        try f.expectCleanAndSound()
    }

    @Test func undoAndRedoCommandsBatchesAndEditorSessions() throws {
        let f = try fixture()
        let original = try f.read("TODO.md")
        try f.todosync("done", "milk")
        let afterDone = try f.read("TODO.md")
        #expect(try run(todosyncBinary, ["batch"], in: f.path, input: "add Tea\nrm bread\ndone eggs\n").status == 0)
        let afterBatch = try f.read("TODO.md")
        try f.write("TODO.md", afterBatch.replacingOccurrences(of: "] Milk", with: "] Oat milk"))
        try f.todosync()  // an editor session
        let count = f.commitCount

        // Undo three times: the session, the whole batch, the command.
        let first = try f.todosync("undo")
        #expect(first.stdout.contains("Undo: Rename \"Milk\" to \"Oat milk\""))
        #expect(try f.read("TODO.md") == afterBatch)
        try f.todosync("undo")
        #expect(try f.read("TODO.md") == afterDone)
        try f.todosync("undo")
        #expect(try f.read("TODO.md") == original)
        #expect(f.commitCount == count + 3)
        #expect(try f.git("log", "-1", "--format=%(trailers:key=Todosync-Undoes,valueonly)").count > 40)
        // The next unit back is the adopted start: nothing of todosync's to undo before it.
        #expect(try f.todosync("log", "-n", "4").stdout.contains("(undone)"))

        // Redo twice, then a new unit clears what is left to redo.
        try f.todosync("redo", "2")
        #expect(try f.read("TODO.md") == afterBatch)
        try f.todosync("add", "Coffee")
        #expect(try f.todosync("redo").stdout.contains("Nothing to redo."))
        try f.expectCleanAndSound()
    }

    /// A session that changed only prose is a unit like any other: log shows it, undo takes
    /// it back (not the command before it), redo brings it back.
    @Test func aSessionThatChangedOnlyProseIsAUnitUndoTakesBack() throws {
        let f = try fixture()
        try f.todosync("add", "Added before")
        let withItem = try f.read("TODO.md")
        try f.write("TODO.md", withItem + "\nA paragraph of prose.\n")
        try f.todosync()
        #expect(f.lastSubject == "Edit the text of TODO.md")
        #expect(f.lastBody.contains("Todosync-Unit: edit"))
        #expect(try f.todosync("log").stdout.contains("Edit the text of TODO.md"))
        let undo = try f.todosync("undo")
        #expect(undo.stdout.contains("Undo: Edit the text of TODO.md"))
        #expect(try f.read("TODO.md") == withItem)
        try f.todosync("redo")
        #expect(try f.read("TODO.md") == withItem + "\nA paragraph of prose.\n")
        // Ids written for items committed by plain git are still no unit of anyone's.
        try f.write("TODO.md", try f.read("TODO.md") + "- [ ] From plain git\n")
        _ = try f.git("commit", "-qam", "plain")
        try f.todosync()
        #expect(f.lastBody.contains("Todosync-Unit: adopt"))
        try f.expectCleanAndSound()
    }

    @Test func nothingToUndoSaysSoAndChangesNothing() throws {
        let f = try Fixture(gitFiles: ["notes.txt": "not a list\n"])
        let head = f.head
        #expect(try f.todosync("undo").stdout.contains("Nothing of yours to undo on this clone."))
        #expect(try f.todosync("redo").stdout.contains("Nothing to redo."))
        #expect(f.head == head)
    }

    @Test func undoMergesOntoTheListsAsTheyAreNow() throws {
        // A command, a plain git commit that adds an item, and the id todosync then writes for
        // it (not a unit): undo takes back the plain edit, id and all, then the command.
        let f = try fixture()
        try f.todosync("done", "milk")
        try f.write("TODO.md", try f.read("TODO.md") + "- [ ] Added with plain git\n")
        _ = try f.git("commit", "-q", "-am", "plain edit")
        try f.todosync("undo")  // the plain edit is the newest unit
        #expect(!(try f.read("TODO.md")).contains("Added with plain git"))
        try f.todosync("undo")
        #expect(withShortIDs(try f.read("TODO.md")) == Self.start.replacingOccurrences(of: "\n", with: "\n"))
        #expect(try f.todosync("log", "-n", "2").stdout.contains("Undo: Check \"Milk\""))
        try f.expectCleanAndSound()
    }

    /// Issue 33: undo means "mine". After a fast-forward onto another clone's work, bob's undo
    /// takes back bob's own unit (reachable only through the other clone's merge), not the
    /// newest unit that came in; `undo <unit>` takes back any unit, and undoing that undo
    /// elsewhere applies it again.
    @Test func afterAFastForwardUndoTakesBackMyUnitNotTheOneThatCameIn() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs(Self.start)])
        let asAlice = ["GIT_AUTHOR_NAME": "Alice"], asBob = ["GIT_AUTHOR_NAME": "Bob"]
        try bob.sync()
        #expect(try run(todosyncBinary, ["done", "bread"], in: bob.path, environment: asBob).status == 0)
        try bob.sync()
        #expect(try run(todosyncBinary, ["add", "Tea"], in: alice.path, environment: asAlice).status == 0)
        #expect(try run(todosyncBinary, ["done", "milk"], in: alice.path, environment: asAlice).status == 0)
        try alice.sync()  // a merge made by alice
        try bob.sync()  // bob fast-forwards onto it
        #expect(try bob.git("log", "-1", "--format=%P").split(separator: " ").count == 2)

        // The log shows every unit with its author and where it was made; bob's own is there.
        let log = try bob.todosync("log").stdout
        let lines = log.split(separator: "\n")
        #expect(lines.contains { $0.contains("Alice (came in)") && $0.hasSuffix("Check \"Milk\"") })
        #expect(lines.contains { $0.contains("Bob (here)") && $0.hasSuffix("Check \"Bread\"") })
        let json =
            try JSONSerialization.jsonObject(with: Data(try bob.todosync("log", "--json").stdout.utf8))
            as? [[String: Any]] ?? []
        let bread = try #require(json.first { $0["summary"] as? String == "Check \"Bread\"" })
        #expect(bread["author"] as? String == "Bob" && bread["madeHere"] as? Bool == true)
        #expect((bread["date"] as? String)?.firstMatch(of: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/) != nil)
        let milk = try #require(json.first { $0["summary"] as? String == "Check \"Milk\"" })
        #expect(milk["author"] as? String == "Alice" && milk["madeHere"] as? Bool == false)

        let undo = try bob.todosync("undo")
        #expect(undo.stdout.contains("Undo: Check \"Bread\""))
        var text = withShortIDs(try bob.read("TODO.md"))
        #expect(text.contains("- [ ] Bread ^bread") && text.contains("- [x] Milk ^milk"))
        #expect(try bob.todosync("undo").stdout.contains("Nothing of yours to undo"))
        #expect(try bob.todosync("redo").stdout.contains("Redo: Check \"Bread\""))

        // Alice's unit, named: taken back on bob's clone; alice undoes that undo by name.
        let milkCommit = String((milk["commit"] as? String ?? "").prefix(8))
        #expect(try bob.todosync("undo", milkCommit).stdout.contains("Undo: Check \"Milk\""))
        text = withShortIDs(try bob.read("TODO.md"))
        #expect(text.contains("- [ ] Milk ^milk") && text.contains("- [x] Bread ^bread"))
        try bob.sync()
        try alice.sync()
        #expect(try alice.todosync("redo").stdout.contains("Nothing to redo."))
        // Alice's "Check Milk" is undone already (by bob): her undo takes the unit below it.
        #expect(try alice.todosync("undo").stdout.contains("Undo: Add \"Tea\""))
        let bobsUndo = try alice.git("log", "-1", "--format=%h", "--grep=Undo: Check \"Milk\"").trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(try alice.todosync("undo", bobsUndo).stdout.contains("Redo: Check \"Milk\""))
        #expect(withShortIDs(try alice.read("TODO.md")).contains("- [x] Milk ^milk"))
        let again = try alice.todosync("undo", bobsUndo, expectStatus: 1)
        #expect(again.stderr.contains("no longer hold what"))
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    /// After a merge made on this clone, undo takes back this clone's unit, not the merge (it
    /// brought the other clone's work); the merge can be named to take back what came in.
    @Test func afterAMergeUndoTakesBackMyUnitAndTheMergeCanBeNamed() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs(Self.start)])
        try alice.todosync("done", "milk")
        try alice.sync()
        try bob.todosync("done", "eggs")
        try bob.sync()  // a merge: alice's check comes in
        #expect(try bob.git("log", "-1", "--format=%P").split(separator: " ").count == 2)
        let merge = bob.head
        #expect(try bob.todosync("undo").stdout.contains("Undo: Check \"Eggs\""))
        var text = withShortIDs(try bob.read("TODO.md"))
        #expect(text.contains("- [x] Milk ^milk") && text.contains("- [ ] Eggs ^eggs"))
        try bob.todosync("redo")
        let result = try bob.todosync("undo", String(merge.prefix(10)))
        #expect(result.stdout.contains("Undo: Sync with origin/main"))
        text = withShortIDs(try bob.read("TODO.md"))
        #expect(text.contains("- [ ] Milk ^milk"))  // the incoming change, taken back
        #expect(text.contains("- [x] Eggs ^eggs"))  // bob's own, kept
        let unknown = try bob.todosync("undo", "nosuchunit", expectStatus: 1)
        #expect(unknown.stderr.contains("'nosuchunit' names no unit of this branch"))
        try bob.expectCleanAndSound()
    }

    /// Random adds, undos and redos through the binary: after each step the lists hold exactly
    /// the items an in-memory stack machine says they should, and "nothing to redo" agrees.
    /// (The first commit is a unit too; the model keeps it, so the list file never goes away.)
    @Test(arguments: [1, 2, 3])
    func theStacksReadFromGitHistoryMatchAReferenceModel(seed: Int) throws {
        let f = try Fixture(gitFiles: ["TODO.md": "- [ ] Start\n"])
        try f.todosync()
        var generator = SplitMix(seed: UInt64(seed))
        var undoStack: [String] = [], redoStack: [String] = []
        for step in 0..<24 {
            switch generator.next() % 3 {
            case 0:
                let title = "Item \(step)"
                try f.todosync("add", title)
                undoStack.append(title)
                redoStack.removeAll()
            case 1:
                guard let title = undoStack.popLast() else { continue }
                try f.todosync("undo")
                redoStack.append(title)
            default:
                let out = try f.todosync("redo").stdout
                if let title = redoStack.popLast() {
                    undoStack.append(title)
                } else {
                    #expect(out.contains("Nothing to redo."))
                }
            }
            let titles = try f.read("TODO.md").split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "Item ") else { return nil }
                return String(line[range.lowerBound...].split(separator: " <!--")[0])
            }
            #expect(Set(titles) == Set(undoStack), "step \(step)")
        }
        try f.expectCleanAndSound()
    }
}

/// Items moved into a file that held only prose (issue 30, point 7): undo and sync keep the
/// prose, and no id ends up twice.
@Suite struct MoveIntoProseFileTests {
    @Test func undoingAMoveIntoANotesFileKeepsTheNotes() throws {
        let fixture = try Fixture(gitFiles: ["notes.md": "Some notes.\n"])
        try fixture.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n")
        try fixture.todosync()
        try fixture.todosync("mv", "Buy milk", "--file", "notes.md")
        #expect(try fixture.read("notes.md").hasPrefix("Some notes.\n- [ ] Buy milk <!-- id: "))
        try fixture.todosync("undo")
        #expect(try fixture.read("notes.md") == "Some notes.\n")
        #expect(try fixture.git("show", "HEAD:notes.md") == "Some notes.\n")
        #expect(try fixture.ids(in: "TODO.md").count == 2)
        try fixture.todosync("redo")
        #expect(try fixture.ids(in: "TODO.md").count + fixture.ids(in: "notes.md").count == 2)
        try fixture.expectCleanAndSound()
    }

    /// A clone with nothing of its own fast-forwards over a move into the notes file and over
    /// the item's removal from it: the notes stay (it used to refuse, calling the notes file
    /// "changed meanwhile", or would have deleted it).
    @Test func aFastForwardOverAMoveIntoANotesFileKeepsTheNotes() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            "TODO.md": "- [ ] Buy milk\n", "notes.md": "Some notes.\n",
        ])
        try alice.todosync()
        try alice.sync()
        try bob.sync()
        try alice.sync()
        try alice.todosync("mv", "Buy milk", "--file", "notes.md")
        try alice.sync()
        let moved = try bob.sync()
        #expect(moved.stdout.contains("Fast-forwarded"), "\(moved.stdout)")
        #expect(try bob.read("notes.md") == alice.read("notes.md"))
        try alice.write("notes.md", "Some notes.\n")
        try alice.todosync()
        try alice.sync()
        try bob.sync()
        #expect(try bob.read("notes.md") == "Some notes.\n")
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    @Test func aMoveIntoANotesFileMergesWithAProseEditThere() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            "TODO.md": "- [ ] Buy milk\n", "notes.md": "Some notes.\n",
        ])
        try alice.todosync()
        try alice.sync()
        try bob.sync()
        try alice.todosync("mv", "Buy milk", "--file", "notes.md")
        try alice.sync()
        try bob.write("notes.md", "Some notes, longer.\n")
        _ = try bob.git("commit", "-qam", "Edit notes")
        try bob.sync()
        // Both kept; the item lands before the rewritten prose (MERGE.md, known gaps).
        let notes = try bob.read("notes.md")
        #expect(notes.hasPrefix("- [ ] Buy milk <!-- id: "), "\(notes)")
        #expect(notes.hasSuffix("\n\nSome notes, longer.\n"), "\(notes)")
        try alice.sync()
        #expect(try alice.read("notes.md") == notes)
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    /// In a vault, an undo reads only the notes the unit changed and those changed since, with
    /// the answers reading every note gives: a check taken back under later units, a move
    /// taken back after another note changed, and an add that a later move replaced refused.
    @Test func anUndoInAVaultReadsTheNotesTheUnitAndLaterUnitsChanged() throws {
        var files: [String: String] = [:]
        for index in 0..<60 { files["notes/n\(index).md"] = "# Note \(index)\n\n- [ ] Task \(index)\n" }
        let f = try Fixture(gitFiles: files)
        try f.markMarkdownAsLists()
        try f.todosync()
        func head() throws -> String { try f.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines) }
        func undo(_ unit: String, reading count: Int) throws -> ProcessResult {
            let result = try run(todosyncBinary, ["undo", unit], in: f.path, environment: ["TODOSYNC_TRACE": "1"])
            #expect(result.stderr.contains("files read for the undo: \(count)\n"), "\(result.stderr)")
            return result
        }
        try f.todosync("done", "Task 3")
        let checked = try head()
        try f.todosync("mv", "Task 5", "--under", "Task 7")
        let moved = try head()
        try f.todosync("done", "Task 9")
        #expect(try undo(checked, reading: 4).status == 0)
        #expect(try f.read("notes/n3.md").contains("- [ ] Task 3"))
        #expect(try undo(moved, reading: 4).status == 0, "n5, n7, and n9 and n3 changed since")
        let n5 = try f.read("notes/n5.md"), n7 = try f.read("notes/n7.md")
        #expect(n5.contains("Task 5") && !n7.contains("Task 5"))
        #expect(try f.read("notes/n9.md").contains("- [x] Task 9"), "a later unit stays")
        try f.expectCleanAndSound()

        try f.todosync("add", "Buy stamps", "--file", "notes/n3.md")
        let added = try head()
        try f.todosync("mv", "Buy stamps", "--under", "Task 7")
        let refused = try undo(added, reading: 2)
        #expect(refused.status == 1 && refused.stderr.contains("later edits replaced it"), "\(refused.stderr)")
        #expect(try f.read("notes/n7.md").contains("Buy stamps"))
        try f.expectCleanAndSound()
    }
}
