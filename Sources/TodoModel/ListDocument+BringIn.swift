extension ListDocument {
    /// What `local` brings into this version of the file (the remote's, when
    /// `todosync init DIR --remote URL` finds a file of the same name in DIR).
    public struct BroughtIn: Sendable {
        public var document: ListDocument
        /// The titles of the items appended.
        public var items: [String]
        /// How many lines of text (not items) were appended.
        public var textLines: Int
    }

    /// This document with what `local` holds that it lacks appended, after a blank line, in
    /// `local`'s order: each item (with its notes and what is nested under it) that this holds
    /// nowhere alike, and each line of text this holds nowhere. Compared without id comments,
    /// indentation and trailing white space. Nothing doubled, nothing lost.
    public func bringingIn(_ local: ListDocument) -> BroughtIn {
        var blocks = Set<[String]>()
        for node in nodes.indices { blocks.insert(normalizedLines(subtree(ofNode: node))) }
        // Each line here with its id comment and without: what is an item in one file may be
        // text in the other (inside front matter, after a byte-order mark that is no longer
        // the file's first), and a line matches either way.
        let texts = normalizedLines(lines.indices)
        let raw = lines.indices.map(rawLine)
        var starts: [String: [Int]] = [:]
        for index in lines.indices {
            starts[texts[index], default: []].append(index)
            if raw[index] != texts[index] { starts[raw[index], default: []].append(index) }
        }
        // An item is here already if an item here is alike, or its lines stand here in a row
        // (each with its id comment or without, on either side).
        func isHere(_ range: Range<Int>) -> Bool {
            let block = local.normalizedLines(range), written = range.map(local.rawLine)
            if blocks.contains(block) { return true }
            let candidates = Set((starts[block[0]] ?? []) + (starts[written[0]] ?? []))
            return candidates.contains { start in
                start + block.count <= lines.count
                    && block.indices.allSatisfy { offset in
                        let here = [texts[start + offset], raw[start + offset]]
                        return here.contains(block[offset]) || here.contains(written[offset])
                    }
            }
        }
        var appended: [ListLine] = [], items: [String] = [], textLines = 0
        var blankPending = false
        // A blank line ends as the line before it does (after a lone CR, an LF would make one
        // CRLF line end of the two).
        func blank(after line: ListLine) -> ListLine {
            ListLine(content: [], ending: line.ending == .none ? .lf : line.ending)
        }
        func append(_ range: Range<Int>) {
            if blankPending, let last = appended.last { appended.append(blank(after: last)) }
            blankPending = false
            appended += local.lines[range]
        }
        var index = 0
        while index < local.lines.count {
            if case .head(let node) = local.roles[index] {
                let range = local.subtree(ofNode: node)
                if !isHere(range) {
                    append(range)
                    items.append(local.title(ofNode: node))
                }
                index = range.upperBound
                continue
            }
            let text = local.normalizedLine(index)
            if text.isEmpty {
                blankPending = true
            } else if starts[text] == nil, starts[local.rawLine(index)] == nil {
                append(index..<(index + 1))
                textLines += 1
            }
            index += 1
        }
        guard !appended.isEmpty else { return BroughtIn(document: self, items: [], textLines: 0) }
        var result = lines
        if let last = result.indices.last {
            if result[last].ending == .none { result[last].ending = .lf }
            if !result[last].content.allSatisfy(\.isSpaceOrTab) { result.append(blank(after: result[last])) }
        }
        if let last = appended.indices.last, appended[last].ending == .none { appended[last].ending = .lf }
        return BroughtIn(
            document: ListDocument(path: path, lines: result + appended), items: items, textLines: textLines)
    }

    /// The lines of `range`, each as `normalizedLine` gives it.
    private func normalizedLines(_ range: Range<Int>) -> [String] {
        range.map(normalizedLine)
    }

    /// A line without its id comment (on an item's line), indentation and trailing white space.
    private func normalizedLine(_ index: Int) -> String {
        var content = Array(lines[index].content)
        if case .head(let node) = roles[index], let comment = idComment(ofNode: node) {
            let start = lines[index].content.startIndex
            content.removeSubrange((comment.range.lowerBound - start)..<(comment.range.upperBound - start))
        }
        return trimmed(String(decoding: content, as: UTF8.self))
    }

    /// A line without indentation and trailing white space, its id comment kept.
    private func rawLine(_ index: Int) -> String {
        trimmed(String(decoding: lines[index].content, as: UTF8.self))
    }

    private func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
