/// Whole items as blocks of lines (the item, its notes and everything nested under it), taken
/// out of one place and put in at another: what moving, removing and restoring an item do.
extension ListDocument {
    /// An item's block: its lines, and the indentation of its first line (the block's left edge).
    public struct Block: Hashable, Sendable {
        public var lines: [ListLine]
        var indent: [UInt8]
        /// The block ended its file without a final line ending; put back into an empty file,
        /// it ends it the same way.
        var endedFile = false
    }

    /// Where a block goes within one file.
    enum Spot {
        case before(ItemID)
        case after(ItemID)
        /// As the last child of the item.
        case under(ItemID)
        /// As the first child of the item.
        case firstUnder(ItemID)
        /// After the file's last top-level item (or at its end).
        case end
        /// Before the line (or at the end, past the last line).
        case atLine(Int)
    }

    /// The block of the item, or nil if the file does not hold it.
    func block(of id: ItemID) -> Block? {
        guard let node = node(for: id) else { return nil }
        let range = subtree(ofNode: node)
        var lines = Array(self.lines[range])
        // A byte order mark belongs to the file, not to its first item.
        if range.lowerBound == 0, lines[0].content.starts(with: Self.bom) { lines[0].content = lines[0].content.dropFirst(3) }
        // The last line of a file may be unterminated; inside the block it must be ended.
        let endedFile = lines[lines.count - 1].ending == .none
        if endedFile { lines[lines.count - 1].ending = dominantEnding }
        return Block(lines: lines, indent: leadingWhiteSpace(self.lines[range.lowerBound].content), endedFile: endedFile)
    }

    /// Removes the item's block; returns it.
    mutating func takeBlock(of id: ItemID) throws(EditError) -> Block {
        guard let node = node(for: id), let block = block(of: id) else { throw .noSuchItem(id) }
        let range = subtree(ofNode: node)
        let endedLast = range.upperBound == lines.count && lines[range.upperBound - 1].ending == .none
        let hadBOM = range.lowerBound == 0 && lines[0].content.starts(with: Self.bom)
        replaceLines(range, with: [])
        // The file's last line had no ending: the new last line keeps it that way.
        if endedLast, let last = lines.indices.last {
            var line = lines[last]
            line.ending = .none
            replaceLines(last..<(last + 1), with: [line])
        }
        if hadBOM {
            let first = lines.first.map { ListLine(content: ArraySlice(Self.bom + $0.content), ending: $0.ending) }
            replaceLines(0..<min(1, lines.count), with: [first ?? ListLine(content: ArraySlice(Self.bom), ending: .none)])
        }
        return block
    }

    /// Puts a block at `spot`, re-indented to the depth it lands at, with this file's line ending.
    /// `restoring`: the block comes back to where it was taken from, with its own indentation.
    mutating func put(_ block: Block, at spot: Spot, restoring: Bool = false) throws(EditError) {
        var (index, indent) = try location(of: spot)
        if restoring { indent = block.indent }
        // A file with no ended line has no convention yet: the block keeps its own endings.
        let fileEnding: LineEnding? = lines.contains { $0.ending != .none } ? dominantEnding : nil
        let ending = fileEnding ?? block.lines.first?.ending ?? .lf
        var newLines = block.lines.map { line in
            ListLine(content: Self.reindent(line.content, from: block.indent, to: indent)[...], ending: fileEnding ?? line.ending)
        }
        if !restoring, let first = newLines.first, let head = TaskHead.parse(first.content, from: first.content.startIndex) {
            // Lines below that would read as the new item's notes (indented to its text) stay
            // outside it: the block goes after them.
            index = endOfLinesIndented(from: index, atLeast: head.contentColumn)
        }
        let blockItems = ListDocument(path: path, lines: newLines).nodeCount
        var range = index..<index
        if lines.isEmpty, block.endedFile { newLines[newLines.count - 1].ending = .none }
        if index == 0, let first = lines.first, first.content.starts(with: Self.bom) {
            // The mark stays first in the file: it moves onto the block (a line of nothing but
            // the mark, left by taking the file's only item, goes).
            newLines[0].content = ArraySlice(Self.bom + newLines[0].content)
            let rest = ListLine(content: first.content.dropFirst(3), ending: first.ending)
            if rest.content.isEmpty, rest.ending == .none {
                range = 0..<1
                if lines.count == 1, block.endedFile { newLines[newLines.count - 1].ending = .none }
            } else {
                range = 0..<1
                newLines.append(rest)
            }
        }
        if index > 0, lines[index - 1].ending == .none {
            // Joining onto an unterminated last line: end it, and leave the new last line unterminated.
            range = (index - 1)..<index
            newLines.insert(ListLine(content: lines[index - 1].content, ending: ending), at: 0)
            newLines[newLines.count - 1].ending = .none
        }
        let before = self
        replaceLines(range, with: newLines)
        // Lines around the spot may take the block in (an unclosed code block or HTML block in
        // the notes above it): then it would be no item at all, and the edit is refused.
        if nodeCount != before.nodeCount + blockItems {
            self = before
            throw .swallowed(file: path, line: index + 1)
        }
    }

    /// The line a spot puts a block before, and the indentation it gets there.
    private func location(of spot: Spot) throws(EditError) -> (Int, [UInt8]) {
        switch spot {
        case .end:
            // Among the top-level items, indented as the last of them.
            guard let last = topLevelNodes.last else { return (lines.count, []) }
            return (subtree(ofNode: last).upperBound, leadingWhiteSpace(lines[nodeLine(last)].content))
        case .atLine(let line):
            return (min(max(0, line), lines.count), [])
        case .before(let id), .after(let id):
            guard let node = node(for: id) else { throw .noSuchItem(id) }
            let indent = leadingWhiteSpace(lines[nodeLine(node)].content)
            if case .before = spot { return (nodeLine(node), indent) }
            return (subtree(ofNode: node).upperBound, indent)
        case .under(let id), .firstUnder(let id):
            guard let node = node(for: id) else { throw .noSuchItem(id) }
            let children = children(ofNode: node)
            let indent = children.first.map { leadingWhiteSpace(lines[nodeLine($0)].content) }
                ?? leadingWhiteSpace(lines[nodeLine(node)].content)
                + Array(repeating: UInt8(ascii: " "), count: max(2, contentColumn(ofNode: node) - leadingColumns(lines[nodeLine(node)].content)))
            if case .firstUnder = spot, let first = children.first { return (nodeLine(first), indent) }
            return (subtree(ofNode: node).upperBound, indent)
        }
    }

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Where a new item with text at `column` can go at or after `index` without taking the
    /// lines below it into its body: past lines indented to its text (blank lines count with
    /// what follows them) and past a paragraph that would continue it lazily.
    private func endOfLinesIndented(from index: Int, atLeast column: Int) -> Int {
        var end = index
        while end < lines.count {
            var probe = end
            while probe < lines.count, lines[probe].content.allSatisfy(\.isSpaceOrTab) { probe += 1 }
            guard probe < lines.count else { return end }
            let content = lines[probe].content
            let (columns, textStart) = leadingIndent(content, from: content.startIndex)
            if columns >= column {
                end = probe + 1
            } else if probe == end, ListParser.isPlainText(content, textStart), TaskHead.parse(content, from: content.startIndex) == nil {
                // Right below the item, with no blank line between: it would continue the
                // item's text. The whole paragraph stays before the item.
                end = probe + 1
                while end < lines.count, !lines[end].content.allSatisfy(\.isSpaceOrTab),
                    TaskHead.parse(lines[end].content, from: lines[end].content.startIndex) == nil
                {
                    end += 1
                }
            } else {
                return end
            }
        }
        return end
    }

    private func leadingWhiteSpace(_ content: ArraySlice<UInt8>) -> [UInt8] { Array(content.prefix { $0.isSpaceOrTab }) }

    private func leadingColumns(_ content: ArraySlice<UInt8>) -> Int { leadingIndent(content, from: content.startIndex).0 }

    /// A block line moved from under `old` indentation to under `new`, keeping its columns
    /// relative to the block (tabs count to the next multiple of 4, as the parser reads them,
    /// and become spaces): blank lines stay blank, lines less indented than the block (lazy
    /// continuation) lose what they have.
    static func reindent(_ content: ArraySlice<UInt8>, from old: [UInt8], to new: [UInt8]) -> [UInt8] {
        if content.allSatisfy(\.isSpaceOrTab) || old == new { return Array(content) }
        let oldColumns = leadingIndent(old[...], from: 0).columns
        let (columns, textStart) = leadingIndent(content, from: content.startIndex)
        let relative = max(0, columns - oldColumns)
        if content.starts(with: old), !content[(content.startIndex + old.count)..<textStart].contains(0x09) {
            return new + content.dropFirst(old.count)
        }
        return new + Array(repeating: UInt8(ascii: " "), count: relative) + content[textStart...]
    }
}
