import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Pieces of Markdown the generator strings together: items, prose, code, quotes, odd bytes.
let markdownFragments = [
    "- [ ] Buy milk", "* [x] Done thing", "1. [ ] first", "2) [X] second", "  - [ ] nested", "\t- [x] tabbed",
    "    - [ ] deep", "    indented code", "```", "~~~", "```swift", "# Heading", "## Sub heading", "> - [ ] quoted",
    "plain prose", "", "   ", "\t", "| a | b |", "|---|---|", "<!--", "-->", "---", "...",
    "- [ ] Café ☕ ⏫ 📅 2026-12-01", "- [ ] with id <!-- id: 0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F -->",
    "- [ ] damaged <!- id: 0F6C2A4E", "  note line  ", "\u{FEFF}- [ ] bom", "- [ ]", "- plain bullet",
    "  - sub bullet", "emoji 👍🏽 and joiner \u{200D}", "- [ ] trailing spaces   ", "<div>", "</div>",
]
let lineEndings = ["\n", "\r\n", "\r", ""]

/// A generated list file: fragment and ending pairs, so shrinking removes whole lines.
let markdownGenerator = Gen.int(in: 0...(markdownFragments.count * lineEndings.count - 1)).array(of: 0...40).map {
    codes in
    codes.map { markdownFragments[$0 / lineEndings.count] + lineEndings[$0 % lineEndings.count] }.joined()
}

@Suite struct RoundTripTests {
    @Test func renderingAParsedFileGivesBackItsBytes() async {
        await propertyCheck(count: 400, input: markdownGenerator) { text in
            let bytes = Array(text.utf8)
            #expect(ListDocument(path: "t.md", bytes: bytes).render() == bytes)
        }
    }

    @Test func writingIdsAddsOnlyIdCommentsAndIsStable() async {
        await propertyCheck(count: 300, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            // A damaged id or a pasted copy of an id is replaced, not only added to.
            guard !text.contains("<!- id"), text.components("0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F") <= 1 else { return }
            var generator = SeededGenerator(seed: UInt64(seed))
            let document = ListDocument(path: "t.md", bytes: Array(text.utf8))
            let result = IDAssignment.assign(ListSet([document]), base: .empty, using: &generator)
            let written = result.lists["t.md"]!
            var stripped = written.text
            for id in result.writtenIDs { stripped = stripped.replacingAll(" <!-- id: \(id) -->", with: "") }
            #expect(stripped == text)
            #expect(written.nodeCount == document.nodeCount)
            #expect(written.items.count == written.nodeCount)
            let again = IDAssignment.assign(ListSet([written]), base: .empty, using: &generator)
            #expect(again.idsWritten == 0)
            #expect(ListDocument(path: "t.md", bytes: written.render()) == written)
        }
    }

    @Test func noteLinesStepOverDescendantsAndMissNone() async {
        await propertyCheck(count: 400, input: markdownGenerator) { text in
            let document = ListDocument(path: "t.md", bytes: Array(text.utf8))
            for node in 0..<document.nodeCount {
                let scanned = document.subtree(ofNode: node).filter { document.roleOfLine($0) == .note(node) }
                #expect(document.noteLines(ofNode: node) == scanned, "node \(node)")
            }
        }
    }

    @Test(arguments: [
        "", "\n", "\r\n", "\r", "no newline", "\u{FEFF}# BOM\n", "mixed\r\nendings\nhere\rend",
        "---\ntitle: x\n---\n- [ ] a\n", "- [ ] a\t\n\t- [ ] b  \n", "<table>\n<tr><td>- [ ] x</td></tr>\n</table>\n",
    ])
    func edgeCaseFilesRoundTrip(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(ListDocument(path: "t.md", bytes: bytes).render() == bytes)
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension Substring {
    func range(of target: String) -> Range<Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }
}

extension String {
    func components(_ target: String) -> Int {
        var count = 0
        var rest = self[...]
        while let range = rest.range(of: target) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}
