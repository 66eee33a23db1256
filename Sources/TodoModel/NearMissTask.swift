/// A line that looks meant as a task item but is not one (docs/FORMAT.md, "Near misses"):
/// `-[ ] a`, `- [] a`, `- [X ] a`, `- [ ]a`, or a box with no list marker (`[ ] a`). A
/// commit warns about each, naming the line and what to write instead; it stays text.
enum NearMissTask {
    /// What is wrong with the line, or nil when it is no near miss. `content` is the line
    /// without its ending; the caller knows it is no task item and not in a code or HTML block.
    static func problem(_ content: ArraySlice<UInt8>) -> String? {
        let i = leadingIndent(content, from: content.startIndex).end
        let end = content.endIndex
        guard i < end else { return nil }
        // A box with no list marker before it, followed by a title.
        if content[i] == UInt8(ascii: "[") {
            guard let close = box(content, at: i), close + 1 < end, content[close + 1].isSpaceOrTab,
                hasText(content, from: close + 1)
            else { return nil }
            return "a box with no list marker before it"
        }
        guard let afterMarker = marker(content, at: i) else { return nil }
        if afterMarker < end, content[afterMarker] == UInt8(ascii: "[") {
            // (`*[x]*` is emphasis: only a box with white space and a title after it.)
            guard let close = box(content, at: afterMarker), close + 1 < end, content[close + 1].isSpaceOrTab,
                hasText(content, from: close + 1)
            else { return nil }
            return "no space between the list marker and the box"
        }
        let j = leadingIndent(content, from: afterMarker).end
        guard j > afterMarker, j < end, content[j] == UInt8(ascii: "[") else { return nil }
        var close = j + 1
        while close < end, close - j <= 4, content[close] != UInt8(ascii: "]") { close += 1 }
        guard close < end, content[close] == UInt8(ascii: "]"), hasText(content, from: close + 1) else { return nil }
        let inside = content[(j + 1)..<close]
        if inside.isEmpty { return "an empty box ([]): a task's box holds a space or an x" }
        guard inside.allSatisfy({ $0 == 0x20 || $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }) else {
            return nil
        }
        if inside.count > 1 {
            return "the box holds \"\(String(decoding: inside, as: UTF8.self))\": a task's box is [ ], [x] or [X]"
        }
        // (`- [x](https://…)` is a link: only a word run straight on.)
        if close + 1 < end, content[close + 1].isASCIILetter || content[close + 1].isDigit || content[close + 1] >= 0x80
        {
            return "no space after the box"
        }
        return nil
    }

    /// The end of a list marker at `i` (`-`, `*`, `+`, or 1–9 digits and `.` or `)`), or nil.
    private static func marker(_ content: ArraySlice<UInt8>, at i: Int) -> Int? {
        let byte = content[i]
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") { return i + 1 }
        var j = i
        while j < content.endIndex, j - i < 9, content[j].isDigit { j += 1 }
        guard j > i, j < content.endIndex, content[j] == UInt8(ascii: ".") || content[j] == UInt8(ascii: ")") else {
            return nil
        }
        return j + 1
    }

    /// The index of `]` closing a one-character task box (`[ ]`, `[x]`, `[X]`) at `i`, or nil.
    private static func box(_ content: ArraySlice<UInt8>, at i: Int) -> Int? {
        guard i + 2 < content.endIndex, content[i + 2] == UInt8(ascii: "]") else { return nil }
        let inside = content[i + 1]
        return inside == 0x20 || inside == UInt8(ascii: "x") || inside == UInt8(ascii: "X") ? i + 2 : nil
    }

    /// Whether anything but white space follows `i`: a title (a bare box is no near miss).
    private static func hasText(_ content: ArraySlice<UInt8>, from i: Int) -> Bool {
        content[min(i, content.endIndex)...].contains { !$0.isSpaceOrTab }
    }
}
