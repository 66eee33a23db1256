import TestSupport
import Testing
@testable import TodoModel

/// The law item commands keep (docs/FORMAT.md, "Item commands"): exactly the items named
/// change, as the command says, or it is refused and nothing changes. One test per case of the
/// report that found them; `ItemCommandWitnessTests` holds the law on generated lists with
/// cmark-gfm as the witness.
@Suite struct ItemTreeLawTests {
    /// Lists with `^name` for ids; commands name items that way.
    private func lists(_ text: String, other: String? = nil) -> ListSet {
        var documents = [ListDocument(path: "TODO.md", bytes: Array(withIDs(text).utf8))]
        if let other { documents.append(ListDocument(path: "other.md", bytes: Array(withIDs(other).utf8))) }
        return ListSet(documents)
    }

    private func text(_ lists: ListSet, _ path: String = "TODO.md") -> String {
        withShortIDs(String(decoding: lists[path]?.render() ?? [], as: UTF8.self))
    }

    /// Titles by depth, as the items read after the edit: "A", "  B", …
    private func outline(_ lists: ListSet, _ path: String = "TODO.md") -> [String] {
        guard let document = lists[path] else { return [] }
        let depths = document.nodeDepths
        return (0..<document.nodeCount).map { String(repeating: "  ", count: depths[$0]) + document.title(ofNode: $0) }
    }

    private func id(_ name: String) -> ItemID { shortID(name) }

    // MARK: - Silent loss, now refused or done right

    @Test func anItemIsNeverWrittenIntoAnOpenCodeFence() throws {
        let before = lists("- [ ] P ^p\n  - [ ] Q ^q\n    ```\n    code\n- [ ] R ^r\n")
        for command in [Command.move(id("r"), to: .under(id("q"))), .add(id: id("x"), title: "X", at: .under(id("q")))]
        {
            #expect {
                try command.apply(to: before)
            } throws: { error in
                guard case .cannotLand(_, "TODO.md", 5, "Q") = error as? EditError else { return false }
                return "\(error)".contains("the notes of \"Q\"")
            }
        }
    }

    @Test func anItemMovesUnderANestedOrderedItem() throws {
        let before = lists("1. [ ] A ^a\n   1. [ ] A1 ^a1\n2. [ ] B ^b\n")
        let after = try Command.move(id("b"), to: .under(id("a1"))).apply(to: before)
        #expect(outline(after) == ["A", "  A1", "    B"])
        #expect(text(after) == "1. [ ] A ^a\n   1. [ ] A1 ^a1\n      1. [ ] B ^b\n")
    }

    @Test func removingTheFirstOrderedItemAfterAParagraphRenumbersTheNext() throws {
        let before = lists("Intro\n1. [ ] A ^a\n2. [ ] B ^b\n")
        let removed = try Command.remove(id("a")).apply(to: before)
        #expect(text(removed) == "Intro\n1. [ ] B ^b\n")
        let moved = try Command.move(id("a"), to: .end(file: "other.md")).apply(to: before)
        #expect(outline(moved) == ["B"])
        let nested = lists("- [ ] P ^p\n  note of P\n  1. [ ] O1 ^o1\n  2. [ ] O2 ^o2\n")
        #expect(text(try Command.remove(id("o1")).apply(to: nested)) == "- [ ] P ^p\n  note of P\n  1. [ ] O2 ^o2\n")
        // A wider number gives way to a narrower one without moving the item's text.
        let wide = lists("Intro\n1. [ ] A ^a\n10. [ ] B ^b\n    - [ ] C ^c\n")
        let narrowed = try Command.remove(id("a")).apply(to: wide)
        #expect(text(narrowed) == "Intro\n1.  [ ] B ^b\n    - [ ] C ^c\n")
        // Its inverse puts the number back; where nothing needs it, nothing is renumbered.
        #expect(try Command.remove(id("a")).inverse(in: wide).apply(to: narrowed) == wide)
        let apart = lists("Intro\n\n1. [ ] A ^a\n2. [ ] B ^b\n")
        #expect(text(try Command.remove(id("a")).apply(to: apart)) == "Intro\n\n2. [ ] B ^b\n")
    }

    @Test func notesThatWouldSwallowOrInventItemsAreRefused() throws {
        let before = lists("- [ ] A ^a\n  - [ ] B ^b\n")
        for notes in ["```", "<div>", "- [ ] sub", "a\r- [ ] evil", "a\n\n1. [x] done"] {
            #expect(throws: EditError.self, "\(notes.debugDescription)") {
                try Command.setNotes(id("a"), notes).apply(to: before)
            }
            #expect(throws: EditError.self, "\(notes.debugDescription)") {
                try Command.add(id: id("x"), title: "X", notes: notes, at: .end(file: "TODO.md")).apply(to: before)
            }
        }
        // A line break of any kind is a line of the notes, written with the file's ending.
        let after = try Command.setNotes(id("a"), "one\rtwo\r\nthree").apply(to: before)
        #expect(text(after) == "- [ ] A ^a\n  one\n  two\n  three\n  - [ ] B ^b\n")
        // Plain sub-items, code that closes, quotes: notes as they are.
        let fine = try Command.setNotes(id("a"), "- plain\n```\ncode\n```\n> quote").apply(to: before)
        #expect(outline(fine) == ["A", "  B"])
        #expect(fine.items[id("a")]?.notes == "- plain\n```\ncode\n```\n> quote")
    }

    @Test func clearingNotesAboveAnOrderedChildListKeepsItAList() throws {
        let before = lists("- [ ] A ^a\n  a note\n\n  3. [ ] B ^b\n  4. [ ] C ^c\n")
        let after = try Command.setNotes(id("a"), "").apply(to: before)
        #expect(text(after) == "- [ ] A ^a\n  1. [ ] B ^b\n  4. [ ] C ^c\n")
        #expect(outline(after) == ["A", "  B", "  C"])
    }

    @Test func clearingNotesThatHoldAChildIsRefusedNotLost() throws {
        let before = lists("- [ ] A ^a\n  - plain\n      - [ ] T ^t\n- [ ] B ^b\n")
        #expect {
            try Command.setNotes(id("a"), "").apply(to: before)
        } throws: { error in
            guard case .wouldChange(_, _, .lost(title: "T"), _) = error as? EditError else { return false }
            return true
        }
    }

    // MARK: - Placement at any depth, with the list's own marker

    @Test func itemsGoUnderAndBesideNestedItems() throws {
        let before = lists("- [ ] A ^a\n  - [ ] B ^b\n    - [ ] C ^c\n- [ ] E ^e\n")
        var after = try Command.add(id: id("x"), title: "X", at: .under(id("b"))).apply(to: before)
        after = try Command.add(id: id("y"), title: "Y", at: .after(id("c"))).apply(to: after)
        after = try Command.add(id: id("z"), title: "Z", at: .under(id("c"))).apply(to: after)
        after = try Command.move(id("e"), to: .under(id("b"))).apply(to: after)
        #expect(outline(after) == ["A", "  B", "    C", "      Z", "    Y", "    X", "    E"])
    }

    @Test(arguments: [
        ("- [ ] A ^a\n    - [ ] B ^b\n", "    - [ ] X ^x\n"),
        ("- [ ] A ^a\n\t- [ ] B ^b\n", "\t- [ ] X ^x\n"),
        ("10. [ ] A ^a\n    - [ ] B ^b\n", "    - [ ] X ^x\n"),
        ("* [ ] A ^a\n  + [ ] B ^b\n", "  + [ ] X ^x\n"),
    ])
    func aNewChildIsIndentedAndMarkedAsItsSiblings(_ start: String, _ line: String) throws {
        let after = try Command.add(id: id("x"), title: "X", at: .under(id("a"))).apply(to: lists(start))
        #expect(text(after) == withShortIDs(withIDs(start)) + line)
    }

    @Test(arguments: ["1)", "*", "+", "1."])
    func anAddedOrMovedItemTakesItsNeighboursMarker(_ marker: String) throws {
        let ordered = marker.first!.isNumber
        func line(_ n: Int, _ title: String) -> String {
            (ordered ? "\(n)\(marker.last!)" : marker) + " [ ] \(title) ^\(title.lowercased())\n"
        }
        let before = lists(line(1, "A") + line(2, "B") + line(3, "C"))
        let added = try Command.add(id: id("x"), title: "X", at: .after(id("a"))).apply(to: before)
        #expect(text(added) == line(1, "A") + line(2, "X") + line(2, "B") + line(3, "C"))
        let moved = try Command.move(id("c"), to: .before(id("a"))).apply(to: before)
        // The list still starts where it started, and reads as one list.
        #expect(text(moved) == line(1, "C") + line(1, "A") + line(2, "B"))
        #expect(outline(moved) == ["C", "A", "B"])
    }

    @Test func aSwapInAnOrderedListAfterAParagraphKeepsBothItems() throws {
        let before = lists("Intro\n1. [ ] A ^a\n2. [ ] B ^b\n")
        let after = try Command.move(id("a"), to: .after(id("b"))).apply(to: before)
        #expect(text(after) == "Intro\n1. [ ] B ^b\n2. [ ] A ^a\n")
        let back = try Command.move(id("b"), to: .before(id("a"))).apply(to: before)
        #expect(text(back) == "Intro\n1. [ ] B ^b\n1. [ ] A ^a\n")
        #expect(throws: EditError.insideItself(title: "A")) {
            try Command.move(id("a"), to: .after(id("a"))).apply(to: before)
        }
        // The commit names the item that was moved, not its neighbour.
        let changes = ListSet.changes(from: before, to: after, moving: [id("a")])
        #expect(changes.map(\.phrase) == ["Move \"A\""])
    }

    @Test func aByteOrderMarkStaysFirstAndItemsGoBeforeTheFirstItem() throws {
        let before = lists("\u{FEFF}- [ ] A ^a\n- [ ] B ^b\n")
        let added = try Command.add(id: id("x"), title: "X", at: .before(id("a"))).apply(to: before)
        #expect(text(added) == "\u{FEFF}- [ ] X ^x\n- [ ] A ^a\n- [ ] B ^b\n")
        let moved = try Command.move(id("b"), to: .before(id("a"))).apply(to: before)
        #expect(text(moved) == "\u{FEFF}- [ ] B ^b\n- [ ] A ^a\n")
    }

    /// What undo gives back of a file a command made a list: its text without todosync's items.
    @Test func aFileWithoutItsIdentifiedItemsIsItsOwnText() {
        func without(_ text: String) -> String {
            let document = ListDocument(path: "notes.md", bytes: Array(withIDs(text).utf8)).removingIdentifiedItems()
            return String(decoding: document.render(), as: UTF8.self)
        }
        #expect(
            without("My notes\n- [ ] A ^a\n  its note\n  - [ ] B ^b\n- [ ] typed, no id\nMore\n")
                == "My notes\n- [ ] typed, no id\nMore\n")
        #expect(without("\u{FEFF}- [ ] A ^a\n\nText") == "\u{FEFF}\nText")
        #expect(without("Text\n- [ ] A ^a") == "Text")
        #expect(without("- [ ] A ^a\n") == "")
    }

    @Test func theLawComparesEveryItemNotOnlyTheNamedOne() {
        let before = ListDocument(path: "TODO.md", bytes: Array(withIDs("- [ ] A ^a\n- [ ] B ^b\n").utf8))
        var intended = ItemTreeCheck.Intended(before)
        #expect(ItemTreeCheck.difference(before, from: intended) == nil)
        intended.nodes[1].isDone = true
        #expect(ItemTreeCheck.difference(before, from: intended)?.0 == .altered(title: "B", what: "the box"))
        intended = ItemTreeCheck.Intended(before)
        intended.nodes[1].depth = 1
        #expect(ItemTreeCheck.difference(before, from: intended)?.0 == .regrouped(title: "B"))
        intended = ItemTreeCheck.Intended(before)
        intended.nodes.removeLast()
        #expect(ItemTreeCheck.difference(before, from: intended)?.0 == .appeared(line: 2))
    }
}
