/// One list file, parsed losslessly: its lines exactly as read, and what each line is.
///
/// Rendering concatenates the lines, so `ListDocument(path:bytes:).render() == bytes` for every
/// input. Edits (see `ListDocument+Editing.swift`) replace, insert or remove whole lines and
/// then classify the lines again, so bytes todosync does not own are never touched.
///
/// ```swift
/// var doc = ListDocument(path: "TODO.md", bytes: Array("# Home\n- [ ] Buy milk\n".utf8))
/// doc.nodeCount                // 1 (it has no id yet, so `items` is empty)
/// doc.render()                 // the same bytes
/// ```
public struct ListDocument: Sendable, Equatable {
    /// The file's path relative to the repository root.
    public let path: String
    public internal(set) var lines: [ListLine]
    private(set) var roles: LineRoles
    private(set) var nodes: [ItemNode]

    /// The largest file a document holds: offsets are kept in 32 bits (see `TaskHead`).
    public static let maximumSize = Int(Int32.max)

    /// - Precondition: `bytes.count <= ListDocument.maximumSize`.
    public init(path: String, bytes: [UInt8]) {
        self.init(path: path, bytes: bytes, reusing: nil)
    }

    /// The same as `init(path:bytes:)`, only faster when `other` holds most of the same lines
    /// (another version of the file): its parse is taken where the lines agree.
    ///
    /// - Precondition: `bytes.count <= ListDocument.maximumSize`.
    public init(path: String, bytes: [UInt8], reusing other: ListDocument?) {
        precondition(bytes.count <= Self.maximumSize, "\(path): a list file is limited to 2 GB")
        let lines = ListLine.split(bytes)
        self.path = path
        self.lines = lines
        if let other {
            let (prefix, suffix) = Self.commonEnds(lines, other.lines)
            (roles, nodes) = ListParser.parse(lines, reusing: other, prefix: prefix, suffix: suffix)
        } else {
            (roles, nodes) = ListParser.parse(lines)
        }
    }

    /// How many lines two versions share at the start, and then at the end.
    static func commonEnds(_ a: [ListLine], _ b: [ListLine]) -> (prefix: Int, suffix: Int) {
        let limit = min(a.count, b.count)
        var prefix = 0
        while prefix < limit, a[prefix].ending == b[prefix].ending, a[prefix].content.sameBytes(as: b[prefix].content) {
            prefix += 1
        }
        var suffix = 0
        while suffix < limit - prefix {
            let (x, y) = (a[a.count - 1 - suffix], b[b.count - 1 - suffix])
            guard x.ending == y.ending, x.content.sameBytes(as: y.content) else { break }
            suffix += 1
        }
        return (prefix, suffix)
    }

    init(path: String, lines: [ListLine]) {
        self.path = path
        self.lines = lines
        (roles, nodes) = ListParser.parse(lines)
    }

    /// A document of `lines`, parsed taking each span's parse from the document it came from
    /// (`ListParser.parse(_:splicing:)`): each span's lines must be its known lines, in order.
    init(path: String, lines: [ListLine], splicing spans: [ListParser.KnownSpan]) {
        self.path = path
        self.lines = lines
        (roles, nodes) = ListParser.parse(lines, splicing: spans)
    }

    public static func == (lhs: ListDocument, rhs: ListDocument) -> Bool {
        lhs.path == rhs.path && lhs.lines == rhs.lines
    }

    /// The file's bytes.
    public func render() -> [UInt8] { ListLine.join(lines) }

    /// How many task items the file holds, with or without ids.
    public var nodeCount: Int { nodes.count }

    /// The items that carry an id, in file order.
    public var items: [TodoItem] { items(done: nil) }

    /// The items that carry an id, in file order, only the checked ones (`done` true) or the
    /// open ones (false): the others are never built (a listing of open items in a vault).
    public func items(done wanted: Bool?) -> [TodoItem] {
        var result: [TodoItem] = []
        result.reserveCapacity(wanted == nil ? nodes.count : nodes.count / 2)
        forEachItem(done: wanted) { result.append($0) }
        return result
    }

    /// `items(done:)`, handing on each item as it is built instead of holding them all.
    public func forEachItem(done wanted: Bool?, _ body: (TodoItem) -> Void) {
        forEachNodeItem(done: wanted) { _, item in body(item) }
    }

    /// `forEachItem`, with the index of each item's node.
    func forEachNodeItem(done wanted: Bool?, _ body: (_ node: Int, TodoItem) -> Void) {
        var siblingCount = [Int](repeating: 0, count: nodes.count)
        var topLevelCount = 0
        var headings: [Int: String] = [:]
        for index in nodes.indices {
            let position: Int
            if let parent = nodes[index].parent {
                position = siblingCount[parent]
                siblingCount[parent] = position + 1
            } else {
                position = topLevelCount
                topLevelCount += 1
            }
            let section = nodes[index].headingLine.map { line in
                if let cached = headings[line] { return cached }
                let text = headingText(line)
                headings[line] = text
                return text
            }
            if let wanted, isDone(node: index) != wanted { continue }
            if let item = item(node: index, position: position, section: section) { body(index, item) }
        }
    }

    /// The item with this id, if this file holds it.
    public func item(id: ItemID) -> TodoItem? {
        guard let node = node(for: id) else { return nil }
        let parent = nodes[node].parent
        let position = nodes[..<node].lazy.filter { $0.parent == parent }.count
        return item(node: node, position: position, section: nodes[node].headingLine.map(headingText))
    }

    /// Whether the file holds at least one task item.
    public var hasItems: Bool { !nodes.isEmpty }

    /// Whether an item of the file carries a readable id comment.
    public var hasIDs: Bool { nodes.contains { $0.id != nil } }

    /// Lines whose bytes are not valid UTF-8 (kept as they are), the opening markers of
    /// conflicts a git merge left (committed as they are, as git commits them), and lines that
    /// look meant as tasks but are not (`NearMissTask`): each reported.
    public var diagnostics: [Diagnostic] {
        // NB: line by line is exact: a line ending byte is never part of a multi-byte sequence.
        var found = lines.indices.compactMap { index in
            let content = lines[index].content
            if content.first == UInt8(ascii: "<"), Self.isConflictOpening(content) {
                return Diagnostic(
                    file: path, line: index + 1,
                    message:
                        "a git conflict marker: a merge left this file unresolved; keep the lines you want and delete the markers (<<<<<<<, =======, >>>>>>>)"
                )
            }
            return content.isASCII || content.isValidUTF8
                ? nil
                : Diagnostic(
                    file: path, line: index + 1, message: "bytes that are not valid UTF-8; kept exactly as they are")
        }
        var nearMisses: [(line: Int, problem: String)] = []
        for index in lines.indices where roles[index].headNode == nil {
            if let problem = NearMissTask.problem(lines[index].content) { nearMisses.append((index, problem)) }
        }
        guard !nearMisses.isEmpty else { return found }
        let literal = ListParser.literalLines(lines)
        for (index, problem) in nearMisses where !literal.contains(index) {
            found.append(
                Diagnostic(
                    file: path, line: index + 1,
                    message:
                        "looks like a task but is not one: \(problem); a task is written \"- [ ] title\" (or [x] when done)"
                ))
        }
        return found.sorted { $0.line < $1.line }
    }

    /// The first whole conflict block a git merge left (1-based lines of `<<<<<<<`, `=======`
    /// and `>>>>>>>`, in that order), if the file holds one.
    public var conflictBlock: (opening: Int, separator: Int, closing: Int)? {
        var opening: Int?, separator: Int?
        for index in lines.indices {
            let content = lines[index].content
            guard let first = content.first,
                first == UInt8(ascii: "<") || first == UInt8(ascii: "=") || first == UInt8(ascii: ">")
            else { continue }
            if first == UInt8(ascii: "<"), Self.isConflictOpening(content) {
                (opening, separator) = (index + 1, nil)
            } else if opening != nil, separator == nil, content.count == 7,
                content.allSatisfy({ $0 == UInt8(ascii: "=") })
            {
                separator = index + 1
            } else if let opening, let separator, Self.isMarker(content, UInt8(ascii: ">")) {
                return (opening, separator, index + 1)
            }
        }
        return nil
    }

    /// Where git would call these bytes binary: the offset of a NUL byte in the first 8,000
    /// (git's own test, `buffer_is_binary`); nil for text.
    public static func binaryOffset(_ bytes: [UInt8]) -> Int? {
        bytes.prefix(8_000).firstIndex(of: 0)
    }

    private static func isMarker(_ content: ArraySlice<UInt8>, _ byte: UInt8) -> Bool {
        let marker = content.prefix(8)
        guard marker.count >= 7, marker.prefix(7).allSatisfy({ $0 == byte }) else { return false }
        return marker.count == 7 || marker.last == UInt8(ascii: " ")
    }

    /// `<<<<<<<` alone or before a space, as git writes a conflict's first line. (Only the
    /// opening: a line of `=======` under text is a Markdown heading.)
    private static func isConflictOpening(_ content: ArraySlice<UInt8>) -> Bool {
        let marker = content.prefix(8)
        guard marker.count >= 7, marker.prefix(7).allSatisfy({ $0 == UInt8(ascii: "<") }) else { return false }
        return marker.count == 7 || marker.last == UInt8(ascii: " ")
    }

    // MARK: - Internals shared with editing and id assignment

    func node(for id: ItemID) -> Int? {
        nodes.firstIndex { $0.id == id }
    }

    /// The id of every task item in file order; nil where the item has no readable id yet.
    public var nodeIDs: [ItemID?] { nodes.map(\.id) }

    func nodeLine(_ node: Int) -> Int { nodes[node].line }

    /// `nodeIDs[node]`, without building the list.
    func id(ofNode node: Int) -> ItemID? { nodes[node].id }

    func idComment(ofNode node: Int) -> IDComment? { nodes[node].head.idComment }

    /// The hex digits left in the item's damaged id comment; nil if it has none.
    func damagedIDDigits(ofNode node: Int) -> [UInt8]? {
        guard case .damaged(let range) = idComment(ofNode: node) else { return nil }
        return LostIDMatch.hexDigits(lines[nodes[node].line].content[range].drop { $0 != UInt8(ascii: ":") })
    }

    /// The item's title: its first line's text without the id comment (and the white space
    /// around it, where text stands on both sides: one space is kept between them).
    func titleBytes(ofNode node: Int) -> ArraySlice<UInt8> {
        let line = lines[nodes[node].line].content
        let head = nodes[node].head
        guard head.hasCommentInsideTitle else { return line[head.title] }
        let parts = head.titleParts(in: line)
        return TaskHead.joined(line[parts.before], line[parts.after])
    }

    /// Whether an item of the file has a done date (✅). Titles without the emoji's bytes are
    /// not read: `done` asks this of the whole file.
    var hasDoneDates: Bool {
        nodes.indices.contains { node in
            let title = titleBytes(ofNode: node)
            return Self.holdsDoneMark(title)
                && TitleFields(title: String(decoding: title, as: UTF8.self)).values[.done] != nil
        }
    }

    /// Whether the bytes hold ✅ (E2 9C 85), looked for byte by byte (a million titles).
    private static func holdsDoneMark(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index + 2 < bytes.endIndex {
            if bytes[index] == 0xE2, bytes[index + 1] == 0x9C, bytes[index + 2] == 0x85 { return true }
            index += 1
        }
        return false
    }

    func title(ofNode node: Int) -> String { String(decoding: titleBytes(ofNode: node), as: UTF8.self) }

    func isDone(node: Int) -> Bool {
        lines[nodes[node].line].content[nodes[node].head.checkbox] != UInt8(ascii: " ")
    }

    func parent(ofNode node: Int) -> Int? { nodes[node].parent }

    func subtree(ofNode node: Int) -> Range<Int> { nodes[node].line..<nodes[node].subtreeEnd }

    /// The item's own note lines (blank ones inside included), in order. Its descendants'
    /// subtrees are stepped over, not scanned: O(notes + children), not O(subtree).
    func noteLines(ofNode node: Int) -> [Int] {
        var result: [Int] = []
        var index = nodes[node].line + 1
        let end = nodes[node].subtreeEnd
        while index < end {
            switch roles[index] {
            case .note(node): result.append(index); index += 1
            case .head(let descendant): index = max(nodes[descendant].subtreeEnd, index + 1)
            default: index += 1
            }
        }
        return result
    }

    func contentColumn(ofNode node: Int) -> Int { nodes[node].head.contentColumn }

    func roleOfLine(_ line: Int) -> LineRole { roles[line] }

    /// The item's children, in order: the nodes inside its subtree whose parent it is.
    ///
    /// - Complexity: O(subtree); used by single-item edits, never per item.
    func children(ofNode node: Int) -> [Int] {
        var result: [Int] = []
        var next = node + 1
        while next < nodes.count, nodes[next].line < nodes[node].subtreeEnd {
            if nodes[next].parent == node { result.append(next) }
            next += 1
        }
        return result
    }

    var topLevelNodes: [Int] { nodes.indices.filter { nodes[$0].parent == nil } }

    func notes(ofNode node: Int) -> String {
        let column = nodes[node].head.contentColumn
        var texts: [String] = []
        for index in noteLines(ofNode: node) {
            let content = lines[index].content
            var i = content.startIndex, columns = 0
            while i < content.endIndex, columns < column, content[i].isSpaceOrTab {
                columns += content[i] == 0x09 ? 4 - columns % 4 : 1
                i += 1
            }
            texts.append(String(decoding: content[i...], as: UTF8.self))
        }
        while texts.last?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { texts.removeLast() }
        while texts.first?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { texts.removeFirst() }
        return texts.joined(separator: "\n")
    }

    func item(node index: Int, position: Int) -> TodoItem? {
        item(node: index, position: position, section: nodes[index].headingLine.map(headingText))
    }

    private func item(node index: Int, position: Int, section: String?) -> TodoItem? {
        let node = nodes[index]
        guard let id = node.id else { return nil }
        let title = title(ofNode: index)
        let fields = TitleFields(title: title)
        return TodoItem(
            id: id, title: title, plainTitle: fields.plainTitle, isDone: isDone(node: index),
            notes: notes(ofNode: index),
            priority: fields.priority, due: fields.date(.due), start: fields.date(.start),
            scheduled: fields.date(.scheduled), created: fields.date(.created), doneDate: fields.date(.done),
            cancelledDate: fields.date(.cancelled), recurrence: fields.values[.recurrence],
            taskID: fields.values[.id], dependsOn: fields.values[.dependsOn].map(Self.taskIDs) ?? [],
            onCompletion: fields.values[.onCompletion],
            parent: node.parent.flatMap { nodes[$0].id },
            position: position, file: path, section: section, line: node.line + 1)
    }

    /// `⛔ a, b,c` as ids.
    private static func taskIDs(_ list: String) -> [String] {
        list.split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
    }

    func headingText(_ line: Int) -> String {
        var text = Substring(String(decoding: lines[line].content, as: UTF8.self))
        text = text.drop { $0 == "#" || $0 == " " || $0 == "\u{FEFF}" }
        while text.last == "#" || text.last == " " { text = text.dropLast() }
        return String(text)
    }

    /// Takes `newLines` as the file's lines and classifies them.
    mutating func setLines(_ newLines: [ListLine]) {
        lines = newLines
        (roles, nodes) = ListParser.parse(lines)
    }

    /// Replaces `range` of the lines and classifies the file again.
    mutating func replaceLines(_ range: Range<Int>, with newLines: [ListLine]) {
        lines.replaceSubrange(range, with: newLines)
        (roles, nodes) = ListParser.parse(lines)
    }

    /// The line ending most lines of the file use (LF for a file with none).
    var dominantEnding: LineEnding { ListLine.dominantEnding(of: lines) }
}
