import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Folding untouched runs of items away before merging (`StableRuns`) must not change what
/// the merge gives: the folded merge is checked against the merge of the whole lists.
@Suite struct StableRunsTests {
    /// A list of `count` top-level items (every third with a note, every fifth with a child),
    /// a heading every ten.
    static func bigList(_ count: Int) -> String {
        var text = "# List\n\n"
        for n in 0..<count {
            if n % 10 == 0 { text += "\n## Part \(n / 10)\n\n" }
            text += "- [ ] Item \(n) ^i\(n)\n"
            if n % 3 == 0 { text += "  note \(n)\n" }
            if n % 5 == 0 { text += "  - [ ] Child \(n) ^c\(n)\n" }
        }
        return text
    }

    static func folded(_ base: String, _ ours: String, _ theirs: String) -> (folded: ListMerge.Outcome, whole: ListMerge.Outcome, runs: Int) {
        let (b, o, t) = (lists(["TODO.md": base]), lists(["TODO.md": ours]), lists(["TODO.md": theirs]))
        let runs = StableRuns(base: b, ours: o, theirs: t)?.runs.count ?? 0
        return (ListMerge.mergeItemByItem(base: b, ours: o, theirs: t), ListMerge.mergeItemByItem(base: b, ours: o, theirs: t, folding: false), runs)
    }

    @Test func editsSpreadOverALongListFoldTheRestAndMergeAlike() {
        let base = Self.bigList(200)
        let ours = base.replacingAll("Item 17 ^", with: "Item 17 renamed ^").replacingAll("- [ ] Item 150 ^", with: "- [x] Item 150 ^")
            .replacingAll("  note 99\n", with: "  note 99\n  more on 99\n")
        let theirs = base.replacingAll("- [ ] Item 60 ^", with: "- [x] Item 60 ^").replacingAll("- [ ] Item 61 ^i61\n", with: "")
            .replacingAll("- [ ] Item 120 ^i120\n", with: "- [ ] Item 120 ^i120\n- [ ] Added after 120 ^new\n")
        let result = Self.folded(base, ours, theirs)
        #expect(result.runs >= 4)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
        let text = withShortIDs(String(decoding: result.folded.lists["TODO.md"]!.render(), as: UTF8.self))
        #expect(text.contains("- [ ] Item 17 renamed ^i17\n") && text.contains("- [x] Item 150 ^i150\n"))
        #expect(text.contains("- [x] Item 60 ^i60\n") && !text.contains("Item 61 "))
        #expect(text.contains("- [ ] Item 120 ^i120\n- [ ] Added after 120 ^new\n") && text.contains("  more on 99\n"))
    }

    @Test func itemsMovedAcrossARunAreNotFoldedWrongly() {
        // Ours swaps the first and last items around a long untouched middle: the placeholder
        // could look moved; the result must equal the unfolded merge.
        let base = Self.bigList(40)
        var lines = base.components(separatedBy: "\n")
        let first = lines.firstIndex { $0.hasPrefix("- [ ] Item 0 ") }!
        let last = lines.firstIndex { $0.hasPrefix("- [ ] Item 39 ") }!
        lines.swapAt(first, last)
        let ours = lines.joined(separator: "\n")
        let theirs = base.replacingAll("- [ ] Item 20 ^", with: "- [x] Item 20 ^")
        let result = Self.folded(base, ours, theirs)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
    }

    @Test func crlfFilesAndFilesWithoutAFinalNewlineFoldAlike() {
        let base = Self.bigList(60).replacingAll("\n", with: "\r\n") + "- [ ] Last ^last"
        let ours = base.replacingAll("Item 5 ^", with: "Item 5 edited ^")
        let theirs = base.replacingAll("Item 44 ^", with: "Item 44 edited ^") + "\r\n- [ ] After last ^after"
        let result = Self.folded(base, ours, theirs)
        #expect(result.runs >= 1)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
    }

    @Test func aPastedCopyOfAnUntouchedItemIsNotFoldedAway() {
        // Theirs pastes item 30 (id and all) at the end: its block in the middle must stay
        // visible to the merge, which gives the copy a fresh id or keeps it as a line.
        let base = Self.bigList(60)
        let ours = base.replacingAll("Item 3 ^", with: "Item 3 edited ^")
        let theirs = base + "- [ ] Item 30 ^i30\n"
        #expect(StableRuns(base: lists(["TODO.md": base]), ours: lists(["TODO.md": ours]), theirs: lists(["TODO.md": theirs])) == nil)
        let result = Self.folded(base, ours, theirs)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
    }

    @Test(arguments: mergeCases)
    func theTableMergesAlikeFoldedOrNot(_ example: MergeCase) {
        let result = Self.folded(example.base, example.ours, example.theirs)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
        #expect(result.folded.reports.map(\.description) == result.whole.reports.map(\.description))
    }

    @Test func randomEditsMergeAlikeFoldedOrNot() async {
        await propertyCheck(count: 300, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let (base, ours, theirs) = MergeLawTests.twoSides(text + Self.bigList(12).replacingAll("^", with: "^r\(seed % 7)"), seed: seed)
            let folded = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs)
            let whole = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs, folding: false)
            #expect(folded.lists.texts == whole.lists.texts)
            #expect(folded.reports.map(\.description) == whole.reports.map(\.description))
        }
    }
}
