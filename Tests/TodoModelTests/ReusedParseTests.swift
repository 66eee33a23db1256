import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Parsing a file by taking another version's parse where the lines agree must give exactly
/// what parsing it afresh gives: the same lines, roles and nodes (offsets included).
@Suite struct ReusedParseTests {
    static func expectSameParse(_ text: String, reusing otherText: String, _ comment: Comment? = nil) {
        let other = ListDocument(path: "t.md", bytes: Array(otherText.utf8))
        let fresh = ListDocument(path: "t.md", bytes: Array(text.utf8))
        let reused = ListDocument(path: "t.md", bytes: Array(text.utf8), reusing: other)
        #expect(reused.lines == fresh.lines, comment)
        #expect(reused.nodes == fresh.nodes, comment)
        #expect(reused.lines.indices.allSatisfy { reused.roleOfLine($0) == fresh.roleOfLine($0) }, comment)
    }

    /// `text` with lines `start..<start + count` replaced by `replacement`'s.
    static func edited(_ text: String, seed: Int) -> String {
        var generator = SeededGenerator(seed: UInt64(seed))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = Int.random(in: 0...lines.count, using: &generator)
        let count = Int.random(in: 0...min(3, lines.count - start), using: &generator)
        let replacement = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
            markdownFragments.randomElement(using: &generator)!
        }
        lines.replaceSubrange(start..<(start + count), with: replacement)
        return lines.joined(separator: "\n")
    }

    @Test func aReusedParseIsTheFreshParse() async {
        await propertyCheck(count: 2000, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let other = Self.edited(text, seed: seed)
            Self.expectSameParse(text, reusing: other)
            Self.expectSameParse(other, reusing: text)
        }
    }

    /// Other's lines with up to three runs of known's lines put between them (a run mostly
    /// starting at one of known's top-level items, which is where the parse is taken).
    static func spliced(
        _ known: ListDocument, into other: [ListLine], seed: Int
    ) -> ([ListLine], [ListParser.KnownSpan]) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let heads = known.topLevelNodes.map(known.nodeLine)
        var lines: [ListLine] = []
        var spans: [ListParser.KnownSpan] = []
        var cut = 0
        for _ in 0..<3 {
            let next = Int.random(in: cut...other.count, using: &generator)
            lines += other[cut..<next]
            cut = next
            guard !known.lines.isEmpty else { continue }
            let start =
                !heads.isEmpty && Int.random(in: 0..<4, using: &generator) > 0
                ? heads.randomElement(using: &generator)! : Int.random(in: 0..<known.lines.count, using: &generator)
            let count = Int.random(in: 1...(known.lines.count - start), using: &generator)
            spans.append(ListParser.KnownSpan(start: lines.count, known: known, knownStart: start, count: count))
            lines += known.lines[start..<(start + count)]
        }
        lines += other[cut...]
        return (lines, spans)
    }

    @Test func aSplicedParseIsTheFreshParse() async {
        await propertyCheck(count: 3000, input: markdownGenerator, markdownGenerator, Gen.int(in: 0...1_000_000)) {
            knownText, otherText, seed in
            let known = ListDocument(path: "t.md", bytes: Array(knownText.utf8))
            let other = ListDocument(path: "t.md", bytes: Array(otherText.utf8))
            let (lines, spans) = Self.spliced(known, into: other.lines, seed: seed)
            let fresh = ListDocument(path: "t.md", lines: lines)
            let spliced = ListDocument(path: "t.md", lines: lines, splicing: spans)
            #expect(spliced.nodes == fresh.nodes)
            #expect(spliced.lines.indices.allSatisfy { spliced.roleOfLine($0) == fresh.roleOfLine($0) })
        }
    }

    @Test(arguments: [
        // A heading above the edit names the section of the items after it.
        ("# A\n- [ ] a\n- [ ] b\n- [ ] c\n", "# B\n- [ ] a\n- [ ] b\n- [ ] c\n"),
        ("- [ ] a\n- [ ] b\n# New\n- [ ] c\n- [ ] d\n", "- [ ] a\n- [ ] b\n- [ ] c\n- [ ] d\n"),
        // A fence opened in the middle turns the common end into code.
        ("- [ ] a\n- [ ] b\n- [ ] c\n", "- [ ] a\n```\n- [ ] b\n- [ ] c\n"),
        // The edited item's children and notes continue into the common end.
        ("- [ ] a\n- [ ] b\n  - [ ] b1\n  note\n- [ ] c\n", "- [ ] a\n- [ ] B\n  - [ ] b1\n  note\n- [ ] c\n"),
        ("- [ ] a\n- [ ] b\n\n  - [ ] b1\n- [ ] c\n", "- [ ] a\n  - [ ] b\n\n  - [ ] b1\n- [ ] c\n"),
        // Front matter, a byte order mark, line endings that differ only at the edit.
        ("---\nx: 1\n---\n- [ ] a\n- [ ] b\n- [ ] c\n", "---\nx: 2\n---\n- [ ] a\n- [ ] b\n- [ ] c\n"),
        // Closing front matter below the common start turns its items into front matter.
        ("---\n- [ ] a\n- [ ] b\n", "---\n- [ ] a\n---\n- [ ] b\n"),
        ("\u{FEFF}- [ ] a\n- [ ] b\n- [ ] c\n", "\u{FEFF}- [ ] a\n- [ ] b2\n- [ ] c\n"),
        ("- [ ] a\r\n- [ ] b\r\n- [ ] c\r\n", "- [ ] a\r\n- [ ] b\n- [ ] c\r\n"),
        ("- [ ] a\n- [ ] b\r", "- [ ] a\n- [ ] b\r\n"),
        ("", "- [ ] a\n"),
    ])
    func examples(_ pair: (String, String)) {
        Self.expectSameParse(pair.0, reusing: pair.1)
        Self.expectSameParse(pair.1, reusing: pair.0)
    }
}
