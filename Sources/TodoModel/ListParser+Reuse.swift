/// Parses that take another parse's pieces where the lines agree: an edited file from its
/// last version, a merged file from the versions its runs of lines came from. Each gives
/// exactly what `ListParser.parse(_:)` gives.
///
/// An *outermost item* is a task item no block holds (`ItemNode.isAtDocumentLevel`): once
/// its first line is classified, the parser's whole state is that item and the last heading
/// seen (`enterItem`), so two parses agree from such a line on for as long as their lines do.
extension ListParser {
    /// Parses `lines` as `parse` does, taking what `known` (another version of the file)
    /// already worked out wherever the two agree: `prefix` lines at the start and `suffix` at
    /// the end are the same in both. The result is the one `parse(lines)` gives.
    ///
    /// The parser's whole state after an outermost item's first line is that item and the last
    /// heading seen, so it starts after the last outermost item of the common start (or at the
    /// start), and stops at the first outermost item of the common end that both versions read
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
            parser.classify(lines, at: index, skippingBOM: index == 0)
            if index >= suffixStart, let node = parser.roles[index].headNode, parser.nodes[node].isAtDocumentLevel,
                let knownNode = known.roles[index - lineShift].headNode, known.nodes[knownNode].isAtDocumentLevel
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
    /// line both parses read as an outermost item (the merge puts runs of untouched blocks back).
    ///
    /// After an outermost item's first line the parser's whole state is that item and the last
    /// heading seen (see `resume`), so both parses read alike up to the span's last top-level
    /// item; from there on the lines are classified again, the rest of that item's body included.
    static func parse(_ lines: [ListLine], splicing spans: [KnownSpan]) -> (roles: LineRoles, nodes: [ItemNode]) {
        var parser = ListParser()
        parser.roles = LineRoles(count: lines.count)
        parser.reserveNodes(lines)
        var index = parser.frontMatterEnd(lines)
        var next = spans.firstIndex { $0.start >= index } ?? spans.count
        while index < lines.count {
            parser.classify(lines, at: index, skippingBOM: index == 0)
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
    /// its last outermost item, with the state the parser has after that item; returns the
    /// next line to classify, or nil if the span cannot be taken (its first line is no
    /// outermost item in one of the parses, or nothing follows it).
    private mutating func copySpan(_ span: KnownSpan, lines: [ListLine]) -> Int? {
        let known = span.known
        guard let node = roles[span.start].headNode, nodes[node].isAtDocumentLevel,
            let knownNode = known.roles[span.knownStart].headNode, known.nodes[knownNode].isAtDocumentLevel
        else { return nil }
        var lastLine = span.knownStart + span.count - 1
        while lastLine > span.knownStart {
            if let last = known.roles[lastLine].headNode, known.nodes[last].isAtDocumentLevel { break }
            lastLine -= 1
        }
        guard lastLine > span.knownStart, let knownLast = known.roles[lastLine].headNode else { return nil }
        let lineShift = span.start - span.knownStart
        let nodeShift = node - knownNode
        roles.copy(
            known.roles, lines: (span.knownStart + 1)..<(lastLine + 1), movedBy: lineShift, renumberedBy: nodeShift)
        appendNodes(of: known, (knownNode + 1)..<(knownLast + 1), after: node, lines: lines, lineShift: lineShift)
        enterItem(nodes.count - 1, lines: lines)
        return lastLine + lineShift + 1
    }

    /// Takes `known`'s parse up to and including its last outermost item before line `end`,
    /// with the state the parser had right after it; returns the next line to classify.
    private mutating func resume(_ lines: [ListLine], after known: ListDocument, before end: Int) -> Int? {
        var line = min(end, lines.count) - 1
        while line >= 0 {
            if let node = known.roles[line].headNode, known.nodes[node].isAtDocumentLevel { break }
            line -= 1
        }
        guard line >= 0, let node = known.roles[line].headNode else { return nil }
        roles = LineRoles(count: lines.count)
        roles.copy(known.roles, lines: 0..<(line + 1), movedBy: 0, renumberedBy: 0)
        nodes = Array(known.nodes[...node])
        for index in nodes.indices { nodes[index].subtreeEnd = nodes[index].line + 1 }
        enterItem(node, lines: lines)
        return line + 1
    }

    /// After an outermost item (`known`'s node `knownNode`, this parse's node `node`) both parses
    /// continue alike: `known`'s roles and nodes from there, renumbered and moved.
    private mutating func copyRest(
        of known: ListDocument, fromNode knownNode: Int, asNode node: Int, lines: [ListLine], lineShift: Int
    ) {
        let syncLine = nodes[node].line
        let knownSyncLine = syncLine - lineShift
        let nodeShift = node - knownNode
        roles.copy(
            known.roles, lines: (knownSyncLine + 1)..<known.lines.count, movedBy: lineShift, renumberedBy: nodeShift)
        appendNodes(of: known, (knownNode + 1)..<known.nodes.count, after: node, lines: lines, lineShift: lineShift)
        pendingBlanks.removeAll()
    }

    /// Appends `known`'s items `range`, which follow the outermost item this parse read as
    /// `node` (known's `range.lowerBound - 1`), `lineShift` lines further on: renumbered, with
    /// headings above that item taken from this parse.
    private mutating func appendNodes(
        of known: ListDocument, _ range: Range<Int>, after node: Int, lines: [ListLine], lineShift: Int
    ) {
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
            nodes.append(
                ItemNode(
                    head: old.head.shifted(by: byteShift), line: line, parent: old.parent.map { $0 + nodeShift },
                    atDocumentLevel: old.isAtDocumentLevel, subtreeEnd: line + 1, headingLine: heading))
        }
    }
}
