import TestSupport
import Testing
@testable import TodoModel

@Suite struct IDFingerprintsTests {
    static func lists(ids: [ItemID]) -> ListSet {
        let text = ids.enumerated().map { "- [ ] Item \($0) <!-- id: \($1) -->\n" }.joined()
        return ListSet([ListDocument(path: "TODO.md", bytes: Array(text.utf8))])
    }

    @Test func holdsEveryIDOfTheListsAndAnswersNoForOthers() throws {
        var generator = SeededGenerator(seed: 7)
        let held = (0..<3_000).map { _ in ItemID.random(using: &generator) }
        let set = try #require(IDFingerprints(Self.lists(ids: held)))
        #expect(held.allSatisfy(set.mayContain))
        // 64-bit fingerprints: a false "maybe" among 3,000 fresh ids would be a 1 in 10^12 event.
        let others = (0..<3_000).map { _ in ItemID.random(using: &generator) }
        #expect(!others.contains(where: set.mayContain))
    }

    @Test func aRepeatedIDGivesNoSet() {
        var generator = SeededGenerator(seed: 8)
        let ids = (0..<100).map { _ in ItemID.random(using: &generator) }
        #expect(IDFingerprints(Self.lists(ids: ids + [ids[42]])) == nil)
        #expect(IDFingerprints(Self.lists(ids: [])) != nil)
    }
}
