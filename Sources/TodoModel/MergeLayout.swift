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
    /// `tail` (the id comment and trailing white space).
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

        var lead: ArraySlice<UInt8> { head.relative.dropLast(head.original.content.endIndex - checkbox) }
        var box: UInt8 { head.original.content[checkbox] }
        var middle: ArraySlice<UInt8> { head.original.content[(checkbox + 1)..<titleRange.lowerBound] }
        var title: ArraySlice<UInt8> { head.original.content[titleRange] }
        var tail: ArraySlice<UInt8> { head.original.content[titleRange.upperBound...] }
        var isDone: Bool { box != UInt8(ascii: " ") }
    }

    /// Items in file order, each with its body (its own container), found through `slots`.
    ///
    /// NB: arrays in file order, not tables keyed by id: a merge walks items in file order, and
    /// at 100,000 items lookups into tables of large values missed the caches (a merge 10x
    /// larger took 16x longer to lay out).
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
        for (path, document) in lists.documents { add(document, path: path) }
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

    private mutating func modifyContainer(_ key: ContainerKey, _ change: (inout Container) -> Void) {
        switch key {
        case .file(let path): change(&files[path, default: Container(prefix: [], column: 0)])
        // NB: an item's head comes before its body's lines, so its slot exists.
        case .item(let id): change(&bodies[slots[id]!])
        }
    }

    private mutating func add(_ document: ListDocument, path: String) {
        let ending = document.dominantEnding
        fileEndings[path] = ending
        documents[path] = document
        let fileKey = ContainerKey.file(path)
        files[path] = Container(prefix: [], column: 0)
        // The container each node's body lines go to: its own, or (no id) its nearest identified ancestor's.
        var bodyKey: [ContainerKey] = []
        bodyKey.reserveCapacity(document.nodeCount)
        let ids = document.nodeIDs
        for node in ids.indices {
            if let id = ids[node] {
                bodyKey.append(.item(id))
            } else {
                bodyKey.append(document.parent(ofNode: node).map { bodyKey[$0] } ?? fileKey)
            }
        }
        for index in document.lines.indices {
            var line = document.lines[index]
            if index == 0, line.content.starts(with: [0xEF, 0xBB, 0xBF]) {
                // Slices keep their indices, so the parser's offsets into the line stay valid.
                line.content = line.content.dropFirst(3)
                filesWithBOM.insert(path)
            }
            switch document.roleOfLine(index) {
            case .prose:
                append(line, ending: ending, to: fileKey)
            case .note(let node):
                append(line, ending: ending, to: bodyKey[node])
            case .head(let node):
                let key = document.parent(ofNode: node).map { bodyKey[$0] } ?? fileKey
                guard let id = ids[node], slots[id] == nil else {
                    append(line, ending: ending, to: key)
                    continue
                }
                let head = document.headParts(ofNode: node)
                let relative = relativeContent(line.content, in: key)
                // Stripping indentation only touches leading white space: the parts after it are exact.
                modifyContainer(key) { $0.entries.append(.item(id)) }
                let (prefix, column) = Self.bodyIndent(of: line.content, head: head)
                slots[id] = itemList.count
                itemIDs.append(id)
                itemList.append(Item(
                    path: path, container: key, head: Line(original: line, relative: relative, fileEnding: ending),
                    checkbox: head.checkbox, titleRange: head.title))
                bodies.append(Container(prefix: prefix, column: column))
            }
        }
    }

    private mutating func append(_ line: ListLine, ending: LineEnding, to key: ContainerKey) {
        let relative = relativeContent(line.content, in: key)
        modifyContainer(key) { container in
            container.lines.append(Line(original: line, relative: relative, fileEnding: ending))
            container.entries.append(.line(container.lines.count - 1))
        }
    }

    private func relativeContent(_ content: ArraySlice<UInt8>, in key: ContainerKey) -> ArraySlice<UInt8> {
        guard let container = container(key), container.column > 0 else { return content }
        return Self.strip(content, prefix: container.prefix, column: container.column)
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
                return ArraySlice(Array(repeating: UInt8(ascii: " "), count: columns + width - column) + content[(i + 1)...])
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
        let prefix = Array(content[content.startIndex..<markerStart])
            + Array(repeating: UInt8(ascii: " "), count: max(0, head.contentColumn - head.markerColumn))
        return (prefix, head.contentColumn)
    }
}

extension ListDocument {
    func headParts(ofNode node: Int) -> TaskHead { nodes[node].head }
}
