import PropertyBased
import Testing
@testable import TodoModel

/// One example per grammar rule of docs/FORMAT.md.
struct ParserCase: CustomTestStringConvertible, Sendable {
    var name: String
    var markdown: String
    var expected: [String]
    var testDescription: String { name }
}

let parserCases: [ParserCase] = [
    .init(
        name: "dash, star and plus markers", markdown: "- [ ] a\n* [ ] b\n+ [ ] c\n",
        expected: ["[ ] a", "[ ] b", "[ ] c"]),
    .init(
        name: "ordered markers with dot and paren", markdown: "1. [ ] a\n2) [x] b\n10. [ ] c\n",
        expected: ["[ ] a", "[x] b", "[ ] c"]),
    .init(
        name: "lower and upper x are done", markdown: "- [x] a\n- [X] b\n- [ ] c\n",
        expected: ["[x] a", "[x] b", "[ ] c"]),
    .init(name: "plain bullets are not items", markdown: "- milk\n- [ ] eggs\n", expected: ["[ ] eggs"]),
    .init(name: "no space after the marker is not an item", markdown: "-[ ] a\n- [ ]b\n", expected: []),
    .init(name: "a box with no title is not an item", markdown: "- [ ]\n- [ ]   \n", expected: []),
    .init(name: "other box contents are not items", markdown: "- [-] a\n- [?] b\n- [  ] c\n", expected: []),
    .init(
        name: "nesting by spaces", markdown: "- [ ] parent\n  - [ ] child\n    - [ ] grandchild\n- [ ] next\n",
        expected: ["[ ] parent", "  [ ] child", "    [ ] grandchild", "[ ] next"]),
    .init(
        name: "nesting by tabs", markdown: "- [ ] parent\n\t- [ ] child\n\t\t- [ ] grandchild\n",
        expected: ["[ ] parent", "  [ ] child", "    [ ] grandchild"]),
    .init(
        name: "one space of indent is a sibling, as in GFM", markdown: "- [ ] a\n - [ ] b\n",
        expected: ["[ ] a", "[ ] b"]),
    .init(
        name: "children of an ordered item need its wider indent", markdown: "1. [ ] a\n   - [ ] b\n  - [ ] c\n",
        expected: ["[ ] a", "  [ ] b", "[ ] c"]),
    .init(
        name: "indented lines are notes", markdown: "- [ ] a\n  first note\n  second note\n- [ ] b\n",
        expected: ["[ ] a {first note⏎second note}", "[ ] b"]),
    .init(
        name: "blank lines inside notes stay, around them do not", markdown: "- [ ] a\n  one\n\n  two\n\n- [ ] b\n",
        expected: ["[ ] a {one⏎⏎two}", "[ ] b"]),
    .init(
        name: "plain bullets under an item are notes", markdown: "- [ ] a\n  - detail\n  - more\n",
        expected: ["[ ] a {- detail⏎- more}"]),
    .init(name: "lazy continuation is a note", markdown: "- [ ] a\ncontinued\n", expected: ["[ ] a {continued}"]),
    .init(
        name: "unindented text after a blank line ends the item", markdown: "- [ ] a\n\nprose\n", expected: ["[ ] a"]),
    .init(name: "a heading ends the item", markdown: "- [ ] a\n# Next\n- [ ] b\n", expected: ["[ ] a", "[ ] b"]),
    .init(
        name: "nothing in a backtick fence is an item", markdown: "```\n- [ ] no\n```\n- [ ] yes\n",
        expected: ["[ ] yes"]),
    .init(
        name: "nothing in a tilde fence is an item", markdown: "~~~md\n- [ ] no\n~~~\n- [ ] yes\n",
        expected: ["[ ] yes"]),
    .init(
        name: "a fence inside an item is part of its notes", markdown: "- [ ] a\n  ```\n  - [ ] no\n  ```\n",
        expected: ["[ ] a {```⏎- [ ] no⏎```}"]),
    .init(name: "an unclosed fence runs to the end", markdown: "```\n- [ ] no\n", expected: []),
    .init(
        name: "indented code at top level holds no items", markdown: "text\n\n    - [ ] code\n- [ ] yes\n",
        expected: ["[ ] yes"]),
    .init(
        name: "four more spaces under an item is not a child", markdown: "- [ ] a\n\n      - [ ] code\n",
        expected: ["[ ] a {    - [ ] code}"]),
    .init(
        name: "items in block quotes are quoted text, not items", markdown: "> - [ ] quoted\n- [ ] real\n",
        expected: ["[ ] real"]),
    .init(
        name: "front matter holds no items", markdown: "---\ntodo: - [ ] no\n---\n- [ ] yes\n", expected: ["[ ] yes"]),
    .init(name: "an unclosed --- is not front matter", markdown: "---\n- [ ] yes\n", expected: ["[ ] yes"]),
    .init(
        name: "a multi-line HTML comment holds no items", markdown: "<!--\n- [ ] no\n-->\n- [ ] yes\n",
        expected: ["[ ] yes"]),
    .init(name: "tables are prose", markdown: "| a | b |\n|---|---|\n| - [ ] x | y |\n- [ ] z\n", expected: ["[ ] z"]),
    .init(
        name: "a task in an HTML block is HTML, to its blank line", markdown: "<div>\n- [ ] x\n</div>\n\n- [ ] y\n",
        expected: ["[ ] y"]),
    .init(
        name: "a task after a details summary and a blank line is a task",
        markdown: "<details>\n<summary>More</summary>\n\n- [ ] x\n\n</details>\n", expected: ["[ ] x"]),
    .init(name: "a lone tag line opens an HTML block", markdown: "<img src=\"a.png\">\n- [ ] x\n", expected: []),
    .init(
        name: "a task under a plain item is a task", markdown: "1. Groceries\n    - [ ] milk\n", expected: ["[ ] milk"]),
    .init(
        name: "a task under a plain note line is its item's child",
        markdown: "- [ ] Plan trip\n    - Notes:\n        - [ ] book flights\n",
        expected: ["[ ] Plan trip {  - Notes:}", "  [ ] book flights"]),
    .init(
        name: "a fence opened on a list item's line closes inside it",
        markdown: "* [ ] Tag\n  * ```\n    x\n    ```\n* [ ] after\n",
        expected: ["[ ] Tag {* ```⏎  x⏎  ```}", "[ ] after"]),
    .init(
        name: "an unclosed fence inside an item ends with the item", markdown: "- [ ] a\n  ```\n  code\n- [ ] b\n",
        expected: ["[ ] a {```⏎code}", "[ ] b"]),
    .init(
        name: "an unclosed comment inside an item ends with the item", markdown: "- [ ] a\n  <!--\n- [ ] b\n",
        expected: ["[ ] a {<!--}", "[ ] b"]),
    .init(
        name: "an ordered item not starting at 1 cannot interrupt a paragraph",
        markdown: "Notes\n2. [ ] a\n\nNotes\n1. [ ] b\n",
        expected: ["[ ] b"]),
    .init(
        name: "a line short of a 3-space item's content continues its text", markdown: "   - [ ] a\n    - [ ] b\n",
        expected: ["[ ] a {- [ ] b}"]),
    .init(
        name: "a form feed or vertical tab after the box", markdown: "- [ ]\u{0C}a\n- [ ]\u{0B}b\n",
        expected: ["[ ] a", "[ ] b"]),
    .init(
        name: "a fence with an info string closes with a shorter line", markdown: "``` js\nx\n  ```\n- [ ] yes\n",
        expected: ["[ ] yes"]),
    .init(
        name: "a list item ends a table, and a lazy line continues its paragraph",
        markdown: "- [ ] a\n  | h |\n  |---|\n  - [ ] b\nlazy\n", expected: ["[ ] a {| h |⏎|---|}", "  [ ] b {lazy}"]),
    .init(
        name: "a closing fence indented four columns closes nothing", markdown: "```\n    ```\n- [ ] no\n", expected: []
    ),
    .init(name: "a list item holding a list item is no task", markdown: "- - [ ] no\n", expected: []),
    .init(
        name: "CRLF line endings", markdown: "- [ ] a\r\n  note\r\n- [x] b\r\n", expected: ["[ ] a {note}", "[x] b"]),
    .init(name: "lone CR line endings", markdown: "- [ ] a\r- [ ] b\r", expected: ["[ ] a", "[ ] b"]),
    .init(name: "a byte order mark before the first item", markdown: "\u{FEFF}- [ ] a\n", expected: ["[ ] a"]),
    .init(name: "no final newline", markdown: "- [ ] a\n- [ ] b", expected: ["[ ] a", "[ ] b"]),
    .init(name: "trailing spaces are not in the title", markdown: "- [ ] a   \n", expected: ["[ ] a"]),
    .init(
        name: "the id comment is not in the title",
        markdown: "- [ ] a <!-- id: 0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F -->\n", expected: ["[ ] a"]),
    .init(
        name: "text typed after the id comment stays in the title",
        markdown: "- [ ] Book dentist <!-- id: 0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F --> 📅 2026-12-03\n",
        expected: ["[ ] Book dentist 📅 2026-12-03"]),
    .init(
        name: "an id comment before the title text, and a non-id comment, are handled",
        markdown: "- [x] <!-- id: 0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F --> Call Bob\n- [ ] a <!-- note --> b\n",
        expected: ["[x] Call Bob", "[ ] a <!-- note --> b"]),
    .init(name: "Unicode titles", markdown: "- [ ] Café ☕ 日本語\n", expected: ["[ ] Café ☕ 日本語"]),
    .init(name: "an empty file", markdown: "", expected: []),
]

@Suite struct ParserTests {
    @Test func conflictBlocksAndBinaryBytesAreFound() {
        func block(_ text: String) -> [Int]? {
            ListDocument(path: "TODO.md", bytes: Array(text.utf8)).conflictBlock.map {
                [$0.opening, $0.separator, $0.closing]
            }
        }
        #expect(block("- [ ] a\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> theirs\n") == [2, 4, 6])
        #expect(block("<<<<<<<\n=======\n>>>>>>>") == [1, 2, 3])
        #expect(block("<<<<<<< HEAD\nx\n") == nil)
        #expect(block("Title\n=======\n>>>>>>> b\n") == nil)
        #expect(block("<<<<<<<< eight\n=======\n>>>>>>>\n") == nil)
        #expect(block(">>>>>>> a\n=======\n<<<<<<< b\n") == nil)
        #expect(ListDocument.binaryOffset(Array("text\n".utf8)) == nil)
        #expect(ListDocument.binaryOffset(Array("ab".utf8) + [0]) == 2)
        #expect(ListDocument.binaryOffset([UInt8](repeating: 0x41, count: 8_000) + [0]) == nil)
    }

    @Test(arguments: parserCases)
    func parsesItemsAsFormatSays(_ example: ParserCase) {
        #expect(outline(example.markdown) == example.expected)
        #expect(
            ListDocument(path: "x.md", bytes: Array(example.markdown.utf8)).render() == Array(example.markdown.utf8))
    }

    @Test func anIdCommentWithTextAfterItIsTheItemsId() throws {
        let id = "0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F"
        for line in [
            "- [ ] Book dentist <!-- id: \(id) --> 📅 2026-12-03\n",
            "- [ ] Book dentist <!--id:\(id.lowercased())--> ✅ 2026-11-24\n",
        ] {
            let document = ListDocument(path: "TODO.md", bytes: Array(line.utf8))
            #expect(document.nodeIDs == [ItemID(parsing: id)])
            #expect(document.diagnostics.isEmpty)
        }
        // Glued to the text, it is text (as at the end of a title).
        #expect(ListDocument(path: "TODO.md", bytes: Array("- [ ] a<!-- id: \(id) --> b\n".utf8)).nodeIDs == [nil])
    }

    @Test func retitlingAnItemWithTextAfterItsIdKeepsTheId() throws {
        let id = try #require(ItemID(parsing: "0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F"))
        var document = ListDocument(
            path: "TODO.md", bytes: Array("- [ ] Book dentist <!-- id: \(id) --> 📅 2026-12-03\n".utf8))
        try document.update(id, title: "Call the dentist")
        #expect(String(decoding: document.render(), as: UTF8.self) == "- [ ] Call the dentist <!-- id: \(id) -->\n")
        try document.update(id, isDone: true)
        #expect(document.items.map(\.title) == ["Call the dentist"])
    }

    @Test func invalidUTF8InATitleKeepsTheItemAndItsBytes() {
        let bytes: [UInt8] = Array("- [ ] caf".utf8) + [0xE9] + Array(" au lait\n- [ ] ok\n".utf8)
        let document = ListDocument(path: "TODO.md", bytes: bytes)
        #expect(document.nodeCount == 2)
        #expect(document.render() == bytes)
        #expect(
            document.diagnostics == [
                Diagnostic(
                    file: "TODO.md", line: 1, message: "bytes that are not valid UTF-8; kept exactly as they are")
            ])
        let resolved = IDAssignment.resolveBase(ListSet([document]), commit: "c").lists["TODO.md"]!
        #expect(resolved.items.first?.title == "caf\u{FFFD} au lait")
        // The id goes after the bytes, which stay as they were.
        #expect(Array(resolved.render().prefix(bytes.count - 14)) == Array(bytes.prefix(bytes.count - 14)))
    }

    @Test func aConflictLeftByGitIsReportedAtItsOpeningMarker() {
        let text =
            "# Home\n- [ ] a\n<<<<<<< HEAD\n- [ ] b\n=======\n- [ ] c\n>>>>>>> theirs\n<<<<<<<\n=======\n>>>>>>>\n"
        let document = ListDocument(path: "TODO.md", bytes: Array(text.utf8))
        #expect(document.render() == Array(text.utf8))
        #expect(document.diagnostics.map(\.line) == [3, 8])
        #expect(document.diagnostics.first?.message.hasPrefix("a git conflict marker") == true)
        // Not markers: a setext heading's underline, eight angle brackets, text after them.
        let plain = "Title\n=======\n<<<<<<<<\n<<<<<<<x\n- [ ] <<<<<<< not at the start\n"
        #expect(ListDocument(path: "TODO.md", bytes: Array(plain.utf8)).diagnostics.isEmpty)
    }

    @Test func invalidUTF8IsReportedOnExactlyTheLinesThatHoldIt() async {
        // Bytes drawn mostly from ASCII, line ends and pieces of multi-byte sequences, valid or cut.
        let pieces: [[UInt8]] = [
            [0x61], [0x20], [0x0A], [0x0D], [0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x91, 0x8D], [0xC3], [0xA9],
            [0xE6, 0x97], [0xFF], [0x2D, 0x20, 0x5B, 0x20, 0x5D, 0x20],
            // Overlong, surrogate, above U+10FFFF, lead bytes C0/C1/F5, edges of each range.
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80],
            [0xEF, 0xBF, 0xBF], [0xDF, 0xBF], [0xC2, 0x80], [0x80], [0xBF],
            // Runs of ASCII longer than the eight bytes checked at once, and just shorter.
            Array("ten bytes!".utf8), Array("7 bytes".utf8),
        ]
        await propertyCheck(count: 2000, input: Gen.int(in: 0...(pieces.count - 1)).array(of: 0...30)) { codes in
            let bytes = codes.flatMap { pieces[$0] }
            let document = ListDocument(path: "t.md", bytes: bytes)
            let expected = document.lines.indices.filter {
                String(validating: document.lines[$0].content, as: UTF8.self) == nil
            }
            #expect(document.diagnostics.map(\.line) == expected.map { $0 + 1 })
            #expect(document.diagnostics.isEmpty == (String(validating: bytes, as: UTF8.self) != nil))
        }
    }

    @Test func itemsKnowTheirSectionLineAndPosition() {
        let items = identified("# Work\n- [ ] a\n- [ ] b\n  - [ ] c\n## Home\n- [ ] d\n").items
        #expect(items.map(\.section) == ["Work", "Work", "Work", "Home"])
        #expect(items.map(\.line) == [2, 3, 4, 6])
        #expect(items.map(\.position) == [0, 1, 0, 2])
        #expect(items[2].parent == items[1].id)
    }

    @Test func priorityAndDueAreReadFromTheTitleAndStayInIt() {
        let item = identified("- [ ] Pay rent ⏫ 📅 2026-12-01\n").items[0]
        #expect(item.title == "Pay rent ⏫ 📅 2026-12-01")
        #expect(item.priority == .high)
        #expect(item.due == CalendarDate("2026-12-01"))
        #expect(item.plainTitle == "Pay rent")
    }

    @Test(arguments: [("🔺", Priority.highest), ("⏫", .high), ("🔼", .medium), ("🔽", .low), ("⏬", .lowest), ("", .none)])
    func readsEveryPriority(_ emoji: String, _ priority: Priority) {
        #expect(identified("- [ ] task \(emoji)\n").items[0].priority == priority)
    }

    @Test func anInvalidDateIsNotADueDate() {
        let item = identified("- [ ] a 📅 2026-02-30\n").items[0]
        #expect(item.due == nil)
        #expect(item.plainTitle == "a 📅 2026-02-30")
    }
}

/// The parser's shortcut for a task item at the line's start reaches exactly the state the
/// general walk does: the same roles and items, on every generated file.
@Suite struct ParserShortcutTests {
    /// The generated files' fragments, and lines near the shortcut's edges.
    static let fragments =
        markdownFragments + [
            "+ [x] plus", "* [ ]\ttab after the box", "-  [ ] two spaces", "- [ ]x no space", "-\t[ ] tab marker",
            "- [ ] \u{0B}vertical tab", "- [ ]  ", "- [y] other box", "<pre>", "</pre>", "> quoted prose", "1. plain",
            "  Note under an item", "    Deeper note", "Prose", "  | a | b |", "  ```", "  - [x] nested done",
            "    - [ ] third level",
            "      - [ ] fourth", "x | y", "   - [ ] three spaces", "  * [ ] star child", "  <div>",
        ]
    static let generator = Gen.int(in: 0...(fragments.count * lineEndings.count - 1)).array(of: 0...40).map { codes in
        codes.map { fragments[$0 / lineEndings.count] + lineEndings[$0 % lineEndings.count] }.joined()
    }

    /// Files where the state a line leaves shows only later, rarely met by chance.
    @Test(arguments: [
        // A table row that starts with a letter keeps the table open: no paragraph for the
        // line below to continue lazily, so it is prose, not a note of the item.
        "- [ ] a\n  | h | i |\n  |---|---|\n  x | y\nlazy text\n",
        // A paragraph that starts with a letter: the line below continues it, a note.
        "- [ ] a\n  x | y\nlazy text\n",
    ])
    func theShortcutIsTheGeneralWalkOn(_ text: String) {
        let lines = ListLine.split(Array(text.utf8))
        let short = ListParser.parse(lines)
        let general = ListParser.parse(lines, shortcuts: false)
        #expect(short.nodes == general.nodes)
        #expect(short.roles.elementsEqual(general.roles))
    }

    @Test func theShortcutIsTheGeneralWalk() async {
        await propertyCheck(count: 3000, input: Self.generator) { text in
            let lines = ListLine.split(Array(text.utf8))
            let short = ListParser.parse(lines)
            let general = ListParser.parse(lines, shortcuts: false)
            #expect(short.nodes == general.nodes)
            #expect(short.roles.elementsEqual(general.roles))
        }
    }
}
