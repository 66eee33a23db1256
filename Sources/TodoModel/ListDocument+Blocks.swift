/// Whole items as blocks of lines (the item, its notes and everything nested under it), taken
/// out of one place and put in at another: what moving, removing and restoring an item do.
///
/// Every take and put is checked against the item tree it intends (`ItemTreeCheck`): the
/// block's items arrive where asked, nested as they were, and no other item moves, changes or
/// stops being an item; otherwise the edit is refused and the document is left as it was.
extension ListDocument {
    /// An item's block: its lines, and the indentation of its first line (the block's left edge).
    public struct Block: Hashable, Sendable {
        public var lines: [ListLine]
        var indent: [UInt8]
        /// The block ended its file without a final line ending; put back into an empty file,
        /// it ends it the same way.
        var endedFile = false
        /// Taking the block renumbered the item after it (`takeBlock`): that item's first line as
        /// it was, which restoring the block puts back where the line still reads as renumbered.
        var renumberedNext: [UInt8]?
        var renumberedTo: [UInt8]?
        /// The block's items as the document it came from read them (depths from 0): what
        /// putting it anywhere must give. Not part of the value: it follows from the lines.
        var tree: [ItemTreeCheck.Node] = []

        public static func == (lhs: Block, rhs: Block) -> Bool {
            lhs.lines == rhs.lines && lhs.indent == rhs.indent && lhs.endedFile == rhs.endedFile
                && lhs.renumberedNext == rhs.renumberedNext && lhs.renumberedTo == rhs.renumberedTo
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(lines)
            hasher.combine(indent)
            hasher.combine(endedFile)
            hasher.combine(renumberedNext)
            hasher.combine(renumberedTo)
        }
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
        if range.lowerBound == 0, lines[0].content.starts(with: Self.bom) {
            lines[0].content = lines[0].content.dropFirst(3)
        }
        // The last line of a file may be unterminated; inside the block it must be ended.
        let endedFile = lines[lines.count - 1].ending == .none
        if endedFile { lines[lines.count - 1].ending = dominantEnding }
        return Block(
            lines: lines, indent: leadingWhiteSpace(self.lines[range.lowerBound].content), endedFile: endedFile,
            tree: subtreeNodes(ofNode: node))
    }

    /// The intended-tree nodes of the item's subtree, depths counted from the item.
    func subtreeNodes(ofNode node: Int) -> [ItemTreeCheck.Node] {
        var result = [ItemTreeCheck.Node(id: id(ofNode: node), depth: 0, source: self, sourceNode: node)]
        var depth: [Int: Int] = [node: 0]
        var next = node + 1
        while next < nodeCount, nodeLine(next) < subtree(ofNode: node).upperBound {
            let level = parent(ofNode: next).flatMap { depth[$0] }.map { $0 + 1 } ?? 1
            depth[next] = level
            result.append(ItemTreeCheck.Node(id: id(ofNode: next), depth: level, source: self, sourceNode: next))
            next += 1
        }
        return result
    }

    /// Removes the item's block; returns it. Where the item after it would no longer read as an
    /// item (an ordered marker other than `1.` cannot interrupt a paragraph), that item is
    /// renumbered (`renumberings`); nothing else is.
    mutating func takeBlock(of id: ItemID) throws(EditError) -> Block {
        guard let node = node(for: id), var block = block(of: id) else { throw .noSuchItem(id) }
        let before = self
        var failure: EditError?
        for renumbered in [nil] + renumberings(afterRemoving: node) {
            do {
                try take(node, renumbering: renumbered)
                block.renumberedNext = renumbered.map { Array(before.lines[$0.line].content) }
                block.renumberedTo = renumbered?.content
                return block
            } catch {
                self = before
                if failure == nil { failure = error }
            }
        }
        throw failure ?? .noSuchItem(id)
    }

    private mutating func take(_ node: Int, renumbering renumbered: (line: Int, content: [UInt8])?) throws(EditError) {
        let before = self
        let range = subtree(ofNode: node)
        var newLines = lines
        let endedLast = range.upperBound == lines.count && lines[range.upperBound - 1].ending == .none
        let hadBOM = range.lowerBound == 0 && lines[0].content.starts(with: Self.bom)
        if let renumbered { newLines[renumbered.line].content = renumbered.content[...] }
        newLines.removeSubrange(range)
        // The file's last line had no ending: the new last line keeps it that way.
        if endedLast, let last = newLines.indices.last { newLines[last].ending = .none }
        if hadBOM {
            if let first = newLines.first {
                newLines[0].content = ArraySlice(Self.bom + first.content)
            } else {
                newLines = [ListLine(content: ArraySlice(Self.bom), ending: .none)]
            }
        }
        setLines(newLines)
        var intended = ItemTreeCheck.Intended(before)
        intended.nodes.removeSubrange(intended.subtree(of: node))
        if let (difference, line) = ItemTreeCheck.difference(self, from: intended) {
            self = before
            throw .wouldChange(file: path, line: line, difference, doing: "removing \"\(before.title(ofNode: node))\"")
        }
    }

    /// The document without the items that carry ids (each with its notes and the lines nested
    /// in it): the text a file held before todosync's items came into it. One pass over the
    /// lines; the byte order mark and a missing final line ending stay as the file had them.
    public func removingIdentifiedItems() -> ListDocument {
        var taken = [Bool](repeating: false, count: lines.count)
        var node = 0
        while node < nodeCount {
            guard id(ofNode: node) != nil else {
                node += 1
                continue
            }
            for line in subtree(ofNode: node) { taken[line] = true }
            node += subtreeNodeCount(node)
        }
        var kept = lines.indices.filter { !taken[$0] }.map { lines[$0] }
        if lines.first?.content.starts(with: Self.bom) == true, taken[0] {
            if kept.isEmpty {
                kept = [ListLine(content: ArraySlice(Self.bom), ending: .none)]
            } else {
                kept[0].content = ArraySlice(Self.bom + kept[0].content)
            }
        }
        if lines.last?.ending == LineEnding.none, taken[lines.count - 1], let last = kept.indices.last {
            kept[last].ending = .none
        }
        return ListDocument(path: path, lines: kept)
    }

    /// Puts a block at `spot`, re-indented to the depth it lands at, with this file's line
    /// ending and the list marker its new siblings use (the next number in an ordered list).
    /// `restoring`: the block comes back to where it was taken from, as it was.
    mutating func put(_ block: Block, at spot: Spot, restoring: Bool = false) throws(EditError) {
        let before = self
        let place = try location(of: spot)
        // With no sibling to follow, a block keeps its kind of marker; an ordered one starts at 1.
        let own = block.lines.first.flatMap { ListMarker($0.content) }.map {
            ListMarker.first(like: $0.bytes) ?? $0.bytes
        }
        let marker = restoring ? nil : place.marker ?? own
        var markers = [marker]
        // An ordered item other than `1.` cannot interrupt a paragraph; `1.` continues the list.
        if let marker, let one = ListMarker.first(like: marker), one != marker { markers.append(one) }
        var failure: EditError?
        // An HTML block ends at a blank line: past the blank lines after the spot, it is closed.
        for marker in markers {
            for pastBlankLines in restoring ? [false] : [false, true] {
                do {
                    try put(block, at: place, marker: marker, restoring: restoring, pastBlankLines: pastBlankLines)
                    return
                } catch {
                    self = before
                    if failure == nil { failure = error }
                }
            }
        }
        // NB: markers holds at least one entry, so a failure was recorded.
        throw failure ?? .noSuchItem(block.tree.first?.id ?? ItemID(high: 0, low: 0))
    }

    private mutating func put(
        _ block: Block, at place: Location, marker: [UInt8]?, restoring: Bool, pastBlankLines: Bool
    ) throws(EditError) {
        let before = self
        var index = place.index
        let indent = restoring ? block.indent : place.indent
        var blockLines = block.lines
        if let marker, let refit = Self.refitting(blockLines, marker: marker) { blockLines = refit }
        // A file with no ended line has no convention yet: the block keeps its own endings.
        let fileEnding: LineEnding? = lines.contains { $0.ending != .none } ? dominantEnding : nil
        let ending = fileEnding ?? block.lines.first?.ending ?? .lf
        var newLines = blockLines.map { line in
            ListLine(
                content: Self.reindent(line.content, from: block.indent, to: indent)[...],
                ending: fileEnding ?? line.ending)
        }
        if !restoring, let first = newLines.first,
            let head = TaskHead.parse(first.content, from: first.content.startIndex)
        {
            // Lines below that would read as the new item's notes (indented to its text) stay
            // outside it: the block goes after them.
            index = endOfLinesIndented(from: index, atLeast: head.contentColumn)
        }
        if pastBlankLines {
            let start = index
            while index < lines.count, lines[index].content.allSatisfy(\.isSpaceOrTab) { index += 1 }
            // Nothing to skip: the same try as without.
            if index == start || index == lines.count {
                throw .noSuchItem(block.tree.first?.id ?? ItemID(high: 0, low: 0))
            }
        }
        // A file left holding nothing but the mark (its only item taken): the end is its start.
        if lines.count == 1, lines[0].content.elementsEqual(Self.bom), lines[0].ending == .none { index = 0 }
        var range = index..<index
        if lines.isEmpty, block.endedFile { newLines[newLines.count - 1].ending = .none }
        if index == 0, let first = lines.first, first.content.starts(with: Self.bom) {
            // The mark stays first in the file: it moves onto the block (a line of nothing but
            // the mark, left by taking the file's only item, goes).
            newLines[0].content = ArraySlice(Self.bom + newLines[0].content)
            let rest = ListLine(content: first.content.dropFirst(3), ending: first.ending)
            range = 0..<1
            if rest.content.isEmpty, rest.ending == .none {
                if lines.count == 1, block.endedFile { newLines[newLines.count - 1].ending = .none }
            } else {
                newLines.append(rest)
            }
        }
        if index > 0, lines[index - 1].ending == .none {
            // Joining onto an unterminated last line: end it, and leave the new last line unterminated.
            range = (index - 1)..<index
            newLines.insert(ListLine(content: lines[index - 1].content, ending: ending), at: 0)
            newLines[newLines.count - 1].ending = .none
        }
        replaceLines(range, with: newLines)
        if restoring, let original = block.renumberedNext, let renumbered = block.renumberedTo {
            // The item after the block gets back the number it had before the block was taken.
            let next = index + block.lines.count
            if next < lines.count, lines[next].content.elementsEqual(renumbered) {
                var line = lines[next]
                line.content = original[...]
                replaceLines(next..<(next + 1), with: [line])
            }
        }

        // The law: the block's items where asked, nothing else changed.
        let tree = block.tree.isEmpty ? Self.standaloneTree(block) : block.tree
        var intended = ItemTreeCheck.Intended(before)
        let position = place.nodeIndex ?? before.nodes.prefix { $0.line < index }.count
        var depth = place.depth
        if place.depth < 0 {
            // Restored at a line: it takes the depth it lands at (the undo law holds the bytes).
            depth = position < nodeCount && id(ofNode: position) == tree.first?.id ? nodeDepths[position] : 0
        }
        intended.nodes.insert(
            contentsOf: tree.map { node in
                var node = node
                node.depth += depth
                return node
            }, at: position)
        guard let (difference, line) = ItemTreeCheck.difference(self, from: intended) else { return }
        // The placed item itself is no item where it landed, or nested otherwise: the lines
        // above take it in. Anything else: it would change an item it does not name.
        let landed =
            tree.first.flatMap(\.id).map { id in
                node(for: id).map { nodeLine($0) == index && nodeDepths[$0] == depth } ?? false
            } ?? true
        self = before
        // What takes it in is what stands right above the spot.
        let holder = place.index > 0 ? roleOfLine(place.index - 1).owner.map { title(ofNode: $0) } : nil
        let placed = tree.first?.sourceTitle ?? ""
        guard landed else { throw .cannotLand(title: placed, file: path, line: place.index + 1, heldBy: holder) }
        throw .wouldChange(file: path, line: line, difference, doing: "placing \"\(placed)\" there")
    }

    /// The items of a block read alone, at no indentation (a block made without a source).
    private static func standaloneTree(_ block: Block) -> [ItemTreeCheck.Node] {
        let lines = block.lines.map {
            ListLine(content: reindent($0.content, from: block.indent, to: [])[...], ending: $0.ending)
        }
        let document = ListDocument(path: "", lines: lines)
        guard document.nodeCount > 0 else { return [] }
        return document.subtreeNodes(ofNode: 0)
    }

    /// Where a spot puts a block: before which line, with what indentation and list marker
    /// (nil: the block keeps its own), and where its items go in the item tree (`nodeIndex`
    /// nil and `depth` -1: worked out from the line).
    struct Location {
        var index: Int
        var indent: [UInt8]
        var marker: [UInt8]?
        var nodeIndex: Int?
        var depth: Int
    }

    private func location(of spot: Spot) throws(EditError) -> Location {
        let depths = nodeDepths
        switch spot {
        case .end:
            // Among the top-level items, indented and marked as the last of them.
            guard let last = topLevelNodes.last else {
                return Location(index: lines.count, indent: [], marker: nil, nodeIndex: nodeCount, depth: 0)
            }
            let line = lines[nodeLine(last)].content
            return Location(
                index: subtree(ofNode: last).upperBound, indent: leadingWhiteSpace(line),
                marker: ListMarker(line).map { $0.next }, nodeIndex: nodeCount, depth: 0)
        case .atLine(let line):
            return Location(index: min(max(0, line), lines.count), indent: [], marker: nil, nodeIndex: nil, depth: -1)
        case .before(let id), .after(let id):
            guard let node = node(for: id) else { throw .noSuchItem(id) }
            let line = lines[nodeLine(node)].content
            let indent = leadingWhiteSpace(line)
            let marker = ListMarker(line)
            if case .before = spot {
                return Location(
                    index: nodeLine(node), indent: indent, marker: marker?.bytes, nodeIndex: node, depth: depths[node])
            }
            return Location(
                index: subtree(ofNode: node).upperBound, indent: indent, marker: marker?.next,
                nodeIndex: node + subtreeNodeCount(node), depth: depths[node])
        case .under(let id), .firstUnder(let id):
            guard let node = node(for: id) else { throw .noSuchItem(id) }
            let children = children(ofNode: node)
            let indent =
                children.first.map { leadingWhiteSpace(lines[nodeLine($0)].content) }
                ?? leadingWhiteSpace(lines[nodeLine(node)].content)
                + Array(
                    repeating: UInt8(ascii: " "),
                    count: max(2, contentColumn(ofNode: node) - leadingColumns(lines[nodeLine(node)].content)))
            if case .firstUnder = spot, let first = children.first {
                return Location(
                    index: nodeLine(first), indent: indent, marker: ListMarker(lines[nodeLine(first)].content)?.bytes,
                    nodeIndex: node + 1, depth: depths[node] + 1)
            }
            let marker = children.last.flatMap { ListMarker(lines[nodeLine($0)].content) }?.next
            return Location(
                index: subtree(ofNode: node).upperBound, indent: indent, marker: marker,
                nodeIndex: node + subtreeNodeCount(node), depth: depths[node] + 1)
        }
    }

    /// How many items the item's subtree holds, itself included.
    private func subtreeNodeCount(_ node: Int) -> Int {
        var next = node + 1
        let end = subtree(ofNode: node).upperBound
        while next < nodeCount, nodeLine(next) < end { next += 1 }
        return next - node
    }

    /// The block with its first line's marker replaced by `marker` (one space after it), and
    /// the lines inside the item moved by as many columns as its text moved; nil when the
    /// marker is the same.
    static func refitting(_ lines: [ListLine], marker: [UInt8]) -> [ListLine]? {
        guard let first = lines.first, let old = ListMarker(first.content), old.bytes != marker,
            let head = TaskHead.parse(first.content, from: first.content.startIndex)
        else { return nil }
        let box = head.checkbox - 1
        var content = Array(first.content[..<old.start]) + marker + [UInt8(ascii: " ")]
        let markerColumns = leadingIndent(first.content, from: first.content.startIndex).columns
        let newColumn = markerColumns + marker.count + 1
        content += first.content[box...]
        let shift = newColumn - head.contentColumn
        var result = [ListLine(content: content[...], ending: first.ending)]
        for line in lines.dropFirst() {
            let (columns, textStart) = leadingIndent(line.content, from: line.content.startIndex)
            guard shift != 0, textStart < line.content.endIndex, columns >= head.contentColumn else {
                result.append(line)
                continue
            }
            let spaces = [UInt8](repeating: UInt8(ascii: " "), count: max(0, columns + shift))
            result.append(ListLine(content: (spaces + line.content[textStart...])[...], ending: line.ending))
        }
        return result
    }

    /// The renumberings that may keep the items after `node` items once it is gone, in the
    /// order they are tried: the next item of its list takes its number (when `node` opened
    /// that list), or the first item after it becomes `1.` (any ordered list may start so
    /// after a paragraph). Each new line keeps the item's text where it was.
    private func renumberings(afterRemoving node: Int) -> [(line: Int, content: [UInt8])] {
        let next = node + subtreeNodeCount(node)
        guard next < nodeCount, let nextMarker = ListMarker(lines[nodeLine(next)].content), nextMarker.number != nil
        else { return [] }
        var result: [(line: Int, content: [UInt8])] = []
        let line = lines[nodeLine(node)].content
        if let marker = ListMarker(line), marker.number != nil, marker.delimiter == nextMarker.delimiter,
            marker.number != nextMarker.number, parent(ofNode: next) == parent(ofNode: node),
            leadingColumns(lines[nodeLine(next)].content) == leadingColumns(line),
            !hasListSibling(before: node, like: marker),
            let content = renumbered(nodeLine(next), to: marker.bytes)
        {
            result.append((nodeLine(next), content))
        }
        if nextMarker.number != 1, let one = ListMarker.first(like: nextMarker.bytes),
            let content = renumbered(nodeLine(next), to: one),
            !result.contains(where: { $0.content == content })
        {
            result.append((nodeLine(next), content))
        }
        return result
    }

    /// The line with its ordered marker replaced by `marker`, the spaces after it making up the
    /// difference in width so its text stays in its column; nil where they cannot.
    func renumbered(_ index: Int, to marker: [UInt8]) -> [UInt8]? {
        let line = lines[index].content
        guard let old = ListMarker(line) else { return nil }
        let spacesAfter = line[old.end...].prefix { $0 == UInt8(ascii: " ") }.count
        let spaces = spacesAfter - (marker.count - old.bytes.count)
        guard spaces >= 1, spaces <= 4 else { return nil }
        return Array(line[..<old.start]) + marker + [UInt8](repeating: UInt8(ascii: " "), count: spaces)
            + line[(old.end + spacesAfter)...]
    }

    /// Whether an item of the same ordered list stands before `node` (a sibling task item, or
    /// a plain item with the same marker at the same column), blank lines between allowed.
    private func hasListSibling(before node: Int, like marker: ListMarker) -> Bool {
        var index = nodeLine(node) - 1
        while index >= 0, lines[index].content.allSatisfy(\.isSpaceOrTab) { index -= 1 }
        guard index >= 0 else { return false }
        var owner = roleOfLine(index).owner
        while let current = owner {
            if parent(ofNode: current) == parent(ofNode: node), current != node { return true }
            owner = parent(ofNode: current)
        }
        // A plain item of the list: its own line, or a line it holds (a note of a task above).
        let column = leadingColumns(lines[nodeLine(node)].content)
        while index >= 0 {
            let content = lines[index].content
            if !content.allSatisfy(\.isSpaceOrTab) {
                let columns = leadingColumns(content)
                if columns < column { return false }
                if columns == column {
                    guard let other = ListMarker(content) else { return false }
                    return other.delimiter == marker.delimiter
                }
            }
            index -= 1
        }
        return false
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
            if roleOfLine(probe).headNode != nil, columns < column { return end }
            if columns >= column {
                end = probe + 1
            } else if probe == end, ListParser.isPlainText(content, textStart), roleOfLine(probe).headNode == nil,
                !content.starts(with: Self.bom)
            {
                // Right below the item, with no blank line between: it would continue the
                // item's text. The whole paragraph stays before the item.
                end = probe + 1
                while end < lines.count, !lines[end].content.allSatisfy(\.isSpaceOrTab),
                    roleOfLine(end).headNode == nil,
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

    private func leadingWhiteSpace(_ content: ArraySlice<UInt8>) -> [UInt8] {
        Array(content.prefix { $0.isSpaceOrTab })
    }

    private func leadingColumns(_ content: ArraySlice<UInt8>) -> Int {
        leadingIndent(content, from: content.startIndex).0
    }

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

/// A list item's marker as written: `-`, `*`, `+`, or 1–9 digits and `.` or `)`.
struct ListMarker: Hashable, Sendable {
    /// The marker's bytes.
    var bytes: [UInt8]
    /// Offsets of the marker in the line it was read from.
    var start: Int
    var end: Int
    /// The number of an ordered marker; nil for a bullet.
    var number: Int?

    /// The marker the line starts with after its indentation; nil when it starts with none.
    init?(_ line: ArraySlice<UInt8>) {
        var i = line.startIndex
        while i < line.endIndex, line[i].isSpaceOrTab { i += 1 }
        guard i < line.endIndex else { return nil }
        start = i
        if line[i] == UInt8(ascii: "-") || line[i] == UInt8(ascii: "*") || line[i] == UInt8(ascii: "+") {
            i += 1
            number = nil
        } else {
            var value = 0
            while i < line.endIndex, i - start < 9, line[i].isDigit {
                value = value * 10 + Int(line[i] - UInt8(ascii: "0"))
                i += 1
            }
            guard i > start, i < line.endIndex, line[i] == UInt8(ascii: ".") || line[i] == UInt8(ascii: ")") else {
                return nil
            }
            i += 1
            number = value
        }
        guard i == line.endIndex || line[i].isSpaceOrTab else { return nil }
        end = i
        bytes = Array(line[start..<end])
    }

    /// `.` or `)` for an ordered marker; the bullet itself otherwise.
    var delimiter: UInt8 { bytes[bytes.count - 1] }

    /// The marker of the item after this one in its list: the same bullet, or the next number.
    var next: [UInt8] {
        guard let number else { return bytes }
        return Array(String(number + 1).utf8) + [delimiter]
    }

    /// `1.` or `1)` for an ordered marker (the number any list may start with after a
    /// paragraph); nil for a bullet.
    static func first(like marker: [UInt8]) -> [UInt8]? {
        guard let last = marker.last, last == UInt8(ascii: ".") || last == UInt8(ascii: ")") else { return nil }
        return [UInt8(ascii: "1"), last]
    }
}
