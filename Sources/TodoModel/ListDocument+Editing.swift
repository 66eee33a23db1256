/// Why an edit of a list could not be made. Nothing was changed.
public enum EditError: Error, Hashable, Sendable, CustomStringConvertible {
    case noSuchItem(ItemID)
    case invalidTitle(String)
    /// Notes that would not stay the item's notes (they would hold an item, or open a block
    /// that takes in what follows): why.
    case invalidNotes(String)
    case duplicateID(ItemID)
    /// An item named as the place to move an item to is the item or inside it.
    case insideItself(title: String)
    /// The lines above the spot (1-based line) would take the placed item in: a code block,
    /// HTML block or paragraph left open there (in the notes of `heldBy`, if an item's).
    case cannotLand(title: String, file: String, line: Int, heldBy: String?)
    /// The edit would change an item it does not name (`doing`: what the edit was doing).
    case wouldChange(file: String, line: Int, UnintendedChange, doing: String)
    /// `settle` named an item with no clash.
    case noClash(title: String)
    /// `settle` chose a version the clash does not have (1-based line of the clash).
    case noSuchVersion(title: String, file: String, line: Int, count: Int)
    /// `settle` asked to keep both values of a title or field.
    case oneValueOnly(title: String, file: String, line: Int)
    /// A version `settle` would leave out holds a task item.
    case clashVersionHoldsItem(title: String, file: String, line: Int, version: Int)
    /// Clash comments that no longer make a whole block.
    case unfinishedClash(file: String, line: Int)

    public var description: String {
        switch self {
        case .noSuchItem(let id): "no item with id \(id)"
        case .invalidTitle(let why): "invalid title: \(why)"
        case .invalidNotes(let why): "invalid notes: \(why)"
        case .duplicateID(let id): "an item with id \(id) exists already"
        case .insideItself(let title): "\"\(title)\" cannot go under, before or after itself or an item nested in it"
        case .cannotLand(let title, let file, let line, let holder):
            "\(file):\(line): \"\(title)\" cannot go there: it would be read as part of "
                + (holder.map { "the notes of \"\($0)\"" } ?? "the text above it")
                + " (a code block, HTML block or paragraph left open there), not as an item; close that block, or choose another place"
        case .wouldChange(let file, let line, let difference, let doing):
            "\(file):\(line): \(doing) would \(difference.phrase)"
        case .noClash(let title): "\"\(title)\" has no clash to settle"
        case .noSuchVersion(let title, let file, let line, let count):
            "\(file):\(line): the clash of \"\(title)\" has versions " + (count == 2 ? "1 and 2" : "1 to \(count)")
        case .oneValueOnly(let title, let file, let line):
            "\(file):\(line): the clash of \"\(title)\" is over its title or a field, which holds one value: keep 1 (what it holds) or 2 (the other side's)"
        case .clashVersionHoldsItem(let title, let file, let line, let version):
            "\(file):\(line): version \(version) holds the item \"\(title)\", which settling would remove; move it out of the clash first, or keep all versions"
        case .unfinishedClash(let file, let line):
            "\(file):\(line): clash comments that no longer make a whole block; settle it by editing: keep the lines you want and delete the comments"
        }
    }
}

extension UnintendedChange {
    /// What the edit would do, as the end of a sentence ("… would turn "B" into text").
    var phrase: String {
        switch self {
        case .lost(let title): "turn \"\(title)\" into text (the lines around it would no longer read it as an item)"
        case .appeared(let line): "make line \(line) a new task item"
        case .regrouped(let title): "nest \"\(title)\" under another item"
        case .altered(let title, let what): "change \(what) of \"\(title)\""
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
        let before = self
        var newTitle = title ?? self.title(ofNode: node)
        if let priority { newTitle = TitleFields.setting(priority, in: newTitle) }
        if let due { newTitle = TitleFields.setting(due, in: newTitle) }
        if title != nil || priority != nil || due != nil {
            try Self.validate(title: newTitle)
            setTitle(Array(newTitle.utf8), ofNode: node)
        }
        if let isDone { setDone(isDone, ofNode: node) }
        var written = 0
        if let notes { written = try setNotes(notes, ofNode: node) }
        var intended = ItemTreeCheck.Intended(before)
        intended.nodes[node].isDone = isDone
        intended.nodes[node].title = title != nil || priority != nil || due != nil ? newTitle : nil
        intended.nodes[node].notes = notes
        // Notes taken away can leave an ordered child list right under the item's text, which
        // only `1.` may interrupt: its first item is renumbered, as a removal does.
        let next = nodeLine(node) + 1 + written
        if notes != nil, next < lines.count, ItemTreeCheck.difference(self, from: intended) != nil,
            let marker = ListMarker(lines[next].content), marker.number != 1,
            let one = ListMarker.first(like: marker.bytes), let content = renumbered(next, to: one)
        {
            let attempt = self
            replaceLines(next..<(next + 1), with: [ListLine(content: content[...], ending: lines[next].ending)])
            if ItemTreeCheck.difference(self, from: intended) != nil { self = attempt }
        }
        try checkEdit(of: node, against: intended, before: before)
    }

    /// Refuses (and undoes) an edit of the item that left an item tree other than `intended`.
    private mutating func checkEdit(
        of node: Int, against intended: ItemTreeCheck.Intended, before: ListDocument
    ) throws(EditError) {
        guard let (difference, line) = ItemTreeCheck.difference(self, from: intended) else { return }
        self = before
        throw .wouldChange(file: path, line: line, difference, doing: "editing \"\(before.title(ofNode: node))\"")
    }

    /// Sets an Obsidian Tasks field of an item (`TitleFields.setting`): only the title's bytes
    /// change. A value that would not read back as that field is refused.
    public mutating func update(_ id: ItemID, field kind: TaskFieldKind, to value: String?) throws(EditError) {
        guard let node = node(for: id) else { throw .noSuchItem(id) }
        let before = self
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
        var intended = ItemTreeCheck.Intended(before)
        intended.nodes[node].title = title
        try checkEdit(of: node, against: intended, before: before)
    }

    /// Adds an item as the last child of `parent`, or at the end of the file.
    ///
    /// The new line takes the list marker of its siblings (the next number in an ordered
    /// list), their indentation and the file's line ending.
    public mutating func add(
        _ title: String, id: ItemID, isDone: Bool = false, under parent: ItemID? = nil
    ) throws(EditError) {
        try Self.validate(title: title)
        guard node(for: id) == nil else { throw .duplicateID(id) }
        if let parent, node(for: parent) == nil { throw .noSuchItem(parent) }
        var content = Array("- [".utf8)
        content.append(isDone ? UInt8(ascii: "x") : UInt8(ascii: " "))
        content += Array("] ".utf8) + IDPlacement.titleWithComment(Array(title.utf8), IDComment.canonicalBytes(for: id))
        let line = ListLine(content: content[...], ending: dominantEnding)
        let block = Block(
            lines: [line], indent: [], tree: [ItemTreeCheck.Node(id: id, depth: 0, title: title, isDone: isDone)])
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
            bytes.replaceSubrange(
                (existing.range.lowerBound - base)..<(existing.range.upperBound - base), with: comment)
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
        bytes.replaceSubrange(
            (range.lowerBound - content.startIndex)..<(range.upperBound - content.startIndex), with: replacement)
        replaceLines(
            lineIndex..<(lineIndex + 1), with: [ListLine(content: bytes[...], ending: lines[lineIndex].ending)])
    }

    private mutating func setDone(_ done: Bool, ofNode node: Int) {
        guard isDone(node: node) != done else { return }
        let lineIndex = nodeLine(node)
        var bytes = Array(lines[lineIndex].content)
        bytes[nodes[node].head.checkbox - lines[lineIndex].content.startIndex] =
            done ? UInt8(ascii: "x") : UInt8(ascii: " ")
        replaceLines(
            lineIndex..<(lineIndex + 1), with: [ListLine(content: bytes[...], ending: lines[lineIndex].ending)])
    }

    /// Returns how many note lines it wrote.
    @discardableResult
    private mutating func setNotes(_ notes: String, ofNode node: Int) throws(EditError) -> Int {
        var texts = Self.noteLineTexts(notes)
        while texts.last?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { texts.removeLast() }
        while texts.first?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { texts.removeFirst() }
        try Self.validate(notes: texts)
        guard self.notes(ofNode: node) != texts.joined(separator: "\n") else { return noteLines(ofNode: node).count }
        // Drop the old note lines (from the end, so indices stay valid), then write the new ones
        // right under the item's first line.
        let noteLines = noteLines(ofNode: node)
        var remaining = lines
        for index in noteLines.reversed() { remaining.remove(at: index) }
        let headLine = nodeLine(node)
        let indent = [UInt8](repeating: UInt8(ascii: " "), count: contentColumn(ofNode: node))
        let newLines: [[UInt8]] = texts.map {
            $0.allSatisfy({ $0 == " " || $0 == "\t" }) ? [] : indent + Array($0.utf8)
        }
        lines = remaining
        insertLines(newLines, at: headLine + 1)
        return newLines.count
    }

    /// Refuses note lines that would not stay an item's notes wherever they are written:
    /// tried under an item with a child and a sibling after it, they must read back as the
    /// item's notes, and the child and sibling must still be items.
    static func validate(notes texts: [Substring]) throws(EditError) {
        guard !texts.isEmpty else { return }
        var probe = Array("- [ ] T\n".utf8)
        for text in texts { probe += (text.isEmpty ? [] : Array("  ".utf8) + Array(text.utf8)) + [0x0A] }
        probe += Array("  - [ ] C\n- [ ] S\n".utf8)
        let document = ListDocument(path: "", bytes: probe)
        if document.nodeCount == 3, document.nodeDepths == [0, 1, 0],
            document.noteTexts(ofNode: 0) == noteTexts(texts.joined(separator: "\n"))
        {
            return
        }
        for (index, text) in texts.enumerated() where document.roleOfLine(index + 1).headNode != nil {
            throw .invalidNotes(
                "line \(index + 1) of the notes (\"\(text)\") would be a task item of its own; add it as an item with --under, or start the line otherwise"
            )
        }
        guard document.nodeCount > 0, document.nodeLine(0) == 0 else {
            throw .invalidNotes(
                "the notes would turn the item's own line into something else (a heading underline such as --- or ===)")
        }
        guard document.nodeCount >= 3 else {
            throw .invalidNotes(
                "the notes leave a code block or HTML block open (a ``` fence, or a tag such as <div> with no blank line after it), which would take in what follows them; close it within the notes"
            )
        }
        throw .invalidNotes("the notes would not read back as written")
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

    static func validate(title: String) throws(EditError) {
        if title.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            throw .invalidTitle("a title is one line; put more text in the notes")
        }
        if title.allSatisfy({ $0 == " " || $0 == "\t" }) { throw .invalidTitle("a title cannot be empty") }
        if title.contains("<!--") { throw .invalidTitle("a title cannot hold an HTML comment") }
    }
}
