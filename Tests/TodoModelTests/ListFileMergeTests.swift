import TestSupport
import Testing
@testable import TodoModel

/// The merge of three versions of one file with no history (git's merge driver).
@Suite struct ListFileMergeTests {
    private func merge(_ base: String, _ ours: String, _ theirs: String) -> (text: String, reports: [MergeReport]) {
        let outcome = ListFileMerge.merge(
            path: "TODO.md", base: Array(withIDs(base).utf8), ours: Array(withIDs(ours).utf8),
            theirs: Array(withIDs(theirs).utf8))
        return (withShortIDs(String(decoding: outcome.bytes, as: UTF8.self)), outcome.reports)
    }

    /// Every case of the table settles as sync settles it.
    @Test(arguments: mergeCases)
    func settlesTheTableAsSyncDoes(_ example: MergeCase) {
        let result = merge(example.base, example.ours, example.theirs)
        #expect(result.text == example.merged)
        #expect(result.reports.count == example.reports.count)
    }

    /// Items typed with plain git, with no ids anywhere: merged by item all the same, and the
    /// result holds no id todosync made up.
    @Test func itemsWithoutIDsMergeByItemAndGetNone() {
        let result = merge(
            "# Shop\n\n- [ ] Milk\n- [ ] Bread\n",
            "# Shop\n\n- [x] Milk\n- [ ] Bread\n- [ ] Eggs\n",
            "# Shop\n\n- [ ] Milk\n  oat, not cow\n- [x] Bread\n")
        #expect(result.text == "# Shop\n\n- [x] Milk\n  oat, not cow\n- [x] Bread\n- [ ] Eggs\n")
        #expect(result.reports.isEmpty)
    }

    /// An item that lost its id comment on one side (an editor stripped it) is the same item:
    /// matched back by title, it keeps its id, and the other side's edit applies.
    @Test func anItemThatLostItsCommentOnOneSideKeepsItsID() {
        let result = merge(
            "- [ ] Milk ^a\n- [ ] Bread ^b\n", "- [ ] Milk\n- [ ] Bread ^b\n  rye\n", "- [x] Milk ^a\n- [ ] Bread ^b\n")
        #expect(result.text == "- [x] Milk ^a\n- [ ] Bread ^b\n  rye\n")
    }

    /// Items typed with plain git that todosync identified on one side since the base (its adopt
    /// commit wrote the ids) are the same items: the other side's edits apply to them, a
    /// deletion deletes them, and identical lines pair in order.
    @Test func itemsGivenIDsOnOneSideAreTheBaseItems() {
        let base = "# Shop\n- [ ] Milk\n- [ ] Bread\n- [ ] Call\n- [ ] Call\n- [ ] Jam\n"
        let adopted = "# Shop\n- [ ] Milk ^a\n- [ ] Bread ^b\n- [ ] Call ^c\n- [ ] Call ^d\n- [ ] Jam ^e\n"
        let edited = "# Shop\n- [ ] Oat milk\n- [ ] Bread\n  rye\n- [ ] Call\n- [x] Call\n"
        let expected = "# Shop\n- [ ] Oat milk ^a\n- [ ] Bread ^b\n  rye\n- [ ] Call ^c\n- [x] Call ^d\n"
        for (ours, theirs) in [(adopted, edited), (edited, adopted)] {
            let result = merge(base, ours, theirs)
            #expect(result.text == expected)
            #expect(result.reports.isEmpty)
        }
    }

    /// Property: a plain-git list identified on one side and edited with plain git on the other
    /// (checked, renamed, noted, deleted; repeated lines too) merges to exactly the other side's
    /// lines, none doubled, each id one the first side gave and used once; an item whose title
    /// is its own and unchanged keeps its id. On either side order.
    @Test func itemsGivenIDsOnOneSideSurviveTheOthersPlainEdits() {
        var random = SeededGenerator(seed: 0xAD0)
        let titles = ["Milk", "Bread", "Call Bob", "Call Bob", "Jam 📅 2026-12-01", "Pay rent ⏫"]
        for _ in 0..<300 {
            let count = Int.random(in: 1...7, using: &random)
            let baseTitles = (0..<count).map { _ in titles.randomElement(using: &random)! }
            let base = baseTitles.map { "- [ ] \($0)\n" }.joined()
            let identified = IDAssignment.resolveBase(
                ListSet([ListDocument(path: "TODO.md", bytes: Array(base.utf8))]), commit: "adopt"
            ).lists["TODO.md"]!
            let ids = identified.nodeIDs.compactMap { $0 }
            // The plain edits, and for each line kept under its own title, the id it must keep.
            var edited = "", keeping: [Int: ItemID] = [:], kept = 0
            for (index, title) in baseTitles.enumerated() {
                let own = baseTitles.filter { $0 == title }.count == 1
                switch Int.random(in: 0..<5, using: &random) {
                case 0: continue
                case 1: edited += "- [x] \(title)\n"; if own { keeping[kept] = ids[index] }
                case 2: edited += "- [ ] \(title) today\n"
                case 3: edited += "- [ ] \(title)\n  a note\n"; if own { keeping[kept] = ids[index] }
                default: edited += "- [ ] \(title)\n"; if own { keeping[kept] = ids[index] }
                }
                kept += 1
            }
            let adopted = Array(identified.render())
            for (ours, theirs) in [(adopted, Array(edited.utf8)), (Array(edited.utf8), adopted)] {
                let outcome = ListFileMerge.merge(path: "TODO.md", base: Array(base.utf8), ours: ours, theirs: theirs)
                var merged = ListDocument(path: "TODO.md", bytes: outcome.bytes)
                let mergedIDs = merged.nodeIDs
                let written = mergedIDs.compactMap { $0 }
                #expect(Set(written).count == written.count && Set(written).isSubset(of: Set(ids)))
                for (node, id) in keeping {
                    #expect(mergedIDs[node] == id, "\(base.debugDescription) / \(edited.debugDescription)")
                }
                merged.removeIDComments(of: Set(written))
                #expect(
                    String(decoding: merged.render(), as: UTF8.self) == edited,
                    "\(base.debugDescription) / \(edited.debugDescription)")
                #expect(outcome.reports.isEmpty)
            }
        }
    }

    /// Identified and edited on one side at once (the check typed before todosync ran): matched
    /// by title; both sides' edits apply.
    @Test func anItemGivenAnIDAndEditedOnOneSideMatchesByTitle() {
        let result = merge(
            "- [ ] Milk\n- [ ] Bread\n", "- [x] Milk ^a\n- [ ] Bread ^b\n", "- [ ] Milk\n  oat\n- [ ] Bread\n")
        #expect(result.text == "- [x] Milk ^a\n  oat\n- [ ] Bread ^b\n")
        #expect(result.reports.isEmpty)
    }

    /// Both sides identified the items, with different ids (not todosync's way, but a merge must
    /// not lose either): nothing is paired by guess, both items stay.
    @Test func itemsGivenDifferentIDsOnTheTwoSidesAreBothKept() {
        let result = merge("- [ ] Milk\n", "- [ ] Milk ^a\n", "- [ ] Milk ^b\n")
        #expect(result.text.contains("^a") && result.text.contains("^b"))
    }

    /// Taking stand-in ids out restores every line byte for byte, wherever `lineWithID` put
    /// them: at the end, before trailing white space (a hard break), before fields, on CRLF lines.
    @Test func standInIDsComeOutWithoutATrace() {
        var random = SeededGenerator(seed: 0x5EED)
        let titles = [
            "Milk", "Call Bob 📅 2026-12-01", "Trip ⏫ 🔁 every week", "a  ", "Tabs\t", "x <!-- note -->",
            "Multi word title here",
        ]
        let prefixes = ["- [ ] ", "* [x] ", "  - [ ] ", "1. [ ] ", "- [X] "]
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let line = prefixes.randomElement(using: &random)! + titles.randomElement(using: &random)!
                text += line + (Bool.random(using: &random) ? "\r\n" : "\n")
                if Int.random(in: 0..<4, using: &random) == 0 { text += "   a note\n" }
            }
            let original = ListDocument(path: "TODO.md", bytes: Array(text.utf8))
            let identified = IDAssignment.resolveBase(ListSet([original]), commit: "seed").lists["TODO.md"]!
            var stripped = identified
            stripped.removeIDComments(of: Set(identified.nodeIDs.compactMap { $0 }))
            #expect(stripped.render() == original.render(), "\(text.debugDescription)")
        }
    }
}
