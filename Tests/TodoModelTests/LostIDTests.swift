import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Items whose id an editor dropped or damaged get it back (docs/FORMAT.md, "Ids that come back").
@Suite struct LostIDTests {
    /// The last commit's list, identified, and the working text with every id comment taken out.
    func committed(_ text: String) -> (base: IDAssignment.Base, document: ListDocument) {
        let document = identified(text)
        return (IDAssignment.Base(lists: ListSet([document]), adopted: [:]), document)
    }

    func assign(_ working: String, base: IDAssignment.Base, seed: UInt64 = 1) -> IDAssignment.Result {
        var generator = SeededGenerator(seed: seed)
        return IDAssignment.assign(
            ListSet([ListDocument(path: "TODO.md", bytes: Array(working.utf8))]), base: base, using: &generator)
    }

    func phrases(_ base: IDAssignment.Base, _ result: IDAssignment.Result) -> [String] {
        ListSet.changes(from: base.lists, to: result.lists).map(\.phrase)
    }

    @Test func aBufferFromBeforeTheIdsGetsEveryIdBackAndTheCommitSaysWhatChanged() {
        let (base, document) = committed("- [ ] Renew passport\n- [ ] Water plants\n- [ ] Call Bob\n- [ ] Pay rent\n")
        // The editor's buffer had no ids; in it one item was checked, one renamed, one added.
        let result = assign(
            "- [ ] Renew passport\n- [x] Water plants\n- [ ] Call Alice\n- [ ] Pay rent\n- [ ] Buy stamps\n", base: base
        )
        let ids = result.lists["TODO.md"]!.nodeIDs
        #expect(Array(ids.prefix(4)) == document.nodeIDs)
        #expect(ids[4] != nil && !document.nodeIDs.contains(ids[4]))
        #expect(
            phrases(base, result) == [
                "Check \"Water plants\"", "Rename \"Call Bob\" to \"Call Alice\"", "Add \"Buy stamps\"",
            ])
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.line == 1)
        #expect(result.diagnostics.first?.message.contains("4 items had lost their id comments") == true)
    }

    @Test func itemsWithTheSameTitleComeBackInOrder() {
        let (base, document) = committed("- [ ] Water plants\n- [x] Water plants\n")
        let result = assign("- [ ] Water plants\n- [x] Water plants\n", base: base)
        #expect(result.lists["TODO.md"]!.nodeIDs == document.nodeIDs)
        #expect(phrases(base, result).isEmpty)
    }

    @Test func anItemMovedToAnotherFileWithoutItsIdIsStillTheSameItem() {
        let (base, document) = committed("- [ ] Call Bob\n- [ ] Pay rent\n")
        let working = ListSet([
            ListDocument(path: "TODO.md", bytes: Array(document.text.split(separator: "\n")[1].utf8) + [10]),
            ListDocument(path: "work.md", bytes: Array("- [ ] Call Bob\n".utf8)),
        ])
        var generator = SeededGenerator(seed: 2)
        let result = IDAssignment.assign(working, base: base, using: &generator)
        #expect(result.lists["work.md"]?.nodeIDs == [document.nodeIDs[0]])
        #expect(
            ListSet.changes(from: base.lists, to: result.lists).map(\.phrase) == [
                "Move \"Call Bob\" from TODO.md to work.md"
            ])
    }

    @Test func aNewLineWhereARemovedOneStoodIsANewItemWhenNoIdsWereDropped() {
        let (base, document) = committed("- [ ] Buy milk\n- [x] Old thing\n")
        // Ids intact; the done item deleted and a new one typed in its place.
        let kept = String(document.text.split(separator: "\n")[0])
        let result = assign(kept + "\n- [ ] New thing\n", base: base)
        #expect(phrases(base, result) == ["Add \"New thing\"", "Remove \"Old thing\""])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func aDamagedIdWithItsTitleChangedIsMatchedByItsDigits() throws {
        let (base, document) = committed("- [ ] Buy milk\n- [ ] Call Bob\n")
        let bob = try #require(document.nodeIDs[1])
        var digits = bob.description
        digits.remove(at: digits.index(digits.startIndex, offsetBy: 10))  // one hex digit deleted
        let working = document.text.replacingAll(
            "Call Bob <!-- id: \(bob) -->", with: "Call Alice <!-- id: \(digits) -->")
        let result = assign(working, base: base)
        #expect(result.lists["TODO.md"]!.nodeIDs == document.nodeIDs)
        #expect(phrases(base, result) == ["Rename \"Call Bob\" to \"Call Alice\""])
        #expect(result.diagnostics.map(\.message).first?.contains("repaired") == true)
    }

    @Test func aDamagedIdThatCouldBeEitherOfTwoIsMatchedByTitleOrNotAtAll() {
        // Two missing ids both two edits from what is left: the digits decide nothing.
        let one = ItemID(parsing: "00000000-0000-0000-0000-0000000000aa")!
        let two = ItemID(parsing: "00000000-0000-0000-0000-0000000000bb")!
        let base = IDAssignment.Base(
            lists: ListSet([
                ListDocument(
                    path: "TODO.md", bytes: Array("- [ ] a <!-- id: \(one) -->\n- [ ] b <!-- id: \(two) -->\n".utf8))
            ]), adopted: [:])
        let result = assign("- [ ] b <!- id: 00000000-0000-0000-0000-000000000000 -->\n", base: base)
        #expect(result.lists["TODO.md"]!.nodeIDs == [two])
        let fresh = assign("- [ ] c <!- id: 00000000-0000-0000-0000-000000000000 -->\n", base: base)
        #expect(fresh.lists["TODO.md"]!.nodeIDs != [one] && fresh.lists["TODO.md"]!.nodeIDs != [two])
    }

    @Test func withinTwoEditsAgreesWithTheTextbookDistance() async {
        let symbols = Gen.int(in: 0...2).map { UInt8($0) }.array(of: 0...7)
        await propertyCheck(count: 3000, input: symbols, symbols) { a, b in
            #expect(LostIDMatch.withinTwoEdits(a, b) == (levenshtein(a, b) <= 2), "\(a) \(b)")
        }
    }

    /// The plain dynamic-programming edit distance.
    private func levenshtein(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var next = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                next[j] = min(row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1), row[j] + 1, next[j - 1] + 1)
            }
            row = next
        }
        return row[b.count]
    }
}
