import TestSupport

/// Markdown documents made of the pieces that decide block structure, in random order and
/// indentation: task and plain items of every marker, lazy lines, fences (opened on item
/// lines, unclosed, indented closers), the seven HTML block kinds, block quotes, tables,
/// headings, breaks, indented code, tabs and blank lines.
struct GeneratedMarkdown {
    private var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func documents(_ count: Int) -> [String] {
        (0..<count).map { _ in document() }
    }

    private mutating func document() -> String {
        let lines = Int.random(in: 2...14, using: &random)
        return (0..<lines).map { _ in line() + "\n" }.joined()
    }

    private mutating func line() -> String {
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 12 { return pick(["", "", "  ", "\t"]) }
        let indent = pick([
            "", "", "", "", " ", "  ", "  ", "   ", "    ", "    ", "     ", "      ", "        ", "\t", "\t\t", "  \t",
        ])
        let container =
            Int.random(in: 0..<10, using: &random) == 0 ? pick(["> ", ">", "> > ", "- ", "1. ", "* > ", ">\t"]) : ""
        return indent + container + block(roll)
    }

    private mutating func block(_ roll: Int) -> String {
        switch roll {
        case ..<50: return task()
        case ..<60: return pick(markers) + pick([" ", "  ", ""]) + pick(["", "plain", "item text", "[]", "[-] no"])
        case ..<75: return pick(texts)
        default: return pick(blockLines)
        }
    }

    private mutating func task() -> String {
        let box = pick(["[ ]", "[ ]", "[x]", "[X]", "[ ]", "[-]", "[ ] "])
        let after = pick([" ", " ", " ", "  ", "\t", "\u{0C}", "\u{0B}", ""])
        let title = pick([
            "buy milk", "call Bob", "a", "plan *trip*", "", "`code`", "x | y", "# not a heading", "> not a quote",
            "- sub",
        ])
        return pick(markers) + pick([" ", " ", " ", "  ", "   ", "    ", "     ", "\t", " \t"]) + box + after + title
    }

    private let markers = ["-", "-", "*", "+", "1.", "1.", "2.", "1)", "10.", "0.", "123456789.", "1234567890."]

    private let texts = [
        "text", "lazy continuation", "Notes", "2. not first", "#nohash", "a line with <span>html</span>",
        "3) three", "-not an item", "+", "*emphasis*", "1.5 is a number",
    ]

    private let blockLines = [
        "# Heading", "## Sub", "####### seven", "===", "---", "--", "***", "- - -", "_ _ _", "* * *",
        "| a | b |", "|---|---|", "| --- |", "a | b", "--|--", "| c | d |", ":-: | -:",
        "```", "```", "````", "~~~", "~~~", "``` js", "```a`b", "~~~ a`b",
        "<div>", "</div>", "<details>", "<summary>More</summary>", "</details>", "<img src=\"a.png\">",
        "<span>", "</span>", "<a href='x' title=\"y\">", "<x y=z/>", "<!--", "-->", "<!-- c -->", "<pre>", "</pre>",
        "<script>", "</script>", "<style>", "<?php", "?>", "<!DOCTYPE html>", "<!doctype html>", "<![CDATA[", "]]>",
        "<textarea>", "</textarea>", "<p>", "<table>", "<ul>", "<br/>", "< div>",
        "    code", "> quote", ">", "> - [ ] quoted", "[ ] no marker",
    ]

    private mutating func pick(_ choices: [String]) -> String {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }
}
