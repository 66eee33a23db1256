/// Classifies the lines of a list file: which are item heads, which are notes of which item,
/// which are prose, reading Markdown's block structure as cmark-gfm (GitHub's engine) does.
/// The rules are written down in docs/FORMAT.md; this follows them. (Parses that take another
/// parse's pieces where the lines agree: ListParser+Reuse.swift.)
///
/// - Complexity: O(lines × nesting depth).
struct ListParser {
    // NB: not private: ListParser+Reuse.swift builds parses from another parse's pieces.
    var roles = LineRoles(count: 0)
    var nodes: [ItemNode] = []

    /// The open block quotes and list items, outermost first.
    private var containers: [Container] = []
    /// The open leaf block inside the innermost container.
    private var leaf = Leaf.none
    /// The last line of the open paragraph and where its text starts (a table's header row).
    private var paragraphStart: (line: Int, offset: Int)?
    var pendingBlanks: [Int] = []
    private var lastHeading: Int?
    /// Whether the commonest lines are read by their shortcut (`tookShortcut`); off only where
    /// a test holds the shortcut to the general walk.
    var takesShortcuts = true
    /// Set: every line inside a code or HTML block is added (`literalLines(_:)`).
    private var literal: [Int]?

    private struct Container {
        /// A block quote; otherwise a list item.
        var isQuote: Bool
        /// Whether a block was put in it yet: an item whose first line was blank ends at a
        /// blank line until then.
        var hasContent: Bool
        /// An item's content indent: columns from its container's content to its own.
        var contentIndent: Int32
        /// The innermost task item that is or holds this container (node index), -1 for none.
        var owner: Int32
    }

    private enum Leaf: Equatable {
        case none, paragraph, table, indentedCode
        case fencedCode(byte: UInt8, length: Int32)
        case html(kind: UInt8)
    }

    static func parse(_ lines: [ListLine], shortcuts: Bool = true) -> (roles: LineRoles, nodes: [ItemNode]) {
        var parser = ListParser()
        parser.takesShortcuts = shortcuts
        parser.run(lines)
        return (parser.roles, parser.nodes)
    }

    private mutating func run(_ lines: [ListLine]) {
        roles = LineRoles(count: lines.count)
        reserveNodes(lines)
        var index = frontMatterEnd(lines)
        while index < lines.count {
            classify(lines, at: index, skippingBOM: index == 0)
            index += 1
        }
        for blank in pendingBlanks { roles[blank] = .prose }
        computeSubtreeEnds()
    }

    /// The lines inside code and HTML blocks (their openings included): text Markdown does
    /// not read. By the general walk; for the few files that need it (`NearMissTask`).
    static func literalLines(_ lines: [ListLine]) -> Set<Int> {
        var parser = ListParser()
        parser.takesShortcuts = false
        parser.literal = []
        parser.run(lines)
        return Set(parser.literal ?? [])
    }

    /// The state classifying an outermost task item leaves (see `classify`): the
    /// item the only open container, its title an open paragraph, no blank line waiting.
    mutating func enterItem(_ node: Int, lines: [ListLine]) {
        let head = nodes[node].head
        containers.removeAll(keepingCapacity: true)
        containers.append(
            Container(isQuote: false, hasContent: true, contentIndent: Int32(head.contentColumn), owner: Int32(node)))
        leaf = .paragraph
        let content = lines[nodes[node].line].content
        paragraphStart = (nodes[node].line, leadingIndent(content, from: head.checkbox + 2).end - content.startIndex)
        pendingBlanks.removeAll()
        lastHeading = nodes[node].headingLine
    }

    /// Room for an item on every line, once: grown by doubling, a large file's items were
    /// copied and their pages faulted in twice over. Pages past the items are never touched.
    mutating func reserveNodes(_ lines: [ListLine]) {
        nodes.reserveCapacity(lines.count)
    }

    mutating func classify(_ lines: [ListLine], at index: Int, skippingBOM: Bool) {
        let content = lines[index].content
        var start = 0
        if skippingBOM, content.count >= 3, content.first == 0xEF, content.dropFirst().first == 0xBB,
            content.dropFirst(2).first == 0xBF
        {
            start = 3
        }
        let shift = content.startIndex
        content.withUnsafeBufferPointer { classify($0, in: lines, at: index, from: start, shift: shift) }
    }

    /// CommonMark's block parsing of one line (spec 0.29, appendix "A parsing strategy", as
    /// cmark-gfm's `blocks.c` does it): the open containers the line continues, then the
    /// blocks it starts, then lazy continuation of an open paragraph.
    private mutating func classify(
        _ line: UnsafeBufferPointer<UInt8>, in lines: [ListLine], at index: Int, from start: Int, shift: Int
    ) {
        if takesShortcuts, start == 0, tookShortcut(line, at: index, shift: shift) { return }
        var cursor = LineCursor(line, offset: start)
        let lineStart = cursor.firstNonspace
        let lineIsBlank = cursor.isBlank

        // 1. The open containers the line continues.
        var matched = 0
        while matched < containers.count {
            let container = containers[matched]
            if container.isQuote {
                guard cursor.indent <= 3, cursor.next == UInt8(ascii: ">") else { break }
                takeQuoteMarker(&cursor)
            } else if cursor.indent >= Int(container.contentIndent) {
                cursor.advance(columns: Int(container.contentIndent))
            } else if cursor.isBlank && container.hasContent {
                cursor.advanceToFirstNonspace()
            } else {
                break
            }
            matched += 1
        }
        let allMatched = matched == containers.count

        // 2. An open code or HTML block that takes the line whole.
        if allMatched {
            switch leaf {
            case .fencedCode(let byte, let length):
                literal?.append(index)
                if cursor.indent <= 3, cursor.next == byte,
                    BlockStarts.closesFence(line, cursor.firstNonspace, byte: byte, length: Int(length))
                {
                    leaf = .none
                }
                return setRole(ownerRole, of: index)
            case .html(let kind) where kind <= 5 || !cursor.isBlank:
                literal?.append(index)
                if kind <= 5, BlockStarts.endsHTMLBlock(kind: kind, line, from: cursor.firstNonspace) { leaf = .none }
                return setRole(ownerRole, of: index)
            case .indentedCode where cursor.indent >= 4 || cursor.isBlank:
                literal?.append(index)
                return lineIsBlank ? pendingBlanks.append(index) : setRole(ownerRole, of: index)
            default:
                break
            }
        }

        // 3. The blocks the line starts.
        // A paragraph open anywhere keeps indented code from starting the line (it may be a
        // lazy continuation), until a container opens.
        var maybeLazy = leaf == .paragraph
        var interruptsParagraph = allMatched && leaf == .paragraph && !cursor.isBlank
        var openedContainer = false
        var newLeaf: Leaf?
        var isHeading = false
        var headNode: Int?
        opening: while let byte = cursor.next {
            let indented = cursor.indent >= 4
            if !indented && byte == UInt8(ascii: ">") {
                close(after: matched, allMatched: allMatched, opening: &openedContainer)
                push(Container(isQuote: true, hasContent: true, contentIndent: 0, owner: containers.last?.owner ?? -1))
                takeQuoteMarker(&cursor)
                (interruptsParagraph, maybeLazy) = (false, false)
                continue
            }
            if !indented {
                let at = cursor.firstNonspace
                if byte == UInt8(ascii: "#"), BlockStarts.isATXHeading(line, at) {
                    (newLeaf, isHeading) = (Leaf.none, true)
                } else if let (fenceByte, length) = BlockStarts.fenceOpening(line, at) {
                    newLeaf = .fencedCode(byte: fenceByte, length: Int32(length))
                } else if byte == UInt8(ascii: "<"),
                    let kind = BlockStarts.htmlBlockKind(line, at, interruptingParagraph: interruptsParagraph)
                {
                    newLeaf =
                        kind <= 5 && BlockStarts.endsHTMLBlock(kind: kind, line, from: at)
                        ? Leaf.none : .html(kind: kind)
                } else if interruptsParagraph, BlockStarts.isSetextUnderline(line, at) {
                    newLeaf = Leaf.none
                } else if BlockStarts.isThematicBreak(line, at) {
                    newLeaf = Leaf.none
                } else if let width = BlockStarts.listMarker(line, at, interruptingParagraph: interruptsParagraph) {
                    let markerColumn = cursor.firstNonspaceColumn
                    let item = takeListMarker(&cursor, width: width)
                    close(after: matched, allMatched: allMatched, opening: &openedContainer)
                    let atDocumentLevel = containers.isEmpty
                    var container = Container(
                        isQuote: false, hasContent: !cursor.isBlank, contentIndent: Int32(item),
                        owner: containers.last?.owner ?? -1)
                    // GFM: a task's list marker is the first thing on its line (cmark-gfm
                    // matches its pattern from the line's start); the box ends the blocks the
                    // line opens, and what follows it is the item's first paragraph.
                    if at == lineStart, cursor.indent == 0, BlockStarts.isTaskBox(line, cursor.firstNonspace) {
                        // Not yet an item to todosync without a title (docs/FORMAT.md).
                        if let head = TaskHead.reading(
                            line, markerColumn: markerColumn, contentColumn: cursor.firstNonspaceColumn,
                            checkbox: cursor.firstNonspace + 1)?
                            .shifted(by: shift)
                        {
                            let node = nodes.count
                            let parent = container.owner >= 0 ? Int(container.owner) : nil
                            nodes.append(
                                ItemNode(
                                    head: head, line: index, parent: parent, atDocumentLevel: atDocumentLevel,
                                    subtreeEnd: index + 1, headingLine: lastHeading))
                            container.owner = Int32(node)
                            headNode = node
                        }
                        cursor.advance(bytes: 3)
                        container.hasContent = !cursor.isBlank
                        push(container)
                        newLeaf = cursor.isBlank ? Leaf.none : .paragraph
                        paragraphStart = (index, cursor.firstNonspace)
                        break opening
                    }
                    push(container)
                    (interruptsParagraph, maybeLazy) = (false, false)
                    continue
                }
            }
            if newLeaf == nil, indented, !maybeLazy {
                newLeaf = .indentedCode
            } else if newLeaf == nil, !indented, interruptsParagraph,
                let cells = BlockStarts.tableDelimiterCells(line, cursor.firstNonspace),
                let header = paragraphStart, header.line == index - 1,
                lines[header.line].content.withUnsafeBufferPointer({ BlockStarts.tableCells($0, header.offset) })
                    == cells
            {
                newLeaf = .table
            }
            break
        }

        // 4. A lazy continuation line, or the line in the blocks now open.
        if !openedContainer && newLeaf == nil && !cursor.isBlank && leaf == .paragraph && !allMatched {
            paragraphStart = (index, cursor.firstNonspace)
            return setRole(ownerRole, of: index)
        }
        close(after: matched, allMatched: allMatched, opening: &openedContainer)
        if let newLeaf {
            leaf = newLeaf
            switch newLeaf {
            case .indentedCode, .fencedCode, .html: literal?.append(index)
            default: break
            }
        } else if cursor.isBlank {
            leaf = .none
        } else if leaf == .table, BlockStarts.tableCells(line, cursor.firstNonspace) > 0 {
            // Another row.
        } else if leaf == .paragraph && !openedContainer {
            paragraphStart = (index, cursor.firstNonspace)
        } else {
            leaf = .paragraph
            paragraphStart = (index, cursor.firstNonspace)
        }
        if !cursor.isBlank, !containers.isEmpty { containers[containers.count - 1].hasContent = true }
        if isHeading && containers.isEmpty { lastHeading = index }

        if let headNode {
            flushBlanks(to: nodes[headNode].parent.map(LineRole.note) ?? .prose)
            roles[index] = .head(headNode)
        } else if lineIsBlank {
            pendingBlanks.append(index)
        } else {
            setRole(ownerRole, of: index)
        }
    }

    /// The two commonest lines of a list, read without the general walk below, which reaches
    /// the same state (`ParserShortcutTests` holds them equal on generated files). Both stand
    /// at exactly the content indent of some open list items, in spaces, so those items
    /// continue the line and the next open container (if any) does not:
    /// - a task item (`-`, `*` or `+`, one space, a box, a title): the containers not continued
    ///   end, the item's opens, its title starts a paragraph;
    /// - text starting with an ASCII letter, every container continued (no block starts with
    ///   a letter): it continues or starts a paragraph.
    /// An open fenced code, HTML block or table the line would be in takes the general walk.
    private mutating func tookShortcut(_ line: UnsafeBufferPointer<UInt8>, at index: Int, shift: Int) -> Bool {
        var spaces = 0
        while spaces < line.count, line[spaces] == 0x20 { spaces += 1 }
        guard spaces < line.count else { return false }
        var continued = 0, indent = 0
        while continued < containers.count, !containers[continued].isQuote,
            indent + Int(containers[continued].contentIndent) <= spaces
        {
            indent += Int(containers[continued].contentIndent)
            continued += 1
        }
        guard indent == spaces else { return false }
        let allContinued = continued == containers.count
        if allContinued {
            switch leaf {
            case .fencedCode, .html, .table: return false
            case .none, .paragraph, .indentedCode: break
            }
        }
        let first = line[spaces]
        if first.isASCIILetter {
            guard allContinued else { return false }
            leaf = .paragraph
            paragraphStart = (index, spaces)
            if !containers.isEmpty { containers[containers.count - 1].hasContent = true }
            setRole(ownerRole, of: index)
            return true
        }
        guard first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+"),
            line.count >= spaces + 6, line[spaces + 1] == 0x20, BlockStarts.isTaskBox(line, spaces + 2),
            let head = TaskHead.reading(line, markerColumn: spaces, contentColumn: spaces + 2, checkbox: spaces + 3)
        else { return false }
        containers.removeLast(containers.count - continued)
        let owner = containers.last?.owner ?? -1
        flushBlanks(to: owner >= 0 ? .note(Int(owner)) : .prose)
        if !containers.isEmpty { containers[containers.count - 1].hasContent = true }
        let node = nodes.count
        nodes.append(
            ItemNode(
                head: head.shifted(by: shift), line: index, parent: owner >= 0 ? Int(owner) : nil,
                atDocumentLevel: containers.isEmpty,
                subtreeEnd: index + 1, headingLine: lastHeading))
        roles[index] = .head(node)
        containers.append(Container(isQuote: false, hasContent: true, contentIndent: 2, owner: Int32(node)))
        leaf = .paragraph
        paragraphStart = (index, leadingIndent(line, from: spaces + 5).end)
        return true
    }

    /// The role of a line inside the containers now open: a note of the innermost task item.
    private var ownerRole: LineRole {
        guard let owner = containers.last?.owner, owner >= 0 else { return .prose }
        return .note(Int(owner))
    }

    private mutating func setRole(_ role: LineRole, of index: Int) {
        flushBlanks(to: role)
        roles[index] = role
    }

    /// `>` and one space or tab column after it.
    private func takeQuoteMarker(_ cursor: inout LineCursor) {
        cursor.advanceToFirstNonspace()
        cursor.advance(bytes: 1)
        if cursor.offset < cursor.line.count, cursor.line[cursor.offset].isSpaceOrTab { cursor.advance(columns: 1) }
    }

    /// Takes a list marker of `width` bytes and the white space after it; returns the item's
    /// content indent (columns from the marker's container to the item's content): one past
    /// the marker when five or more columns follow it (indented code) or nothing does.
    private func takeListMarker(_ cursor: inout LineCursor, width: Int) -> Int {
        let markerIndent = cursor.indent
        cursor.advanceToFirstNonspace()
        cursor.advance(bytes: width)
        let spaces = cursor.indent
        if cursor.isBlank || spaces >= 5 || spaces < 1 {
            if spaces > 0 { cursor.advance(columns: 1) }
            return markerIndent + width + 1
        }
        cursor.advanceToFirstNonspace()
        return markerIndent + width + spaces
    }

    /// The first block a line starts ends the open containers it did not continue (and with
    /// them, or unless all were continued, the open leaf block).
    private mutating func close(after matched: Int, allMatched: Bool, opening: inout Bool) {
        guard !opening else { return }
        opening = true
        if !allMatched {
            containers.removeLast(containers.count - matched)
            leaf = .none
        }
    }

    /// Opens a container: it ends the open leaf block, and is content of the container it opens in.
    private mutating func push(_ container: Container) {
        leaf = .none
        if !containers.isEmpty { containers[containers.count - 1].hasContent = true }
        containers.append(container)
    }

    private mutating func flushBlanks(to role: LineRole) {
        // NB: called for every line, and there is rarely anything to flush: emptying an empty
        // array was ~50 instructions a line.
        guard !pendingBlanks.isEmpty else { return }
        for blank in pendingBlanks { roles[blank] = role }
        pendingBlanks.removeAll(keepingCapacity: true)
    }

    mutating func computeSubtreeEnds() {
        for (index, role) in roles.enumerated() {
            var owner = role.owner
            while let node = owner {
                nodes[node].subtreeEnd = max(nodes[node].subtreeEnd, index + 1)
                owner = nodes[node].parent
            }
        }
    }

    /// YAML front matter: `---` on the first line, closed by `---` or `...`. Never holds items.
    func frontMatterEnd(_ lines: [ListLine]) -> Int {
        guard let first = lines.first else { return 0 }
        var content = first.content
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        guard isExactly(content, "---") else { return 0 }
        for index in 1..<lines.count
        where isExactly(lines[index].content, "---") || isExactly(lines[index].content, "...") {
            return index + 1
        }
        return 0
    }

    private func isExactly(_ content: ArraySlice<UInt8>, _ text: String) -> Bool {
        let end = trimmedEnd(content, start: content.startIndex, end: content.endIndex)
        return content[content.startIndex..<end].elementsEqual(text.utf8)
    }

    /// Text that continues a paragraph lazily (CommonMark): not the start of another block.
    /// (A quick judgement for placing lines; the parse itself decides by `classify`.)
    static func isPlainText(_ content: ArraySlice<UInt8>, _ start: Int) -> Bool {
        let byte = content[start]
        switch byte {
        case UInt8(ascii: "#"), UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "|"), UInt8(ascii: "`"),
            UInt8(ascii: "~"):
            return false
        case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "_"), UInt8(ascii: "="):
            let next = start + 1
            return next < content.endIndex && !content[next].isSpaceOrTab && content[next] != byte
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var i = start
            while i < content.endIndex, content[i] >= UInt8(ascii: "0") && content[i] <= UInt8(ascii: "9") { i += 1 }
            guard i < content.endIndex, content[i] == UInt8(ascii: ".") || content[i] == UInt8(ascii: ")") else {
                return true
            }
            return i + 1 < content.endIndex && !content[i + 1].isSpaceOrTab
        default:
            return true
        }
    }
}
