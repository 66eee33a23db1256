/// Where a line or an item sits: the top level of a file, or the body of an item (its notes and
/// its children).
enum ContainerKey: Hashable, Sendable {
    case file(String)
    case item(ItemID)

    /// A total order that does not depend on the side: files by path, before items by id.
    func sortsBefore(_ other: ContainerKey) -> Bool {
        switch (self, other) {
        case (.file(let a), .file(let b)): a < b
        case (.file, .item): true
        case (.item, .file): false
        case (.item(let a), .item(let b)): a < b
        }
    }
}

/// One version of the lists (base, ours or theirs) taken apart for merging: every container
/// with its entries in file order, every item with the parts of its first line.
///
/// Lines are kept with their content *relative* to their container (the container's
/// indentation removed), so moving an item to another depth, or a formatter re-indenting one
/// side, does not make lines differ. Rendering puts them back under the merged container's
/// indentation, and uses the original bytes wherever that indentation is unchanged.
struct MergeLayout {
    struct Line {
        var original: ListLine
        /// The content without the container's indentation: what the merge compares.
        var relative: ArraySlice<UInt8>
        /// The dominant ending of the file the line comes from.
        var fileEnding: LineEnding
    }

    enum Entry: Hashable {
        case line(Int)
        case item(ItemID)
    }

    struct Container {
        /// The bytes that indent this container's lines (a file: none).
        var prefix: [UInt8]
        var column: Int
        var entries: [Entry] = []
        var lines: [Line] = []
    }

    /// An item's first line in parts: `lead` (marker and `[`), `box`, `middle` (`] `), `title`,
    /// `comment` (white space and the id comment), `after` (text typed after the comment, with
    /// the white space before it), `trailing` (white space).
    ///
    /// NB: the parts are cut from the line when asked: a merge copies items often, and each
    /// stored slice was a reference to count.
    struct Item {
        var path: String
        var container: ContainerKey
        var head: Line
        /// Where the box and the title sit in `head.original.content`.
        var checkbox: Int
        var titleRange: Range<Int>
        /// Where text typed after the id comment sits (empty, at the comment's end, if none).
        var afterRange: Range<Int>

        var lead: ArraySlice<UInt8> { head.relative.dropLast(head.original.content.endIndex - checkbox) }
        var box: UInt8 { head.original.content[checkbox] }
        var middle: ArraySlice<UInt8> { head.original.content[(checkbox + 1)..<titleRange.lowerBound] }
        var title: ArraySlice<UInt8> { head.original.content[titleRange] }
        var comment: ArraySlice<UInt8> { head.original.content[titleRange.upperBound..<afterRange.lowerBound] }
        var after: ArraySlice<UInt8> { head.original.content[afterRange] }
        var trailing: ArraySlice<UInt8> { head.original.content[afterRange.upperBound...] }
        var isDone: Bool { box != UInt8(ascii: " ") }
    }

    /// Items in file order, each with its body (its own container), found through `slots`.
    ///
    /// NB: arrays in file order, not tables keyed by id: a merge walks items in file order, and
    /// in large lists lookups into tables of large values miss the caches, so the layout's
    /// cost grew faster than the lists.
    private var itemList: [Item] = []
    private var bodies: [Container] = []
    private(set) var itemIDs: [ItemID] = []
    private var slots: [ItemID: Int] = [:]
    private var files: [String: Container] = [:]
    /// Per file: its dominant line ending.
    private(set) var fileEndings: [String: LineEnding] = [:]
    /// Per file: its bytes, for whole-file comparisons.
    private(set) var documents: [String: ListDocument] = [:]
    /// Files that start with a byte order mark. It belongs to the file, not to its first line
    /// (which the merge may move), so lines are kept without it.
    private(set) var filesWithBOM: Set<String> = []

    init(_ lists: ListSet) {
        let nodes = lists.documents.values.reduce(0) { $0 + $1.nodeCount }
        itemList.reserveCapacity(nodes)
        bodies.reserveCapacity(nodes)
        itemIDs.reserveCapacity(nodes)
        slots.reserveCapacity(nodes)
        for (path, document) in lists.documents { add(document, path: path, ending: document.dominantEnding) }
    }

    /// The item at a slot (its index in `itemIDs`), and its body. The merge finds slots by
    /// item number (`MergeNumbering`), not by id.
    func item(atSlot slot: Int) -> Item { itemList[slot] }
    func body(atSlot slot: Int) -> Container { bodies[slot] }

    func container(_ key: ContainerKey) -> Container? {
        switch key {
        case .file(let path): files[path]
        case .item(let id): slots[id].map { bodies[$0] }
        }
    }

    private mutating func add(_ document: ListDocument, path: String, ending: LineEnding) {
        fileEndings[path] = ending
        documents[path] = document
        let fileKey = ContainerKey.file(path)
        var file = Container(prefix: [], column: 0)
        // The body each node's lines go to, by slot: its own, or (no id) its nearest identified
        // ancestor's; nil for the file's top level.
        // NB: by slot, not by key: a key is hashed to find its container, once per line.
        var bodySlot = [Int?](repeating: nil, count: document.nodeCount)
        let ids = document.nodeIDs
        for index in document.lines.indices {
            var line = document.lines[index]
            if index == 0, line.content.starts(with: [0xEF, 0xBB, 0xBF]) {
                // Slices keep their indices, so the parser's offsets into the line stay valid.
                line.content = line.content.dropFirst(3)
                filesWithBOM.insert(path)
            }
            switch document.roleOfLine(index) {
            case .prose:
                append(line, ending: ending, toBody: nil, file: &file)
            case .note(let node):
                append(line, ending: ending, toBody: bodySlot[node], file: &file)
            case .head(let node):
                let parentSlot = document.parent(ofNode: node).flatMap { bodySlot[$0] }
                guard let id = ids[node], slots[id] == nil else {
                    // No id, or one already taken: the line stays a line; a repeated id's body joins the first's.
                    bodySlot[node] = ids[node].flatMap { slots[$0] } ?? parentSlot
                    append(line, ending: ending, toBody: parentSlot, file: &file)
                    continue
                }
                let head = document.headParts(ofNode: node)
                // Text typed after the id comment is its own part, so that every version's
                // comment is merged as the comment, never as words of a title.
                let parts = head.titleParts(in: line.content)
                // Stripping indentation only touches leading white space: the parts after it are exact.
                let relative = relativeContent(line.content, inBody: parentSlot)
                if let parentSlot {
                    bodies[parentSlot].entries.append(.item(id))
                } else {
                    file.entries.append(.item(id))
                }
                let (prefix, column) = Self.bodyIndent(of: line.content, head: head)
                let slot = itemList.count
                slots[id] = slot
                bodySlot[node] = slot
                itemIDs.append(id)
                itemList.append(
                    Item(
                        path: path, container: parentSlot.map { .item(itemIDs[$0]) } ?? fileKey,
                        head: Line(original: line, relative: relative, fileEnding: ending),
                        checkbox: head.checkbox, titleRange: parts.before, afterRange: parts.after))
                bodies.append(Container(prefix: prefix, column: column))
            }
        }
        files[path] = file
    }

    /// Adds a line to an item's body (by slot), or to the file's top level.
    private mutating func append(_ line: ListLine, ending: LineEnding, toBody slot: Int?, file: inout Container) {
        let relative = relativeContent(line.content, inBody: slot)
        if let slot {
            bodies[slot].lines.append(Line(original: line, relative: relative, fileEnding: ending))
            bodies[slot].entries.append(.line(bodies[slot].lines.count - 1))
        } else {
            file.lines.append(Line(original: line, relative: relative, fileEnding: ending))
            file.entries.append(.line(file.lines.count - 1))
        }
    }

    /// A line's content without the indentation of the body it is in (a file's lines have none).
    private func relativeContent(_ content: ArraySlice<UInt8>, inBody slot: Int?) -> ArraySlice<UInt8> {
        guard let slot, bodies[slot].column > 0 else { return content }
        return Self.strip(content, prefix: bodies[slot].prefix, column: bodies[slot].column)
    }

    /// A line without `column` columns of leading indentation (all of it, if it has less).
    static func strip(_ content: ArraySlice<UInt8>, prefix: [UInt8], column: Int) -> ArraySlice<UInt8> {
        if content.allSatisfy(\.isSpaceOrTab) { return content[content.endIndex...] }
        if content.starts(with: prefix) { return content.dropFirst(prefix.count) }
        var columns = 0, i = content.startIndex
        while i < content.endIndex, columns < column, content[i].isSpaceOrTab {
            let width = content[i] == 0x09 ? 4 - columns % 4 : 1
            if columns + width > column {
                // A tab that reaches past the column: the rest of it becomes spaces.
                return ArraySlice(
                    Array(repeating: UInt8(ascii: " "), count: columns + width - column) + content[(i + 1)...])
            }
            columns += width
            i += 1
        }
        return content[i...]
    }

    /// The indentation of an item's body: its line's own leading white space, then spaces up to
    /// the content column.
    static func bodyIndent(of content: ArraySlice<UInt8>, head: TaskHead) -> (prefix: [UInt8], column: Int) {
        let (_, markerStart) = leadingIndent(content, from: content.startIndex)
        let prefix =
            Array(content[content.startIndex..<markerStart])
            + Array(repeating: UInt8(ascii: " "), count: max(0, head.contentColumn - head.markerColumn))
        return (prefix, head.contentColumn)
    }
}

extension ListDocument {
    func headParts(ofNode node: Int) -> TaskHead { nodes[node].head }
}
