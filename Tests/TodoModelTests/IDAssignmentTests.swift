import TestSupport
import Testing
@testable import TodoModel

@Suite struct IDAssignmentTests {
    func assign(_ working: String, base: String? = nil, commit: String = "c1", seed: UInt64 = 1) -> IDAssignment.Result
    {
        let baseSet =
            base.map {
                IDAssignment.resolveBase(
                    ListSet([ListDocument(path: "TODO.md", bytes: Array($0.utf8))]), commit: commit)
            } ?? .empty
        var generator = SeededGenerator(seed: seed)
        return IDAssignment.assign(
            ListSet([ListDocument(path: "TODO.md", bytes: Array(working.utf8))]), base: baseSet, using: &generator)
    }

    @Test func itemsCommittedWithoutIdsGetTheSameIdsOnEveryClone() {
        let committed = "- [ ] a\n- [ ] b\n"
        let one = assign(committed, base: committed, seed: 1).lists.items.keys
        let two = assign(committed, base: committed, seed: 2).lists.items.keys
        #expect(Array(one) == Array(two))
        // Named from the commit that introduced the line, the path, the line and its copy number.
        #expect(one.first == ItemID.named("c1\nTODO.md\n- [ ] a\n0"))
        // Another commit derives other ids.
        #expect(Array(assign(committed, base: committed, commit: "c2").lists.items.keys) != Array(one))
    }

    @Test func identicalLinesWithoutIdsAreToldApartByTheirCopyNumber() {
        let lines = IDAssignment.unidentified(
            ListSet([ListDocument(path: "TODO.md", bytes: Array("- [ ] a\n- [ ] b\n- [ ] a\n".utf8))])
        ).lines
        #expect(lines.map(\.copy) == [0, 0, 1])
        let ids = assign("- [ ] a\n- [ ] b\n- [ ] a\n", base: "- [ ] a\n- [ ] b\n- [ ] a\n").lists.items.keys
        #expect(Set(ids).count == 3)
    }

    @Test func adoptedItemsAreMatchedByTitleWhenNewOnesAreTypedAbove() {
        let result = assign("- [ ] new\n- [ ] a\n- [ ] b\n", base: "- [ ] a\n- [ ] b\n")
        let ids = result.lists.items.values.map(\.id)
        #expect(ids[1] == ItemID.named("c1\nTODO.md\n- [ ] a\n0"))
        #expect(ids[2] == ItemID.named("c1\nTODO.md\n- [ ] b\n0"))
        #expect(ids[0] != ids[1])
        let changes = ListSet.changes(
            from: IDAssignment.resolveBase(
                ListSet([ListDocument(path: "TODO.md", bytes: Array("- [ ] a\n- [ ] b\n".utf8))]), commit: "c1"
            ).lists, to: result.lists)
        #expect(changes.map(\.phrase) == ["Add \"new\""])
    }

    /// Lists holding exactly the last commit's ids in the same places (titles, boxes, notes
    /// edited) need nothing; the same ids where the commit held a repeated id, or a copy
    /// pasted in place of an item, still get it sorted out.
    @Test func theLastCommitsIdsInTheirPlacesNeedNothing() throws {
        let committed = identified("- [ ] a\n  - [ ] b\n- [ ] c\n")
        let edited =
            committed.text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("- [ ] a ") ? "- [x] a renamed" + $0.dropFirst(7) : String($0) }.joined(separator: "\n")
            + "  notes\n"
        var generator = SeededGenerator(seed: 5)
        let base = IDAssignment.Base(lists: ListSet([committed]), adopted: [:])
        let result = IDAssignment.assign(
            ListSet([ListDocument(path: "TODO.md", bytes: Array(edited.utf8))]), base: base, using: &generator)
        #expect(result.idsWritten == 0 && result.changedPaths.isEmpty && result.diagnostics.isEmpty)
        #expect(result.lists.documents.values[0].render() == Array(edited.utf8))

        // The commit held "a"'s id twice (its second copy read as derived): in place, the copy
        // is told apart all the same.
        let lines = committed.text.split(separator: "\n")
        let twice = [lines[0], lines[1], lines[0]].joined(separator: "\n") + "\n"
        let repeated = ListSet([ListDocument(path: "TODO.md", bytes: Array(twice.utf8))])
        let repeatedBase = IDAssignment.resolveBase(repeated, commit: "base")
        let sorted = IDAssignment.assign(repeated, base: repeatedBase, using: &generator)
        #expect(sorted.idsWritten == 1)
        #expect(Set(sorted.lists.items.values.map(\.id)).count == 3)
    }

    @Test func aPastedCopyGetsANewIdAndTheCommittedItemKeepsItsOwn() throws {
        let committed = identified("- [ ] a\n- [ ] b\n")
        let aID = committed.items[0].id
        let aLine = committed.text.split(separator: "\n")[0]
        // The copy is pasted above the original and then retitled.
        let working = aLine.replacingOccurrences("- [ ] a", "- [ ] a copy") + "\n" + committed.text
        let base = IDAssignment.Base(lists: ListSet([committed]), adopted: [:])
        var generator = SeededGenerator(seed: 3)
        let result = IDAssignment.assign(
            ListSet([ListDocument(path: "TODO.md", bytes: Array(working.utf8))]), base: base, using: &generator)
        let items = result.lists.items.values
        #expect(items.count == 3)
        #expect(items.first { $0.title == "a" }?.id == aID)
        #expect(items.first { $0.title == "a copy" }?.id != aID)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics[0].line == 1)
    }

    @Test func aDamagedIdIsRepairedFromTheLastCommit() {
        let committed = identified("- [ ] a\n- [ ] b\n")
        let bID = committed.items[1].id
        let damaged = committed.text.replacingAll("<!-- id: \(bID)", with: "<!- id: \(bID.description.dropLast())")
        let base = IDAssignment.Base(lists: ListSet([committed]), adopted: [:])
        var generator = SeededGenerator(seed: 3)
        let result = IDAssignment.assign(
            ListSet([ListDocument(path: "TODO.md", bytes: Array(damaged.utf8))]), base: base, using: &generator)
        #expect(result.lists["TODO.md"]!.text == committed.text)
        #expect(result.diagnostics.map(\.line) == [2])
        #expect(result.diagnostics[0].message.contains("repaired"))
    }

    @Test func aDamagedIdWithNoMatchGetsAFreshId() {
        let result = assign("- [ ] z <!-- id: 0F6C2A4E-8D1B -->\n")
        #expect(result.lists.items.count == 1)
        #expect(result.lists.items.values.first?.title == "z")
        #expect(result.diagnostics.first?.message.contains("new id") == true)
    }

    @Test func oneIdNeverEndsUpOnTwoItemsAcrossFiles() {
        let committed = identified("- [ ] a\n")
        let line = committed.text
        let working = ListSet([
            ListDocument(path: "TODO.md", bytes: Array(line.utf8)),
            ListDocument(path: "other.md", bytes: Array(line.utf8)),
        ])
        var generator = SeededGenerator(seed: 9)
        let result = IDAssignment.assign(
            working, base: .init(lists: ListSet([committed]), adopted: [:]), using: &generator)
        #expect(result.lists.items.count == 2)
        #expect(result.lists["TODO.md"]?.items.first?.id == committed.items[0].id)
    }
}

extension Substring {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        String(self).replacingAll(target, with: replacement)
    }
}
