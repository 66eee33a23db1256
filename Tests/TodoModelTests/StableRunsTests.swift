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

    static func folded(
        _ base: String, _ ours: String, _ theirs: String
    ) -> (folded: ListMerge.Outcome, whole: ListMerge.Outcome, runs: Int) {
        let (b, o, t) = (lists(["TODO.md": base]), lists(["TODO.md": ours]), lists(["TODO.md": theirs]))
        let runs = StableRuns(base: b, ours: o, theirs: t)?.runs.count ?? 0
        return (
            ListMerge.mergeItemByItem(base: b, ours: o, theirs: t),
            ListMerge.mergeItemByItem(base: b, ours: o, theirs: t, folding: false), runs
        )
    }

    @Test func editsSpreadOverALongListFoldTheRestAndMergeAlike() {
        let base = Self.bigList(200)
        let ours = base.replacingAll("Item 17 ^", with: "Item 17 renamed ^").replacingAll(
            "- [ ] Item 150 ^", with: "- [x] Item 150 ^"
        )
        .replacingAll("  note 99\n", with: "  note 99\n  more on 99\n")
        let theirs = base.replacingAll("- [ ] Item 60 ^", with: "- [x] Item 60 ^").replacingAll(
            "- [ ] Item 61 ^i61\n", with: ""
        )
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
        // A side that reorders base's items keeps that file whole: no placeholder can move.
        #expect(result.runs == 0)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
    }

    @Test func runsEndingInABlankLineFoldAndMergeAlike() throws {
        // Every item followed by a blank line: each run ends where text would not continue it,
        // which its placeholder must show the merge (an empty line after the item line).
        let base = (0..<40).map { "- [ ] Item \($0) ^i\($0)\n\n" }.joined() + "- [ ] Last ^last\n"
        let ours = base.replacingAll("Item 5 ^", with: "Item 5 edited ^").replacingAll("- [ ] Last ^last\n", with: "")
        let theirs = base.replacingAll("- [ ] Item 30 ^", with: "- [x] Item 30 ^") + "Theirs' prose after Last.\n"
        let (b, o, t) = (lists(["TODO.md": base]), lists(["TODO.md": ours]), lists(["TODO.md": theirs]))
        let runs = try #require(StableRuns(base: b, ours: o, theirs: t))
        #expect(runs.runs.allSatisfy { $0.placeholder.count == 2 && $0.placeholder[1].content.isEmpty })
        let unfolded = try #require(ListMerge.mergeFolded(base: b, ours: o, theirs: t))
        let whole = ListMerge.mergeItemByItem(base: b, ours: o, theirs: t, folding: false)
        #expect(unfolded.lists.texts == whole.lists.texts)
        #expect(unfolded.reports.map(\.description) == whole.reports.map(\.description))
    }

    @Test func crlfFilesAndFilesWithoutAFinalNewlineFoldAlike() {
        let base = Self.bigList(60).replacingAll("\n", with: "\r\n") + "- [ ] Last ^last"
        let ours = base.replacingAll("Item 5 ^", with: "Item 5 edited ^")
        let theirs = base.replacingAll("Item 44 ^", with: "Item 44 edited ^") + "\r\n- [ ] After last ^after"
        let result = Self.folded(base, ours, theirs)
        #expect(result.runs >= 1)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
    }

    @Test func aRunEndingTheFileWithoutANewlineUnfoldsLastAsItWas() throws {
        let base = Self.bigList(60) + "- [ ] Last ^last"
        let ours = base.replacingAll("Item 5 ^", with: "Item 5 edited ^")
        let theirs = base.replacingAll("Item 44 ^", with: "Item 44 edited ^")
        let (b, o, t) = (lists(["TODO.md": base]), lists(["TODO.md": ours]), lists(["TODO.md": theirs]))
        // The folded merge's own result, not the fallback to the whole merge.
        let unfolded = try #require(ListMerge.mergeFolded(base: b, ours: o, theirs: t)).lists
        let whole = ListMerge.mergeItemByItem(base: b, ours: o, theirs: t, folding: false)
        #expect(unfolded.texts == whole.lists.texts)
        #expect(unfolded["TODO.md"]!.lines.last?.ending == LineEnding.none)
        #expect(
            withShortIDs(String(decoding: unfolded["TODO.md"]!.render(), as: UTF8.self)).hasSuffix(
                "- [ ] Item 59 ^i59\n- [ ] Last ^last"))
    }

    @Test func aPastedCopyOfAnUntouchedItemIsNotFoldedAway() {
        // Theirs pastes item 30 (id and all) at the end, with a note: its block in the middle
        // must stay visible to the merge, which keeps the copy as a line and its note with
        // the first item 30.
        let base = Self.bigList(60)
        let ours = base.replacingAll("Item 3 ^", with: "Item 3 edited ^")
        let theirs = base + "- [ ] Item 30 ^i30\n  pasted note\n"
        // Theirs shows the folded id twice: the lists are merged whole.
        #expect(
            StableRuns(
                base: lists(["TODO.md": base]), ours: lists(["TODO.md": ours]), theirs: lists(["TODO.md": theirs]))
                == nil)
        let result = Self.folded(base, ours, theirs)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
    }

    @Test func aVersionWhoseBytesReadBackOtherwiseIsNotFolded() throws {
        // Removing an item line by line can leave a lone CR ending before an empty line: those
        // bytes read back as one CRLF line. Folding re-reads a version's bytes, so it must not
        // fold that file (the whole merge keeps both lines).
        let base = lists(["TODO.md": "Intro\r- [ ] Milk ^m\n\n" + Self.bigList(30)])
        var ours = base
        var document = try #require(ours["TODO.md"])
        try document.remove(shortID("m"))
        ours["TODO.md"] = document
        #expect(String(decoding: document.render(), as: UTF8.self).hasPrefix("Intro\r\n# List"))
        var theirs = base
        document = try #require(theirs["TODO.md"])
        try document.update(shortID("i20"), isDone: true)
        theirs["TODO.md"] = document
        #expect(StableRuns(base: base, ours: ours, theirs: theirs) == nil)
        let folded = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs)
        let whole = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs, folding: false)
        #expect(folded.lists.texts == whole.lists.texts)
    }

    @Test func anItemIndentedPastThePlaceholdersMarkerIsNotTakenAsItsChild() {
        // `  - [ ] Nested` is no child of `1. [ ] A` (content at column 3), but would be of a
        // `- [ ]` placeholder standing for A (column 2): that file must not be folded.
        let base = "- [ ] Milk ^m\n1. [ ] A ^a\n1. [ ] B ^b\n  - [ ] Nested ^n\n- [ ] End ^e\n"
        let ours = "- [x] Milk ^m\n1. [ ] A ^a\n1. [ ] B ^b\n- [ ] End ^e\n"
        let theirs = "- [ ] Milk ^m\n1. [ ] B ^b\n1. [ ] A ^a\n  - [ ] Nested ^n\n- [ ] End ^e\n"
        let result = Self.folded(base, ours, theirs)
        #expect(result.runs == 0)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
        #expect(result.folded.reports.isEmpty)
        let text = withShortIDs(String(decoding: result.folded.lists["TODO.md"]!.render(), as: UTF8.self))
        #expect(text == "- [x] Milk ^m\n1. [ ] B ^b\n1. [ ] A ^a\n- [ ] End ^e\n")
    }

    @Test func textTheMergeBringsRightAfterARunEndingInAHeadingStaysAsItWas() {
        // Ours removes X and the lines after it, theirs adds a line among those: that line
        // then follows the run, whose last line is a heading. After an item line the merge
        // would add a blank line (lest the text continue the item); after the heading it must
        // not: the placeholder standing for the run answers as the heading does.
        let tail = "## Later\n- [ ] X ^x\n\nProse about X.\n- [ ] Last ^last\n"
        let base = Self.bigList(30) + tail
        let ours = base.replacingAll("- [ ] X ^x\n\nProse about X.\n", with: "").replacingAll(
            "Item 2 ^", with: "Item 2 edited ^")
        let theirs = base.replacingAll("\nProse about X.", with: "\nTheirs' new line.\nProse about X.")
            .replacingAll("- [ ] Item 5 ^", with: "- [x] Item 5 ^")
        let result = Self.folded(base, ours, theirs)
        #expect(result.runs >= 1)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
        let text = withShortIDs(String(decoding: result.folded.lists["TODO.md"]!.render(), as: UTF8.self))
        #expect(text.hasSuffix("- [ ] Item 29 ^i29\n## Later\nTheirs' new line.\n- [ ] Last ^last\n"))
    }

    @Test(arguments: mergeCases)
    func theTableMergesAlikeFoldedOrNot(_ example: MergeCase) {
        let result = Self.folded(example.base, example.ours, example.theirs)
        #expect(result.folded.lists.texts == result.whole.lists.texts)
        #expect(result.folded.reports.map(\.description) == result.whole.reports.map(\.description))
    }

    @Test func randomEditsMergeAlikeFoldedOrNot() async {
        await propertyCheck(count: 300, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            Self.expectAlikeFoldedOrNot(text, seed: seed)
        }
    }

    /// Inputs the property above once failed on (found by running it 20,000 times), kept.
    static let foundByThePropertyTest: [(String, Int)] = [
        // A lone CR ending before an empty line (`aVersionWhoseBytesReadBackOtherwiseIsNotFolded`).
        ("    indented code\r- [ ] Buy milk\n    indented code", 512569),
        // A blank line added after a different item on each side (a merge case of the table).
        ("", 117026),
        // `  - [ ] nested` under a run's last item `1. [ ] first` (`anItemIndentedPast...`).
        ("- [ ] Buy milk\n1. [ ] first\n1. [ ] first\n  - [ ] nested\n```\n", 714822),
        ("\t- [x] tabbed\n1. [ ] first\n2) [X] second- [ ] Buy milk\n  - [ ] nested\n- [ ] Buy milk\n```\n", 824394),
    ]

    @Test(arguments: foundByThePropertyTest)
    func casesThePropertyTestFoundMergeAlikeFoldedOrNot(_ text: String, _ seed: Int) {
        Self.expectAlikeFoldedOrNot(text, seed: seed)
    }

    @Test func thePropertysInputsMostlyFold() {
        // The property above proves something only where folding happens: most of its inputs
        // (three random edits a side among fourteen items) must fold, not fall back.
        var generator = SeededGenerator(seed: 7)
        let seeds = (0..<200).map { _ in Int.random(in: 0...1_000_000, using: &generator) }
        let folded = seeds.filter { seed in
            let (base, ours, theirs) = Self.propertyInput("- [ ] Buy milk\n", seed: seed)
            return ListMerge.mergeFolded(base: base, ours: ours, theirs: theirs) != nil
        }
        #expect(folded.count >= 100, "\(folded.count) of 200 folded")
    }

    static func propertyInput(_ text: String, seed: Int) -> (base: ListSet, ours: ListSet, theirs: ListSet) {
        MergeLawTests.twoSides(text + Self.bigList(12).replacingAll("^", with: "^r\(seed % 7)"), seed: seed)
    }

    static func expectAlikeFoldedOrNot(_ text: String, seed: Int) {
        let (base, ours, theirs) = Self.propertyInput(text, seed: seed)
        let folded = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs)
        let whole = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs, folding: false)
        #expect(folded.lists.texts == whole.lists.texts)
        #expect(folded.reports.map(\.description) == whole.reports.map(\.description))
    }
}
