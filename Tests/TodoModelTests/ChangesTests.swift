import PropertyBased
import Testing
@testable import TodoModel

@Suite struct ChangesTests {
    let before = identified("- [ ] Buy milk\n- [x] Call Bob\n  notes\n- [ ] Pay rent 🔼\n- [ ] Old idea\n")

    func changes(_ edit: (inout String) -> Void) -> [String] {
        var text = before.text
        edit(&text)
        return ListSet.changes(
            from: ListSet([before]), to: ListSet([ListDocument(path: "TODO.md", bytes: Array(text.utf8))])
        ).map(\.phrase)
    }

    func line(_ index: Int) -> String {
        String(before.text.split(separator: "\n", omittingEmptySubsequences: false)[index])
    }

    @Test func noEditNoChange() { #expect(changes { _ in }.isEmpty) }
    @Test func checked() {
        #expect(changes { $0 = $0.replacingAll("- [ ] Buy milk", with: "- [x] Buy milk") } == ["Check \"Buy milk\""])
    }
    @Test func unchecked() {
        #expect(changes { $0 = $0.replacingAll("- [x] Call Bob", with: "- [ ] Call Bob") } == ["Uncheck \"Call Bob\""])
    }
    @Test func retitled() {
        #expect(
            changes { $0 = $0.replacingAll("Buy milk", with: "Buy oat milk") } == [
                "Rename \"Buy milk\" to \"Buy oat milk\""
            ])
    }
    @Test func notesEdited() {
        #expect(changes { $0 = $0.replacingAll("  notes", with: "  other notes") } == ["Edit notes of \"Call Bob\""])
    }
    @Test func reprioritized() {
        #expect(changes { $0 = $0.replacingAll("🔼", with: "⏫") } == ["Set priority of \"Pay rent\" to high"])
        #expect(changes { $0 = $0.replacingAll(" 🔼", with: "") } == ["Clear priority of \"Pay rent\""])
    }
    @Test func dueChanged() {
        #expect(
            changes { $0 = $0.replacingAll("🔼", with: "🔼 📅 2026-12-01") } == [
                "Set due date of \"Pay rent\" to 2026-12-01"
            ])
    }
    @Test func added() { #expect(changes { $0 += "- [ ] New <!-- id: \(ItemID.named("n")) -->\n" } == ["Add \"New\""]) }
    @Test func removed() {
        #expect(changes { $0 = $0.replacingAll(line(4) + "\n", with: "") } == ["Remove \"Old idea\""])
    }

    @Test func movedWithinTheFileIsOneMoveNotMany() {
        // Old idea goes to the top: only it moved, the others merely shifted.
        #expect(changes { $0 = line(4) + "\n" + $0.replacingAll(line(4) + "\n", with: "") } == ["Move \"Old idea\""])
    }

    @Test func reorderingChildrenMovesOnlyTheOneTakenOut() {
        // Siblings are compared within their parent: the top level and each item's children
        // apart, in two files at once.
        let nested = identified(
            "- [ ] Trip\n  - [ ] Pack\n  - [ ] Book\n  - [ ] Leave\n- [ ] Home\n  - [ ] Sweep\n  - [ ] Cook\n")
        let other = identified("- [ ] One\n- [ ] Two\n", path: "b.md")
        let lines = nested.text.split(separator: "\n").map(String.init)
        // Leave goes first among Trip's children; Cook and Sweep swap; b.md is unchanged.
        let text =
            [lines[0], lines[3], lines[1], lines[2], lines[4], lines[6], lines[5]].joined(separator: "\n") + "\n"
        let found = ListSet.changes(
            from: ListSet([nested, other]),
            to: ListSet([ListDocument(path: "TODO.md", bytes: Array(text.utf8)), other])
        ).map(\.phrase)
        #expect(found.count == 2)
        #expect(found.first == "Move \"Leave\"")
        #expect(found.last == "Move \"Cook\"" || found.last == "Move \"Sweep\"")
    }

    @Test func nestingUnderAnotherItemIsAMove() {
        #expect(changes { $0 = $0.replacingAll(line(4), with: "  " + line(4)) } == ["Move \"Old idea\""])
    }

    @Test func movingToAnotherFileKeepsTheItem() {
        let moved = before.text.replacingAll(line(4) + "\n", with: "")
        let after = ListSet([
            ListDocument(path: "TODO.md", bytes: Array(moved.utf8)),
            ListDocument(path: "later.md", bytes: Array((line(4) + "\n").utf8)),
        ])
        #expect(
            ListSet.changes(from: ListSet([before]), to: after).map(\.phrase) == [
                "Move \"Old idea\" from TODO.md to later.md"
            ])
    }

    @Test func severalFieldsOfOneItem() {
        #expect(
            changes { $0 = $0.replacingAll("- [ ] Buy milk", with: "- [x] Buy oat milk") } == [
                "Check \"Buy oat milk\"", "Rename \"Buy milk\" to \"Buy oat milk\"",
            ])
    }

    @Test func aligningItemsByPlaceFindsWhatMatchingThemByIdFinds() async {
        // Random edits: field edits leave the items aligned (the shortcut), the others do not.
        await propertyCheck(count: 1500, input: markdownGenerator, Gen.int(in: 0...1_000_000), Gen.int(in: 1...3)) {
            text, seed, times in
            let base = MergeLawTests.base(text)
            var editor = RandomEditor(seed: UInt64(seed))
            let edited = editor.edit(base, times: times)
            #expect(
                ListSet.changes(from: base, to: edited, aligning: true)
                    == ListSet.changes(from: base, to: edited, aligning: false))
        }
    }

    /// Where only lines changed, the items are compared in place; a later copy of an id and an
    /// item without an id are left out as the full comparison leaves them out, and an item
    /// edited among thousands is the one change told.
    @Test func itemsComparedInPlaceGiveWhatTheFullComparisonGives() {
        let id = "0A39EEBF-813F-5529-8A5C-7F3B3582BAA3", other = "E739AB2E-9A73-509E-8999-849B2CA6D4B6"
        func lists(_ text: String) -> ListSet { ListSet([ListDocument(path: "TODO.md", bytes: Array(text.utf8))]) }
        let base = lists(
            "- [ ] First <!-- id: \(id) -->\n  - [ ] Child <!-- id: \(other) -->\n- [ ] Copy <!-- id: \(id) -->\n- [ ] No id\n"
        )
        for edited in [
            "- [ ] First <!-- id: \(id) -->\n  - [ ] Child <!-- id: \(other) -->\n- [x] Copy edited <!-- id: \(id) -->\n- [x] No id\n",
            "- [x] First 🔼 <!-- id: \(id) -->\n  - [ ] Child renamed <!-- id: \(other) -->\n    a note\n- [ ] Copy <!-- id: \(id) -->\n- [ ] No id\n",
        ] {
            let full = ListSet.changes(from: base, to: lists(edited), aligning: false)
            #expect(ListSet.changes(from: base, to: lists(edited), aligning: true) == full)
        }
        #expect(
            ListSet.changes(
                from: base,
                to: lists(
                    "- [ ] First <!-- id: \(id) -->\n  - [ ] Child <!-- id: \(other) -->\n- [x] Copy <!-- id: \(id) -->\n- [ ] No id\n"
                )
            ).isEmpty)

        var text = "# Many\n\n"
        for n in 0..<3_000 {
            text += "- [ ] Task \(n) <!-- id: \(ItemID(high: UInt64(n) &+ 0x1000, low: UInt64(n) &* 7919 &+ 1)) -->\n"
        }
        let many = lists(text)
        let one = lists(text.replacingOccurrences(of: "- [ ] Task 2718 ", with: "- [x] Task 2718 (done) "))
        #expect(
            ListSet.changes(from: many, to: one).map(\.phrase) == [
                "Check \"Task 2718 (done)\"", "Rename \"Task 2718\" to \"Task 2718 (done)\"",
            ])
        #expect(ListSet.changes(from: many, to: one) == ListSet.changes(from: many, to: one, aligning: false))
    }

    @Test(arguments: [[Int](), [0], [1, 0], [0, 1, 2], [2, 0, 1], [3, 1, 2, 0, 4]])
    func longestRunMatchesANaiveSearch(_ values: [Int]) {
        let run = ListSet.longestIncreasingRun(values)
        let chosen = values.indices.filter { run[$0] }.map { values[$0] }
        #expect(chosen == chosen.sorted())
        // Naive: the best length over every subset.
        var best = 0
        for mask in 0..<(1 << values.count) {
            let picked = values.indices.filter { mask & (1 << $0) != 0 }.map { values[$0] }
            if picked == picked.sorted(), Set(picked).count == picked.count { best = max(best, picked.count) }
        }
        #expect(chosen.count == best)
    }
}

@Suite struct CommitMessageTests {
    func change(_ kind: Change.Kind, _ title: String) -> Change {
        Change(
            kind,
            TodoItem(
                id: .named(title), title: title, isDone: false, notes: "", priority: .none, due: nil, parent: nil,
                position: 0, file: "TODO.md", section: nil, line: 1))
    }

    @Test func summarySaysWhatChangedAndCountsTheRest() {
        let changes =
            [change(.checked, "Buy milk"), change(.added, "Call Bob")]
            + (1...3).map { change(.added, "Item number \($0) with a long title") }
        let message = CommitMessage.describing(changes)
        #expect(message.summary == "Check \"Buy milk\", add \"Call Bob\" and 3 more")
        #expect(message.body.count == 5)
        #expect(message.body[4] == "- Add \"Item number 3 with a long title\"")
    }

    @Test func twoChangesAreJoinedWithAnd() {
        #expect(
            CommitMessage.describing([change(.checked, "a"), change(.removed, "b")]).summary
                == "Check \"a\" and remove \"b\"")
    }

    @Test func onlyIdsWritten() {
        #expect(CommitMessage.describing([], idsWritten: 3).summary == "Add ids to 3 items")
    }

    @Test func textPutsBodyAndTrailersInParagraphs() {
        let message = CommitMessage(summary: "S", body: ["- a"], trailers: ["Todosync-Unit: edit"])
        #expect(message.text == "S\n\n- a\n\nTodosync-Unit: edit\n")
    }

    @Test func controlBytesInATitleNeverCutTheMessage() {
        var message = CommitMessage.describing([
            change(.added, "Nul\u{0}here\u{1B}[31m"), change(.added, "tab\tkept\u{7F}"),
        ])
        message.trailers = ["Todosync-Unit: command"]
        let text = message.text
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        #expect(text.contains("Nul␀here␛[31m") && text.contains("tab\tkept␡"))
        #expect(text.hasSuffix("\n\nTodosync-Unit: command\n"))
    }
}
