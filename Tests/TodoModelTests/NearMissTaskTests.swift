import Testing
@testable import TodoModel

/// Lines that look meant as tasks but are not (docs/FORMAT.md, "Near misses"): each is warned
/// about with its line and stays text; nothing else is.
@Suite struct NearMissTaskTests {
    static let nearMisses: [(line: String, problem: String)] = [
        ("-[ ] Buy milk", "no space between the list marker and the box"),
        ("1.[x] Call Bob", "no space between the list marker and the box"),
        ("- [] Buy milk", "an empty box ([])"),
        ("- [X ] Buy milk", "the box holds \"X \""),
        ("- [ x] Buy milk", "the box holds \" x\""),
        ("  * [  ] Buy milk", "the box holds \"  \""),
        ("- [ ]Buy milk", "no space after the box"),
        ("[ ] Buy milk", "a box with no list marker before it"),
        ("\t[x] Buy milk", "a box with no list marker before it"),
    ]

    @Test(arguments: nearMisses)
    func aNearMissIsWarnedAboutWithItsLine(_ nearMiss: (line: String, problem: String)) {
        let document = ListDocument(path: "TODO.md", bytes: Array("# Shopping\n\n- [ ] Eggs\n\(nearMiss.line)\n".utf8))
        let warnings = document.diagnostics
        #expect(warnings.count == 1)
        #expect(warnings.first?.line == 4)
        #expect(warnings.first?.message.contains(nearMiss.problem) == true, "\(warnings)")
        #expect(warnings.first?.message.contains("- [ ] title") == true)
        #expect(document.nodeCount == 1)
    }

    static let noNearMisses = [
        "- [ ] Eggs", "- [x] Eggs", "1. [ ] Eggs", "- [ ]", "- []", "[ ]", "- [x](https://example.com) a link",
        "*[x]* emphasis", "[x]: https://example.com", "[link] text", "- plain bullet", "Prose [ ] in a sentence",
        "- [-] cancelled, as Obsidian Tasks writes it", "- [/] in progress", "---", "- [ ]\ttab after the box",
    ]

    @Test(arguments: noNearMisses)
    func aLineThatIsNoNearMissDrawsNoWarning(_ line: String) {
        #expect(ListDocument(path: "TODO.md", bytes: Array("- [ ] Eggs\n\n\(line)\n".utf8)).diagnostics.isEmpty)
    }

    @Test(arguments: [
        "```\n-[ ] in a fence\n```\n",
        "Text\n\n    -[ ] indented code\n",
        "<div>\n-[ ] in an HTML block\n</div>\n",
        "- [ ] Item\n\n      ```\n      [ ] in a fence in the item\n      ```\n",
    ])
    func codeAndHTMLAreLeftAlone(_ text: String) {
        #expect(ListDocument(path: "TODO.md", bytes: Array(text.utf8)).diagnostics.isEmpty)
    }

    @Test func aNearMissInAnItemsNotesIsWarnedAbout() {
        let document = ListDocument(path: "TODO.md", bytes: Array("- [ ] Groceries\n  -[ ] milk\n  - [ ] eggs\n".utf8))
        #expect(document.diagnostics.map(\.line) == [2])
        #expect(document.nodeCount == 2)
    }
}
