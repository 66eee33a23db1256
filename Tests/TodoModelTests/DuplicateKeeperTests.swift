import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Which copy of a pasted id keeps it: one rule for a local commit and a commit read in a sync
/// (docs/FORMAT.md, "Which id an item gets").
@Suite struct DuplicateKeeperTests {
    /// The titles of the items that keep the parent version's ids, after a local commit and
    /// after reading the same text as a commit, which must agree.
    func keepers(parent: String, pasted: (ListDocument) -> String) -> [String] {
        let before = identified(parent)
        let text = pasted(before)
        let working = ListSet([ListDocument(path: "TODO.md", bytes: Array(text.utf8))])
        var generator = SeededGenerator(seed: 5)
        let local = IDAssignment.assign(
            working, base: IDAssignment.Base(lists: ListSet([before]), adopted: [:]), using: &generator
        ).lists
        let read = IDAssignment.resolveBase(
            working, IDAssignment.unidentified(working, parentVersion: ListSet([before]))
        ) { _ in "c2" }.lists
        func kept(_ lists: ListSet) -> [String] {
            lists.items.values.filter { before.nodeIDs.contains($0.id) }.map(\.title)
        }
        #expect(kept(local) == kept(read), "a local commit and a sync disagree")
        return kept(local)
    }

    func line(_ document: ListDocument, _ index: Int) -> String { String(document.text.split(separator: "\n")[index]) }

    @Test func theOriginalKeepsItsIdWhenTheCopyAboveItIsRetitled() {
        let kept = keepers(parent: "- [ ] Call Bob\n- [ ] Buy milk\n") { document in
            line(document, 0).replacingAll("Call Bob", with: "Call Alice") + "\n" + document.text
        }
        #expect(kept == ["Call Bob", "Buy milk"])
    }

    @Test func anIdenticalCopyPastedElsewhereLeavesTheIdWhereItStood() throws {
        // The copy stands first in the file, but the original stands between its old neighbours.
        let before = identified("- [ ] Plan\n- [ ] Call Bob\n- [ ] Buy milk\n")
        let text = line(before, 1) + "\n" + before.text
        let working = ListSet([ListDocument(path: "TODO.md", bytes: Array(text.utf8))])
        let read = IDAssignment.resolveBase(
            working, IDAssignment.unidentified(working, parentVersion: ListSet([before]))
        ) { _ in "c2" }.lists
        let bob = try #require(before.nodeIDs[1])
        #expect(read["TODO.md"]!.nodeIDs[2] == bob)
        #expect(read["TODO.md"]!.nodeIDs[0] != bob)
        // Without a parent version, the earliest copy keeps it.
        let blind = IDAssignment.resolveBase(working, commit: "c2").lists
        #expect(blind["TODO.md"]!.nodeIDs[0] == bob)
    }

    @Test func theCopyWithTheOriginalsNotesAndParentKeepsIt() throws {
        let before = identified("- [ ] Trip\n  - [ ] Book flights\n    from Oslo\n- [ ] Work\n")
        let flights = try #require(before.nodeIDs[1])
        // A bare copy of the child pasted as a top-level item above, with no notes.
        let text = line(before, 1).trimmingPrefix("  ") + "\n" + before.text
        let working = ListSet([ListDocument(path: "TODO.md", bytes: Array(String(text).utf8))])
        let read = IDAssignment.resolveBase(
            working, IDAssignment.unidentified(working, parentVersion: ListSet([before]))
        ) { _ in "c2" }.lists
        #expect(read["TODO.md"]!.nodeIDs[2] == flights)
    }

    /// A random item's line pasted at a random place, retitled or not: a local commit and a
    /// commit read in a sync give the id to the same copy, and exactly one copy keeps it.
    @Test func aLocalCommitAndASyncAlwaysAgree() async {
        await propertyCheck(count: 500, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let before = identified(text)
            guard before.nodeCount > 0 else { return }
            var generator = SeededGenerator(seed: UInt64(seed))
            var lines = before.lines
            var copy = String(
                decoding: lines[before.nodeLine(Int.random(in: 0..<before.nodeCount, using: &generator))].content,
                as: UTF8.self)
            if Bool.random(using: &generator) { copy = copy.replacingAll("- [", with: "- [ ] copy of [") }
            if let last = lines.indices.last, lines[last].ending == .none { lines[last].ending = .lf }
            let at = Int.random(in: 0...lines.count, using: &generator)
            lines.insert(ListLine(content: Array(copy.utf8)[...], ending: .lf), at: at)
            let working = ListSet([ListDocument(path: "TODO.md", bytes: ListLine.join(lines))])
            // Only where the pasted line is an item and every item stays one (pasted into a
            // fence or HTML block, a line is text there, or changes what is around it).
            let expected = Set((0..<before.nodeCount).map { before.nodeLine($0) }.map { $0 >= at ? $0 + 1 : $0 } + [at])
            guard Set((0..<working["TODO.md"]!.nodeCount).map { working["TODO.md"]!.nodeLine($0) }) == expected else {
                return
            }
            var assignGenerator = SeededGenerator(seed: 1)
            let local = IDAssignment.assign(
                working, base: IDAssignment.Base(lists: ListSet([before]), adopted: [:]), using: &assignGenerator
            ).lists
            let read = IDAssignment.resolveBase(
                working, IDAssignment.unidentified(working, parentVersion: ListSet([before]))
            ) { _ in "c2" }.lists
            let ids = Set(before.nodeIDs.compactMap { $0 })
            let localKept = local["TODO.md"]!.nodeIDs.map { $0.map(ids.contains) ?? false }
            let readKept = read["TODO.md"]!.nodeIDs.map { $0.map(ids.contains) ?? false }
            #expect(localKept == readKept, "\(String(decoding: ListLine.join(lines), as: UTF8.self))")
            #expect(local["TODO.md"]!.nodeIDs.compactMap { $0 }.filter(ids.contains).count == ids.count)
        }
    }
}
