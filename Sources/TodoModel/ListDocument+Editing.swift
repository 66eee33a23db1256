/// Why an edit of a list could not be made. Nothing was changed.
public enum EditError: Error, Hashable, Sendable, CustomStringConvertible {
    case noSuchItem(ItemID)
    case invalidTitle(String)
    case duplicateID(ItemID)
    case insideItself(ItemID)
    /// The lines around the spot would take the item in (as code or HTML): 1-based line.
    case swallowed(file: String, line: Int)

    public var description: String {
        switch self {
        case .noSuchItem(let id): "no item with id \(id)"
        case .invalidTitle(let why): "invalid title: \(why)"
        case .duplicateID(let id): "an item with id \(id) exists already"
        case .insideItself(let id): "item \(id) cannot go inside itself"
        case .swallowed(let file, let line):
            "\(file):\(line): the item would land inside a code block or HTML block left open above it; close that block, then try again"
        }
    }
}

extension ListDocument {
    /// Changes fields of an item in place; a nil argument leaves that field as it is.
    ///
    /// Only the bytes of the changed field move: the box for `isDone`, the title text for
    /// `title`, `priority` and `due`, the note lines for `notes`.
    public mutating func update(
        _ id: ItemID, title: String? = nil, notes: String? = nil, isDone: Bool? = nil,
        priority: Priority? = nil, due: CalendarDate?? = nil
    ) throws(EditError) {
        guard let node = node(for: id) else { throw .noSuchItem(id) }
        var newTitle = title ?? self.title(ofNode: node)
        if let priority { newTitle = TitleFields.setting(priority, in: newTitle) }
        if let due { newTitle = TitleFields.setting(due, in: newTitle) }
        if title != nil || priority != nil || due != nil {
            try Self.validate(title: newTitle)
            setTitle(Array(newTitle.utf8), ofNode: node)
        }
        if let isDone { setDone(isDone, ofNode: node) }
        if let notes { setNotes(notes, ofNode: node) }
    }

    /// Sets an Obsidian Tasks field of an item (`TitleFields.setting`): only the title's bytes
    /// change. A value that would not read back as that field is refused.
    public mutating func update(_ id: ItemID, field kind: TaskFieldKind, to value: String?) throws(EditError) {
        guard let node = node(for: id) else { throw .noSuchItem(id) }
        let title = TitleFields.setting(kind, to: value, in: self.title(ofNode: node))
        if let value {
            let read = TitleFields(title: title)
            let readBack = kind == .priority ? read.priority.description : read.values[kind]
            guard readBack?.lowercased() == value.lowercased() else {
                throw .invalidTitle("\"\(value)\" is not a valid \(kind.name)")
            }
        }
        try Self.validate(title: title)
        setTitle(Array(title.utf8), ofNode: node)
    }

    /// Adds an item as the last child of `parent`, or at the end of the file.
    ///
    /// The new line copies the list marker of its neighbours and the file's line ending.
    public mutating func add(
        _ title: String, id: ItemID, isDone: Bool = false, under parent: ItemID? = nil
    ) throws(EditError) {
        try Self.validate(title: title)
        guard node(for: id) == nil else { throw .duplicateID(id) }
        let parentNode: Int?
        if let parent {
            guard let found = node(for: parent) else { throw .noSuchItem(parent) }
            parentNode = found
        } else {
            parentNode = nil
        }
        let siblings = parentNode.map { children(ofNode: $0) } ?? topLevelNodes
        let indent: [UInt8]
        let marker: [UInt8]
        if let last = siblings.last {
            let line = lines[nodeLine(last)].content
            let (_, markerStart) = leadingIndent(line, from: line.startIndex)
            indent = Array(line[line.startIndex..<markerStart])
            marker = Self.nextMarker(after: line[markerStart...])
        } else if let parentNode {
            indent = Array(repeating: UInt8(ascii: " "), count: contentColumn(ofNode: parentNode))
            let line = lines[nodeLine(parentNode)].content
            let (_, markerStart) = leadingIndent(line, from: line.startIndex)
            marker = Self.firstMarker(like: line[markerStart...])
        } else {
            indent = []
            marker = Array("-".utf8)
        }
        var content = indent + marker + Array(" [".utf8)
        content.append(isDone ? UInt8(ascii: "x") : UInt8(ascii: " "))
        content += Array("] ".utf8) + IDPlacement.titleWithComment(Array(title.utf8), IDComment.canonicalBytes(for: id))
        // Placed as any block is: below lines the new item would otherwise take in as notes.
        let block = Block(lines: [ListLine(content: content[...], ending: dominantEnding)], indent: indent)
        try put(block, at: parent.map { .under($0) } ?? .end)
    }

    /// Removes an item with its notes and everything nested under it.
    public mutating func remove(_ id: ItemID) throws(EditError) {
        guard let node = node(for: id) else { throw .noSuchItem(id) }
        replaceLines(subtree(ofNode: node), with: [])
    }

    // MARK: - Line-level edits

    /// The item's first line with `id` written in: in place of a damaged or different comment,
    /// or where a new id goes (`IDPlacement`).
    func lineWithID(_ id: ItemID, node: Int) -> [UInt8] {
        let content = lines[nodeLine(node)].content
        var bytes = Array(content)
        let base = content.startIndex
        let comment = IDComment.canonicalBytes(for: id)
        if let existing = idComment(ofNode: node) {
            bytes.replaceSubrange((existing.range.lowerBound - base)..<(existing.range.upperBound - base), with: comment)
        } else if let offset = IDPlacement.offset(in: content[nodes[node].head.title]) {
            bytes.insert(contentsOf: comment + [UInt8(ascii: " ")], at: offset - base)
        } else {
            // After the last visible byte, so trailing white space (a hard break) stays last.
            let end = trimmedEnd(content, start: content.startIndex, end: content.endIndex) - base
            bytes.insert(contentsOf: [UInt8(ascii: " ")] + comment, at: end)
        }
        return bytes
    }

    private mutating func setTitle(_ title: [UInt8], ofNode node: Int) {
        let lineIndex = nodeLine(node)
        let content = lines[lineIndex].content
        var bytes = Array(content)
        let head = nodes[node].head
        var replacement = title
        var range = head.title
        if let comment = head.idComment?.range,
            head.hasCommentInsideTitle || FieldedText(before: content[head.title], after: []).before.slots.isEmpty
        {
            // The new title and the comment are written as a new id would be (`IDPlacement`):
            // fields after the comment, where Obsidian Tasks reads them. Only a line whose
            // fields stand before a comment at its end keeps that order.
            range = range.lowerBound..<max(range.upperBound, comment.upperBound)
            replacement = IDPlacement.titleWithComment(title, content[comment])
        }
        bytes.replaceSubrange((range.lowerBound - content.startIndex)..<(range.upperBound - content.startIndex), with: replacement)
        replaceLines(lineIndex..<(lineIndex + 1), with: [ListLine(content: bytes[...], ending: lines[lineIndex].ending)])
    }

    private mutating func setDone(_ done: Bool, ofNode node: Int) {
        guard isDone(node: node) != done else { return }
        let lineIndex = nodeLine(node)
        var bytes = Array(lines[lineIndex].content)
        bytes[nodes[node].head.checkbox - lines[lineIndex].content.startIndex] = done ? UInt8(ascii: "x") : UInt8(ascii: " ")
        replaceLines(lineIndex..<(lineIndex + 1), with: [ListLine(content: bytes[...], ending: lines[lineIndex].ending)])
    }

    private mutating func setNotes(_ notes: String, ofNode node: Int) {
        guard self.notes(ofNode: node) != notes else { return }
        // Drop the old note lines (from the end, so indices stay valid), then write the new ones
        // right under the item's first line.
        let noteLines = noteLines(ofNode: node)
        var remaining = lines
        for index in noteLines.reversed() { remaining.remove(at: index) }
        let headLine = nodeLine(node)
        let indent = [UInt8](repeating: UInt8(ascii: " "), count: contentColumn(ofNode: node))
        let newLines: [[UInt8]] = notes.isEmpty ? [] : notes.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.isEmpty ? [] : indent + Array($0.utf8)
        }
        lines = remaining
        insertLines(newLines, at: headLine + 1)
    }

    /// Inserts lines before `index`, ending each with the file's usual line ending, and makes sure
    /// the line before them is ended.
    private mutating func insertLines(_ contents: [[UInt8]], at index: Int) {
        guard !contents.isEmpty else {
            replaceLines(index..<index, with: [])
            return
        }
        let ending = dominantEnding
        var newLines = contents.map { ListLine(content: $0[...], ending: ending) }
        var range = index..<index
        if index > 0, lines[index - 1].ending == .none {
            // Joining onto an unterminated last line: end it, and leave the new last line unterminated.
            range = (index - 1)..<index
            newLines.insert(ListLine(content: lines[index - 1].content, ending: ending), at: 0)
            newLines[newLines.count - 1].ending = .none
        }
        replaceLines(range, with: newLines)
    }

    /// `-` stays `-`; `3.` becomes `4.`, keeping the delimiter.
    private static func nextMarker(after text: ArraySlice<UInt8>) -> [UInt8] {
        var digits = 0
        var i = text.startIndex
        while i < text.endIndex, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") {
            digits = digits * 10 + Int(text[i] - UInt8(ascii: "0"))
            i += 1
        }
        if i == text.startIndex { return [text[text.startIndex]] }
        return Array(String(digits + 1).utf8) + [text[i]]
    }

    private static func firstMarker(like text: ArraySlice<UInt8>) -> [UInt8] {
        let first = text[text.startIndex]
        if first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            var i = text.startIndex
            while i < text.endIndex, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") { i += 1 }
            return Array("1".utf8) + [text[i]]
        }
        return [first]
    }

    static func validate(title: String) throws(EditError) {
        if title.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            throw .invalidTitle("a title is one line; put more text in the notes")
        }
        if title.allSatisfy({ $0 == " " || $0 == "\t" }) { throw .invalidTitle("a title cannot be empty") }
        if title.contains("<!--") { throw .invalidTitle("a title cannot hold an HTML comment") }
    }
}
