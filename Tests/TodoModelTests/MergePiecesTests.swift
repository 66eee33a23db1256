import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Merging large files in pieces (`MergePieces`) must give what the merge of the whole lists
/// gives, or nothing (then the lists are merged whole): checked with pieces of a few items.
@Suite struct MergePiecesTests {
    /// The merge in pieces of `pieceItems` items, and the merge of the whole lists, unfolded.
    static func inPieces(_ base: String, _ ours: String, _ theirs: String, pieceItems: Int) -> (pieces: ListMerge.Outcome?, whole: ListMerge.Outcome) {
        let (b, o, t) = (lists(["TODO.md": base]), lists(["TODO.md": ours]), lists(["TODO.md": theirs]))
        return (MergePieces.merge(base: b, ours: o, theirs: t, pieceItems: pieceItems), ListMerge.mergeItemByItem(base: b, ours: o, theirs: t, folding: false))
    }

    static func text(_ outcome: ListMerge.Outcome) -> String {
        withShortIDs(String(decoding: outcome.lists["TODO.md"]!.render(), as: UTF8.self))
    }

    @Test func editsInManyPiecesMergeAsTheWholeListsDo() throws {
        let base = StableRunsTests.bigList(200)
        let ours = base.replacingAll("Item 17 ^", with: "Item 17 renamed ^").replacingAll("- [ ] Item 150 ^", with: "- [x] Item 150 ^")
            .replacingAll("  note 99\n", with: "  note 99\n  more on 99\n").replacingAll("- [ ] Item 42 ^i42\n", with: "")
        let theirs = base.replacingAll("- [ ] Item 60 ^", with: "- [x] Item 60 ^").replacingAll("- [ ] Item 61 ^i61\n", with: "")
            .replacingAll("- [ ] Item 120 ^i120\n", with: "- [ ] Item 120 ^i120\n- [ ] Added after 120 ^new\n")
            .replacingAll("## Part 7\n", with: "## Part seven\n")
        for pieceItems in [1, 7, 30] {
            let result = Self.inPieces(base, ours, theirs, pieceItems: pieceItems)
            let pieces = try #require(result.pieces, "pieces of \(pieceItems)")
            #expect(pieces.lists.texts == result.whole.lists.texts)
            #expect(pieces.reports == result.whole.reports)
            // The merged document reads as a parse of its bytes does.
            let merged = try #require(pieces.lists["TODO.md"])
            #expect(merged.items == ListDocument(path: "TODO.md", bytes: merged.render()).items)
        }
        let text = Self.text(Self.inPieces(base, ours, theirs, pieceItems: 7).whole)
        #expect(text.contains("- [ ] Item 17 renamed ^i17\n") && text.contains("- [x] Item 150 ^i150\n") && text.contains("## Part seven\n"))
        #expect(text.contains("- [ ] Item 120 ^i120\n- [ ] Added after 120 ^new\n") && !text.contains("Item 61 ") && !text.contains("Item 42 "))
    }

    @Test func cutsComeOnlyBeforeItemsHeldAlikeAndInStep() throws {
        let base = StableRunsTests.bigList(40)
        func cuts(_ ours: String, _ theirs: String) throws -> [[Int]] {
            let documents = try [base, ours, theirs].map { try #require(lists(["TODO.md": $0])["TODO.md"]) }
            return MergePieces.cuts(documents, documents.map(StableRuns.blocks), every: 10)
        }
        let unchanged = try cuts(base, base)
        #expect(unchanged.map { $0[0] } == [8, 16, 25, 33])  // every 10 items (and children) or more
        #expect(unchanged.allSatisfy { $0 == [$0[0], $0[0], $0[0]] })
        // Ours renames items 15 to 18: none of them can start a piece; the next one does.
        var ours = base
        for n in 15...18 { ours = ours.replacingAll("Item \(n) ^", with: "Item \(n) renamed ^") }
        #expect(try cuts(ours, base).map { $0[0] } == [8, 19, 27, 36])
        // Theirs removes item 3: its blocks come one earlier from there on.
        let theirs = base.replacingAll("- [ ] Item 3 ^i3\n", with: "")
        #expect(try cuts(base, theirs) == [[8, 8, 7], [16, 16, 15], [25, 25, 24], [33, 33, 32]])
    }

    @Test func anItemMovedIntoAnotherPieceMergesWhole() {
        // Ours moves item 3 to the end: it crosses every cut, so the lists are merged whole.
        let base = StableRunsTests.bigList(60)
        var lines = base.components(separatedBy: "\n")
        let moved = lines.firstIndex { $0.hasPrefix("- [ ] Item 3 ") }!
        let item = lines.remove(at: moved)
        lines.insert(item, at: lines.count - 1)
        let ours = lines.joined(separator: "\n")
        let theirs = base.replacingAll("- [ ] Item 40 ^", with: "- [x] Item 40 ^")
        let result = Self.inPieces(base, ours, theirs, pieceItems: 5)
        #expect(result.pieces == nil)
        let merged = ListMerge.mergeItemByItem(
            base: lists(["TODO.md": base]), ours: lists(["TODO.md": ours]), theirs: lists(["TODO.md": theirs]))
        #expect(merged.lists.texts == result.whole.lists.texts)
        #expect(Self.text(merged).hasSuffix("- [ ] Item 59 ^i59\n- [ ] Item 3 ^i3\n"))
    }

    @Test func anIDBaseHoldsTwiceMergesWhole() {
        // Item 50 carries item 3's id in base: each piece sees the id once, but only the whole
        // merge may decide which item keeps it.
        func edited(_ base: String) -> (base: String, ours: String, theirs: String) {
            (base, base.replacingAll("Item 20 ^", with: "Item 20 renamed ^"), base.replacingAll("- [ ] Item 40 ^", with: "- [x] Item 40 ^"))
        }
        let repeated = edited(StableRunsTests.bigList(60).replacingAll("- [ ] Item 50 ^i50\n", with: "- [ ] Item 50 ^i3\n"))
        #expect(Self.inPieces(repeated.base, repeated.ours, repeated.theirs, pieceItems: 5).pieces == nil)
        let unique = edited(StableRunsTests.bigList(60))
        #expect(Self.inPieces(unique.base, unique.ours, unique.theirs, pieceItems: 5).pieces != nil)
    }

    @Test func proseMovedPastACutMergesWhole() {
        // Theirs moves a line of prose from one piece to another: the whole merge matches it
        // across the file, as one line moved; pieces could not.
        let base = StableRunsTests.bigList(40).replacingAll("- [ ] Item 5 ^i5\n", with: "- [ ] Item 5 ^i5\n\nA remark.\n")
        let theirs = base.replacingAll("\nA remark.\n", with: "").replacingAll("- [ ] Item 33 ^i33\n", with: "- [ ] Item 33 ^i33\n\nA remark.\n")
        let ours = base.replacingAll("Item 20 ^", with: "Item 20 renamed ^")
        let result = Self.inPieces(base, ours, theirs, pieceItems: 5)
        #expect(result.pieces == nil)
        // Prose added on one side only crosses nothing.
        let added = base.replacingAll("- [ ] Item 33 ^i33\n", with: "- [ ] Item 33 ^i33\n\nAnother remark.\n")
        let alone = Self.inPieces(base, ours, added, pieceItems: 5)
        #expect(alone.pieces?.lists.texts == alone.whole.lists.texts)
    }

    @Test func clashesInSeveralPiecesAreReportedAsTheWholeMergeReportsThem() {
        // A title renamed on both sides, an item removed on one side and checked on the other,
        // an item's note and then prose rewritten on both sides, in four pieces: the prose's
        // clash is reported first, as the whole merge finds it before it writes the file.
        let base = StableRunsTests.bigList(40).replacingAll("- [ ] Item 36 ^i36\n", with: "- [ ] Item 36 ^i36\n\nSome prose.\n")
            .replacingAll("- [ ] Item 31 ^i31\n", with: "- [ ] Item 31 ^i31\n  More prose.\n")
        let ours = base.replacingAll("Item 12 ^", with: "Ours 12 ^").replacingAll("Some prose.", with: "Our prose.")
            .replacingAll("More prose.", with: "Our more.").replacingAll("- [ ] Item 25 ^i25\n", with: "")
        let theirs = base.replacingAll("Item 12 ^", with: "Theirs 12 ^").replacingAll("Some prose.", with: "Their prose.")
            .replacingAll("More prose.", with: "Their more.").replacingAll("- [ ] Item 25 ^", with: "- [x] Item 25 ^")
        let result = Self.inPieces(base, ours, theirs, pieceItems: 5)
        guard let pieces = result.pieces else {
            Issue.record("merged whole")
            return
        }
        #expect(pieces.lists.texts == result.whole.lists.texts)
        #expect(pieces.reports == result.whole.reports)
        #expect(pieces.reports.map(\.kind) == [.linesClash, .titleClash(kept: "Ours 12", other: "Theirs 12"), .keptRemovedItem, .linesClash])
        #expect(pieces.reports.map(\.item) == [nil, "Ours 12", "Item 25", "Item 31"])
    }

    @Test func crlfFilesWithoutAFinalNewlineMergeAlikeInPieces() throws {
        let base = StableRunsTests.bigList(60).replacingAll("\n", with: "\r\n") + "- [ ] Last ^last"
        let ours = base.replacingAll("Item 5 ^", with: "Item 5 edited ^").replacingAll("- [ ] Item 30 ^i30\r\n", with: "- [ ] Item 30 ^i30\r\n- [ ] New ^new\r\n")
        let theirs = base.replacingAll("Item 44 ^", with: "Item 44 edited ^") + "\r\n- [ ] After last ^after"
        let result = Self.inPieces(base, ours, theirs, pieceItems: 6)
        let pieces = try #require(result.pieces)
        #expect(pieces.lists.texts == result.whole.lists.texts)
        #expect(Self.text(pieces).contains("- [ ] Item 30 ^i30\r\n- [ ] New ^new\r\n"))
    }

    @Test func frontMatterMergesAlikeInPieces() throws {
        // Front matter is closed by a line anywhere after the first: the merged file is parsed whole.
        let base = "---\ntitle: Lists\n---\n" + StableRunsTests.bigList(40)
        let ours = base.replacingAll("Item 3 ^", with: "Item 3 edited ^")
        let theirs = base.replacingAll("- [ ] Item 33 ^", with: "- [x] Item 33 ^")
        let result = Self.inPieces(base, ours, theirs, pieceItems: 5)
        let pieces = try #require(result.pieces)
        #expect(pieces.lists.texts == result.whole.lists.texts)
        let merged = try #require(pieces.lists["TODO.md"])
        #expect(merged.items == ListDocument(path: "TODO.md", bytes: merged.render()).items)
        #expect(merged.roleOfLine(1) == .prose)
    }

    @Test func randomEditsMergeAlikeInPiecesOrNot() async {
        await propertyCheck(count: 300, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            Self.expectAlikeInPiecesOrNot(text, seed: seed)
        }
    }

    @Test func mostRandomEditsMergeInPieces() {
        // The property above means little if pieces mostly give up: most seeds must merge in pieces.
        var merged = 0
        for seed in 0..<100 where Self.expectAlikeInPiecesOrNot("", seed: seed * 7_919) { merged += 1 }
        #expect(merged >= 50)
    }

    /// Checks the merge in pieces against the whole merge; whether it merged in pieces.
    @discardableResult
    static func expectAlikeInPiecesOrNot(_ text: String, seed: Int) -> Bool {
        let (base, ours, theirs) = MergeLawTests.twoSides(text + StableRunsTests.bigList(24).replacingAll("^", with: "^r\(seed % 7)"), seed: seed)
        let whole = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs, folding: false)
        var merged = false
        for pieceItems in [1, 2, 5] {
            guard let pieces = MergePieces.merge(base: base, ours: ours, theirs: theirs, pieceItems: pieceItems) else { continue }
            merged = true
            #expect(pieces.lists.texts == whole.lists.texts, "pieces of \(pieceItems)")
            #expect(pieces.reports == whole.reports, "pieces of \(pieceItems)")
            for document in pieces.lists.documents.values {
                #expect(document.items == ListDocument(path: document.path, bytes: document.render()).items)
            }
        }
        return merged
    }
}
