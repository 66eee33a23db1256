import TestSupport
import Testing
@testable import TodoModel

/// The merge of three versions of one file with no history (git's merge driver).
@Suite struct ListFileMergeTests {
    private func merge(_ base: String, _ ours: String, _ theirs: String) -> (text: String, reports: [MergeReport]) {
        let outcome = ListFileMerge.merge(
            path: "TODO.md", base: Array(withIDs(base).utf8), ours: Array(withIDs(ours).utf8), theirs: Array(withIDs(theirs).utf8))
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
        let result = merge("- [ ] Milk ^a\n- [ ] Bread ^b\n", "- [ ] Milk\n- [ ] Bread ^b\n  rye\n", "- [x] Milk ^a\n- [ ] Bread ^b\n")
        #expect(result.text == "- [x] Milk ^a\n- [ ] Bread ^b\n  rye\n")
    }

    /// Taking stand-in ids out restores every line byte for byte, wherever `lineWithID` put
    /// them: at the end, before trailing white space (a hard break), before fields, on CRLF lines.
    @Test func standInIDsComeOutWithoutATrace() {
        var random = SeededGenerator(seed: 0x5EED)
        let titles = ["Milk", "Call Bob 📅 2026-12-01", "Trip ⏫ 🔁 every week", "a  ", "Tabs\t", "x <!-- note -->", "Multi word title here"]
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
