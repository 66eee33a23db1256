/// The block starts of CommonMark and GFM, each recognised on one line the way cmark-gfm 0.29
/// (the engine behind GitHub's rendering) does: from `start`, the line's first non-space byte
/// after its containers, to the line's end (the line holds no ending).
///
/// NB: on raw buffers, as `TaskHead` is: these run for many lines of every file read.
enum BlockStarts {
    typealias Line = UnsafeBufferPointer<UInt8>

    /// `#` to `######` followed by white space or the line's end.
    static func isATXHeading(_ line: Line, _ start: Int) -> Bool {
        var i = start
        while i < line.count, line[i] == UInt8(ascii: "#") { i += 1 }
        let level = i - start
        return level >= 1 && level <= 6 && (i == line.count || line[i].isSpaceOrTab)
    }

    /// A fence's character and length: three or more backticks (whose info string holds no
    /// backtick) or tildes.
    static func fenceOpening(_ line: Line, _ start: Int) -> (byte: UInt8, length: Int)? {
        let byte = line[start]
        guard byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") else { return nil }
        var i = start
        while i < line.count, line[i] == byte { i += 1 }
        let length = i - start
        guard length >= 3 else { return nil }
        if byte == UInt8(ascii: "`") {
            while i < line.count {
                if line[i] == byte { return nil }
                i += 1
            }
        }
        return (byte, length)
    }

    /// A closing fence: the same character, at least as many, then only white space.
    static func closesFence(_ line: Line, _ start: Int, byte: UInt8, length: Int) -> Bool {
        var i = start
        while i < line.count, line[i] == byte { i += 1 }
        return i - start >= length && isBlank(line, from: i)
    }

    /// `===` or `---` (any count) under a paragraph, then only white space.
    static func isSetextUnderline(_ line: Line, _ start: Int) -> Bool {
        let byte = line[start]
        guard byte == UInt8(ascii: "=") || byte == UInt8(ascii: "-") else { return false }
        var i = start
        while i < line.count, line[i] == byte { i += 1 }
        return isBlank(line, from: i)
    }

    /// Three or more `*`, `-` or `_`, with only spaces and tabs between and after.
    static func isThematicBreak(_ line: Line, _ start: Int) -> Bool {
        let byte = line[start]
        guard byte == UInt8(ascii: "*") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return false }
        var count = 0
        for i in start..<line.count {
            if line[i] == byte {
                count += 1
            } else if !line[i].isSpaceOrTab {
                return false
            }
        }
        return count >= 3
    }

    /// A list marker (`-`, `+`, `*`, or one to nine digits and `.` or `)`) followed by white
    /// space or the line's end; returns its width in bytes. One that interrupts a paragraph
    /// must have text after it, and an ordered one must start at 1.
    static func listMarker(_ line: Line, _ start: Int, interruptingParagraph: Bool) -> Int? {
        var i = start
        let first = line[i]
        var startsAtOne = true
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            i += 1
        } else if first.isDigit {
            var value = 0
            while i < line.count, i - start < 9, line[i].isDigit {
                value = value * 10 + Int(line[i] - UInt8(ascii: "0"))
                i += 1
            }
            guard i < line.count, line[i] == UInt8(ascii: ".") || line[i] == UInt8(ascii: ")") else { return nil }
            i += 1
            startsAtOne = value == 1
        } else {
            return nil
        }
        // cmark's `cmark_isspace`: form feed and vertical tab count too.
        guard i == line.count || line[i].isWhiteSpace else { return nil }
        if interruptingParagraph, !startsAtOne || isBlank(line, from: i) { return nil }
        return i - start
    }

    /// The kinds of HTML block (CommonMark 0.29, 4.6): 1 `<script`, `<pre`, `<style`; 2 a
    /// comment; 3 a processing instruction; 4 a declaration; 5 CDATA; 6 a block-level tag;
    /// 7 any other complete tag alone on its line (which cannot interrupt a paragraph).
    static func htmlBlockKind(_ line: Line, _ start: Int, interruptingParagraph: Bool) -> UInt8? {
        guard line[start] == UInt8(ascii: "<"), start + 1 < line.count else { return nil }
        let rest = start + 1
        if let name = tagName(line, from: rest), startsTag1(line, name) { return 1 }
        if hasPrefix(line, rest, "!--") { return 2 }
        if line[rest] == UInt8(ascii: "?") { return 3 }
        if line[rest] == UInt8(ascii: "!"), rest + 1 < line.count, line[rest + 1] >= UInt8(ascii: "A"),
            line[rest + 1] <= UInt8(ascii: "Z")
        {
            return 4
        }
        if hasPrefix(line, rest, "![CDATA[") { return 5 }
        let nameStart = line[rest] == UInt8(ascii: "/") ? rest + 1 : rest
        if let name = tagName(line, from: nameStart), blockTagNames.contains(lowercased(line, name)) {
            let after = name.upperBound
            if after == line.count || line[after].isWhiteSpace || line[after] == UInt8(ascii: ">")
                || (line[after] == UInt8(ascii: "/") && after + 1 < line.count && line[after + 1] == UInt8(ascii: ">"))
            {
                return 6
            }
        }
        if !interruptingParagraph, let end = completeTag(line, from: start), isBlank(line, from: end) { return 7 }
        return nil
    }

    /// Whether the HTML block of `kind` (1 to 5) ends on this line.
    static func endsHTMLBlock(kind: UInt8, _ line: Line, from start: Int) -> Bool {
        switch kind {
        case 1:
            contains(line, from: start, "</script>", caseInsensitive: true)
                || contains(line, from: start, "</pre>", caseInsensitive: true)
                || contains(line, from: start, "</style>", caseInsensitive: true)
        case 2: contains(line, from: start, "-->")
        case 3: contains(line, from: start, "?>")
        case 4: contains(line, from: start, ">")
        case 5: contains(line, from: start, "]]>")
        default: false
        }
    }

    /// The cells of a GFM table delimiter row (`| --- | :-: |`), or nil if the line is none.
    static func tableDelimiterCells(_ line: Line, _ start: Int) -> Int? {
        var i = start, cells = 0
        if line[i] == UInt8(ascii: "|") { i += 1 }
        while true {
            while i < line.count, line[i].isInlineSpace { i += 1 }
            if i < line.count, line[i] == UInt8(ascii: ":") { i += 1 }
            let dashes = i
            while i < line.count, line[i] == UInt8(ascii: "-") { i += 1 }
            guard i > dashes else { return cells > 0 && isTableBlank(line, from: i) ? cells : nil }
            if i < line.count, line[i] == UInt8(ascii: ":") { i += 1 }
            while i < line.count, line[i].isInlineSpace { i += 1 }
            cells += 1
            guard i < line.count else { return cells }
            guard line[i] == UInt8(ascii: "|") else { return nil }
            i += 1
        }
    }

    /// How many cells a table row splits into: at pipes not escaped by a backslash, with
    /// one pipe at the start and one at the end belonging to no cell.
    static func tableCells(_ line: Line, _ start: Int) -> Int {
        var i = start, cells = 0
        if i < line.count, line[i] == UInt8(ascii: "|") {
            i += 1
            while i < line.count, line[i].isInlineSpace { i += 1 }
        }
        while i < line.count {
            while i < line.count, line[i] != UInt8(ascii: "|") {
                i += line[i] == UInt8(ascii: "\\") && i + 1 < line.count ? 2 : 1
            }
            cells += 1
            guard i < line.count else { break }
            i += 1
            while i < line.count, line[i].isInlineSpace { i += 1 }
        }
        return cells
    }

    /// `[ ]`, `[x]` or `[X]` and white space: a task item's box, where it follows the list
    /// marker that starts a line.
    static func isTaskBox(_ line: Line, _ start: Int) -> Bool {
        guard line.count - start >= 4, line[start] == UInt8(ascii: "["), line[start + 2] == UInt8(ascii: "]") else {
            return false
        }
        let box = line[start + 1]
        return (box == UInt8(ascii: " ") || box == UInt8(ascii: "x") || box == UInt8(ascii: "X"))
            && line[start + 3].isInlineSpace
    }

    static func isBlank(_ line: Line, from start: Int) -> Bool {
        var i = start
        while i < line.count, line[i].isSpaceOrTab { i += 1 }
        return i == line.count
    }

    // MARK: - HTML helpers

    private static let blockTagNames: Set<[UInt8]> = Set(
        [
            "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
            "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
            "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
            "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol",
            "optgroup", "option", "p", "param", "section", "source", "summary", "table", "tbody", "td", "tfoot",
            "th", "thead", "title", "tr", "track", "ul",
        ].map { Array($0.utf8) })

    private static func startsTag1(_ line: Line, _ name: Range<Int>) -> Bool {
        let lower = lowercased(line, name)
        guard lower == Array("script".utf8) || lower == Array("pre".utf8) || lower == Array("style".utf8) else {
            return false
        }
        let after = name.upperBound
        return after == line.count || line[after].isWhiteSpace || line[after] == UInt8(ascii: ">")
    }

    /// An ASCII letter, then letters, digits and `-`.
    private static func tagName(_ line: Line, from start: Int) -> Range<Int>? {
        guard start < line.count, line[start].isASCIILetter else { return nil }
        var i = start + 1
        while i < line.count, line[i].isASCIILetter || line[i].isDigit || line[i] == UInt8(ascii: "-") { i += 1 }
        return start..<i
    }

    /// The end of a complete open tag (with attributes) or closing tag starting at `start`
    /// (the `<`), or nil.
    private static func completeTag(_ line: Line, from start: Int) -> Int? {
        var i = start + 1
        if i < line.count, line[i] == UInt8(ascii: "/") {
            guard let name = tagName(line, from: i + 1) else { return nil }
            i = name.upperBound
            while i < line.count, line[i].isWhiteSpace { i += 1 }
            return i < line.count && line[i] == UInt8(ascii: ">") ? i + 1 : nil
        }
        guard let name = tagName(line, from: i) else { return nil }
        i = name.upperBound
        while true {
            let spaceStart = i
            while i < line.count, line[i].isWhiteSpace { i += 1 }
            guard i < line.count else { return nil }
            if line[i] == UInt8(ascii: ">") { return i + 1 }
            if line[i] == UInt8(ascii: "/") {
                return i + 1 < line.count && line[i + 1] == UInt8(ascii: ">") ? i + 2 : nil
            }
            // An attribute, after white space.
            guard i > spaceStart, line[i].isAttributeNameStart else { return nil }
            i += 1
            while i < line.count,
                line[i].isAttributeNameStart || line[i].isDigit || line[i] == UInt8(ascii: ".")
                    || line[i] == UInt8(ascii: "-")
            { i += 1 }
            var probe = i
            while probe < line.count, line[probe].isWhiteSpace { probe += 1 }
            guard probe < line.count, line[probe] == UInt8(ascii: "=") else { continue }
            probe += 1
            while probe < line.count, line[probe].isWhiteSpace { probe += 1 }
            guard probe < line.count else { return nil }
            let quote = line[probe]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                probe += 1
                while probe < line.count, line[probe] != quote { probe += 1 }
                guard probe < line.count else { return nil }
                i = probe + 1
            } else {
                let valueStart = probe
                while probe < line.count, line[probe].isUnquotedValueByte { probe += 1 }
                guard probe > valueStart else { return nil }
                i = probe
            }
        }
    }

    private static func lowercased(_ line: Line, _ range: Range<Int>) -> [UInt8] {
        range.map { line[$0] >= UInt8(ascii: "A") && line[$0] <= UInt8(ascii: "Z") ? line[$0] + 32 : line[$0] }
    }

    private static func hasPrefix(_ line: Line, _ start: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard line.count - start >= count else { return false }
        let bytes = text.utf8Start
        for k in 0..<count where line[start + k] != bytes[k] { return false }
        return true
    }

    private static func contains(
        _ line: Line, from start: Int, _ text: StaticString, caseInsensitive: Bool = false
    ) -> Bool {
        let count = text.utf8CodeUnitCount
        let bytes = text.utf8Start
        var i = start
        while i + count <= line.count {
            var k = 0
            while k < count {
                var byte = line[i + k]
                if caseInsensitive, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 32 }
                guard byte == bytes[k] else { break }
                k += 1
            }
            if k == count { return true }
            i += 1
        }
        return false
    }

    private static func isTableBlank(_ line: Line, from start: Int) -> Bool {
        var i = start
        while i < line.count, line[i].isInlineSpace { i += 1 }
        return i == line.count
    }
}

extension UInt8 {
    fileprivate var isUnquotedValueByte: Bool {
        switch self {
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "`"):
            false
        default: !isWhiteSpace
        }
    }
    fileprivate var isAttributeNameStart: Bool {
        isASCIILetter || self == UInt8(ascii: "_") || self == UInt8(ascii: ":")
    }
}
