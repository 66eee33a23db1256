/// Classifies the lines of a list file: which are item heads, which are notes of which item,
/// which are prose. The rules are written down in docs/FORMAT.md; this follows them.
///
/// - Complexity: O(lines × nesting depth).
struct ListParser {
    private(set) var roles = LineRoles(count: 0)
    private(set) var nodes: [ItemNode] = []

    private var stack: [Int] = []
    private var pendingBlanks: [Int] = []
    private var lastWasParagraph = false
    private var fence: (byte: UInt8, length: Int, role: LineRole)?
    private var htmlCommentRole: LineRole?
    private var lastHeading: Int?

    static func parse(_ lines: [ListLine]) -> (roles: LineRoles, nodes: [ItemNode]) {
        var parser = ListParser()
        parser.run(lines)
        return (parser.roles, parser.nodes)
    }

    private mutating func run(_ lines: [ListLine]) {
        roles = LineRoles(count: lines.count)
        reserveNodes(lines)
        var index = frontMatterEnd(lines)
        while index < lines.count {
            classify(lines[index], at: index, skippingBOM: index == 0)
            index += 1
        }
        for blank in pendingBlanks { roles[blank] = .prose }
        computeSubtreeEnds()
    }

    /// Parses `lines` as `parse` does, taking what `known` (another version of the file)
    /// already worked out wherever the two agree: `prefix` lines at the start and `suffix` at
    /// the end are the same in both. The result is the one `parse(lines)` gives.
    ///
    /// The parser's whole state after a top-level item's first line is that item and the last
    /// heading seen, so it starts after the last top-level item of the common start (or at the
    /// start), and stops at the first top-level item of the common end that both versions read
    /// as one; the rest is `known`'s, renumbered. Without such an item it parses to the end.
    ///
    /// - Complexity: O(lines that differ + the distance to the items around them), plus one
    ///   pass over every line to copy roles and extents.
    static func parse(
        _ lines: [ListLine], reusing known: ListDocument, prefix: Int, suffix: Int
    ) -> (roles: LineRoles, nodes: [ItemNode]) {
        var parser = ListParser()
        // NB: front matter is found by looking ahead, possibly past the common start.
        let frontMatterEnd = parser.frontMatterEnd(lines)
        guard frontMatterEnd == parser.frontMatterEnd(known.lines) else { return parse(lines) }
        let suffixStart = lines.count - suffix
        let lineShift = lines.count - known.lines.count
        var index: Int
        if let restart = parser.resume(lines, after: known, before: prefix) {
            index = restart
        } else {
            parser.roles = LineRoles(count: lines.count)
            index = frontMatterEnd
        }
        parser.reserveNodes(lines)
        while index < lines.count {
            parser.classify(lines[index], at: index, skippingBOM: index == 0)
            if index >= suffixStart, let node = parser.roles[index].headNode, parser.nodes[node].parent == nil,
                let knownNode = known.roles[index - lineShift].headNode, known.nodes[knownNode].parent == nil
            {
                parser.copyRest(of: known, fromNode: knownNode, asNode: node, lines: lines, lineShift: lineShift)
                break
            }
            index += 1
        }
        for blank in parser.pendingBlanks { parser.roles[blank] = .prose }
        parser.computeSubtreeEnds()
        return (parser.roles, parser.nodes)
    }

    /// Lines of the file being parsed that another parse read in the same order: `count` lines
    /// from `start` are `known`'s from `knownStart` on.
    struct KnownSpan {
        var start: Int
        var known: ListDocument
        var knownStart: Int
        var count: Int
    }

    /// Parses `lines` as `parse` does, taking `known`'s parse of each span that starts with a
    /// line both parses read as a top-level item (the merge puts runs of untouched blocks back).
    ///
    /// After a top-level item's first line the parser's whole state is that item and the last
    /// heading seen (see `resume`), so both parses read alike up to the span's last top-level
    /// item; from there on the lines are classified again, the rest of that item's body included.
    static func parse(_ lines: [ListLine], splicing spans: [KnownSpan]) -> (roles: LineRoles, nodes: [ItemNode]) {
        var parser = ListParser()
        parser.roles = LineRoles(count: lines.count)
        parser.reserveNodes(lines)
        var index = parser.frontMatterEnd(lines)
        var next = spans.firstIndex { $0.start >= index } ?? spans.count
        while index < lines.count {
            parser.classify(lines[index], at: index, skippingBOM: index == 0)
            guard next < spans.count, spans[next].start == index else {
                index += 1
                continue
            }
            let span = spans[next]
            next += 1
            index = parser.copySpan(span, lines: lines) ?? index + 1
        }
        for blank in parser.pendingBlanks { parser.roles[blank] = .prose }
        parser.computeSubtreeEnds()
        return (parser.roles, parser.nodes)
    }

    /// Takes `span.known`'s roles and nodes from the span's first line (just classified) to
    /// its last top-level item, with the state the parser has after that item; returns the
    /// next line to classify, or nil if the span cannot be taken (its first line is no
    /// top-level item in one of the parses, or nothing follows it).
    private mutating func copySpan(_ span: KnownSpan, lines: [ListLine]) -> Int? {
        let known = span.known
        guard let node = roles[span.start].headNode, nodes[node].parent == nil,
            let knownNode = known.roles[span.knownStart].headNode, known.nodes[knownNode].parent == nil
        else { return nil }
        var lastLine = span.knownStart + span.count - 1
        while lastLine > span.knownStart {
            if let last = known.roles[lastLine].headNode, known.nodes[last].parent == nil { break }
            lastLine -= 1
        }
        guard lastLine > span.knownStart, let knownLast = known.roles[lastLine].headNode else { return nil }
        let lineShift = span.start - span.knownStart
        let nodeShift = node - knownNode
        roles.copy(known.roles, lines: (span.knownStart + 1)..<(lastLine + 1), movedBy: lineShift, renumberedBy: nodeShift)
        appendNodes(of: known, (knownNode + 1)..<(knownLast + 1), after: node, lines: lines, lineShift: lineShift)
        // What classifying a top-level item leaves (see `classify`).
        let last = nodes.count - 1
        stack = [last]
        lastWasParagraph = true
        lastHeading = nodes[last].headingLine
        return lastLine + lineShift + 1
    }

    /// Takes `known`'s parse up to and including its last top-level item before line `end`,
    /// with the state the parser had right after it; returns the next line to classify.
    private mutating func resume(_ lines: [ListLine], after known: ListDocument, before end: Int) -> Int? {
        var line = min(end, lines.count) - 1
        while line >= 0 {
            if let node = known.roles[line].headNode, known.nodes[node].parent == nil { break }
            line -= 1
        }
        guard line >= 0, let node = known.roles[line].headNode else { return nil }
        roles = LineRoles(count: lines.count)
        roles.copy(known.roles, lines: 0..<(line + 1), movedBy: 0, renumberedBy: 0)
        nodes = Array(known.nodes[...node])
        for index in nodes.indices { nodes[index].subtreeEnd = nodes[index].line + 1 }
        // What classifying a top-level item leaves (see `classify`): its own stack, no blank
        // line waiting, a paragraph open, no fence or comment block.
        stack = [node]
        lastWasParagraph = true
        lastHeading = nodes[node].headingLine
        return line + 1
    }

    /// After a top-level item (`known`'s node `knownNode`, this parse's node `node`) both parses
    /// continue alike: `known`'s roles and nodes from there, renumbered and moved.
    private mutating func copyRest(of known: ListDocument, fromNode knownNode: Int, asNode node: Int, lines: [ListLine], lineShift: Int) {
        let syncLine = nodes[node].line
        let knownSyncLine = syncLine - lineShift
        let nodeShift = node - knownNode
        roles.copy(known.roles, lines: (knownSyncLine + 1)..<known.lines.count, movedBy: lineShift, renumberedBy: nodeShift)
        appendNodes(of: known, (knownNode + 1)..<known.nodes.count, after: node, lines: lines, lineShift: lineShift)
        pendingBlanks.removeAll()
    }

    /// Appends `known`'s items `range`, which follow the top-level item this parse read as
    /// `node` (known's `range.lowerBound - 1`), `lineShift` lines further on: renumbered, with
    /// headings above that item taken from this parse.
    private mutating func appendNodes(of known: ListDocument, _ range: Range<Int>, after node: Int, lines: [ListLine], lineShift: Int) {
        let nodeShift = node - (range.lowerBound - 1)
        let knownSyncLine = nodes[node].line - lineShift
        let headingAtSync = nodes[node].headingLine
        let knownLines = known.lines
        nodes.reserveCapacity(nodes.count + range.count)
        for old in known.nodes[range] {
            let line = old.line + lineShift
            // NB: a line's offsets are into its file's bytes; the same line may sit elsewhere.
            let byteShift = lines[line].content.startIndex - knownLines[old.line].content.startIndex
            let heading = old.headingLine.flatMap { $0 > knownSyncLine ? $0 + lineShift : nil } ?? headingAtSync
            nodes.append(ItemNode(
                head: old.head.shifted(by: byteShift), line: line, parent: old.parent.map { $0 + nodeShift },
                subtreeEnd: line + 1, headingLine: heading))
        }
    }

    /// Room for an item on every line, once: grown by doubling, a large file's items were
    /// copied and their pages faulted in twice over. Pages past the items are never touched.
    private mutating func reserveNodes(_ lines: [ListLine]) {
        nodes.reserveCapacity(lines.count)
    }

    private mutating func classify(_ line: ListLine, at index: Int, skippingBOM: Bool) {
        let content = line.content
        var start = content.startIndex
        if skippingBOM, content.count >= 3, content[start] == 0xEF, content[start + 1] == 0xBB, content[start + 2] == 0xBF {
            start += 3
        }
        if let open = fence {
            roles[index] = open.role
            if closesFence(content, from: start, open.byte, open.length) { fence = nil }
            return
        }
        if let role = htmlCommentRole {
            roles[index] = role
            if contains(content, from: start, Array("-->".utf8)) { htmlCommentRole = nil }
            return
        }
        let (indent, textStart) = leadingIndent(content, from: start)
        if textStart == content.endIndex {
            pendingBlanks.append(index)
            lastWasParagraph = false
            return
        }

        let first = content[textStart]
        if first != UInt8(ascii: ">"), let head = TaskHead.parse(content, from: start),
            stack.isEmpty ? head.markerColumn <= 3 : head.markerColumn < nodes[stack[stack.count - 1]].head.contentColumn + 4
        {
            while let top = stack.last, head.markerColumn < nodes[top].head.contentColumn { stack.removeLast() }
            let parent = stack.last
            flushBlanks(to: parent.map(LineRole.note) ?? .prose)
            let node = nodes.count
            nodes.append(ItemNode(head: head, line: index, parent: parent, subtreeEnd: index + 1, headingLine: lastHeading))
            roles[index] = .head(node)
            stack.append(node)
            lastWasParagraph = true
            return
        }

        // Not an item: a note of the innermost open item that can hold it, or prose.
        let lazy = lastWasParagraph && pendingBlanks.isEmpty && !stack.isEmpty && isPlainText(content, textStart)
        if !lazy {
            while let top = stack.last, indent < nodes[top].head.contentColumn { stack.removeLast() }
        }
        let role = stack.last.map(LineRole.note) ?? .prose
        flushBlanks(to: role)
        roles[index] = role

        if let (byte, length) = fenceOpening(content, textStart) {
            fence = (byte, length, role)
            lastWasParagraph = false
        } else if startsHTMLCommentBlock(content, textStart) {
            htmlCommentRole = role
            lastWasParagraph = false
        } else if first == UInt8(ascii: "#") {
            if stack.isEmpty { lastHeading = index }
            lastWasParagraph = false
        } else {
            lastWasParagraph = first != UInt8(ascii: ">")
        }
    }

    private mutating func flushBlanks(to role: LineRole) {
        // NB: called for every line, and there is rarely anything to flush: emptying an empty
        // array was ~50 instructions a line.
        guard !pendingBlanks.isEmpty else { return }
        for blank in pendingBlanks { roles[blank] = role }
        pendingBlanks.removeAll(keepingCapacity: true)
    }

    private mutating func computeSubtreeEnds() {
        for (index, role) in roles.enumerated() {
            var owner = role.owner
            while let node = owner {
                nodes[node].subtreeEnd = max(nodes[node].subtreeEnd, index + 1)
                owner = nodes[node].parent
            }
        }
    }

    /// YAML front matter: `---` on the first line, closed by `---` or `...`. Never holds items.
    private func frontMatterEnd(_ lines: [ListLine]) -> Int {
        guard let first = lines.first else { return 0 }
        var content = first.content
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        guard isExactly(content, "---") else { return 0 }
        for index in 1..<lines.count where isExactly(lines[index].content, "---") || isExactly(lines[index].content, "...") {
            return index + 1
        }
        return 0
    }

    private func isExactly(_ content: ArraySlice<UInt8>, _ text: String) -> Bool {
        let end = trimmedEnd(content, start: content.startIndex, end: content.endIndex)
        return content[content.startIndex..<end].elementsEqual(text.utf8)
    }

    private func fenceOpening(_ content: ArraySlice<UInt8>, _ start: Int) -> (UInt8, Int)? {
        let byte = content[start]
        guard byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~") else { return nil }
        var i = start
        while i < content.endIndex, content[i] == byte { i += 1 }
        guard i - start >= 3 else { return nil }
        // A backtick fence's info string may not hold a backtick.
        if byte == UInt8(ascii: "`"), content[i...].contains(byte) { return nil }
        return (byte, i - start)
    }

    private func closesFence(_ content: ArraySlice<UInt8>, from start: Int, _ byte: UInt8, _ length: Int) -> Bool {
        var (_, i) = leadingIndent(content, from: start)
        let runStart = i
        while i < content.endIndex, content[i] == byte { i += 1 }
        return i - runStart >= length && trimmedEnd(content, start: i, end: content.endIndex) == i
    }

    private func startsHTMLCommentBlock(_ content: ArraySlice<UInt8>, _ start: Int) -> Bool {
        guard content[start...].starts(with: Array("<!--".utf8)) else { return false }
        return !contains(content, from: start + 4, Array("-->".utf8))
    }

    private func contains(_ content: ArraySlice<UInt8>, from start: Int, _ needle: [UInt8]) -> Bool {
        guard content.endIndex - start >= needle.count else { return false }
        var i = start
        while i + needle.count <= content.endIndex {
            if content[i] == needle[0], content[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// Text that continues a paragraph lazily (CommonMark): not the start of another block.
    private func isPlainText(_ content: ArraySlice<UInt8>, _ start: Int) -> Bool { Self.isPlainText(content, start) }

    static func isPlainText(_ content: ArraySlice<UInt8>, _ start: Int) -> Bool {
        let byte = content[start]
        switch byte {
        case UInt8(ascii: "#"), UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "|"), UInt8(ascii: "`"), UInt8(ascii: "~"):
            return false
        case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "_"), UInt8(ascii: "="):
            let next = start + 1
            return next < content.endIndex && !content[next].isSpaceOrTab && content[next] != byte
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var i = start
            while i < content.endIndex, content[i] >= UInt8(ascii: "0") && content[i] <= UInt8(ascii: "9") { i += 1 }
            guard i < content.endIndex, content[i] == UInt8(ascii: ".") || content[i] == UInt8(ascii: ")") else { return true }
            return i + 1 < content.endIndex && !content[i + 1].isSpaceOrTab
        default:
            return true
        }
    }
}
