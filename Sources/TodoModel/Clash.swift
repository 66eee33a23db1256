/// A clash a merge marked in a list that nobody has settled yet (docs/MERGE.md, "Clashes"):
/// lines both sides changed, each version kept between `todosync clash` comments, or a note
/// under an item holding the title or field value the other side wrote.
///
/// Found in the file's own text, so every clone that holds the file finds it, whichever
/// clone merged, until someone settles it (`todosync settle`, or by editing).
public struct Clash: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Lines changed on both sides: each version's lines, in the file's order.
        case lines(versions: [[String]])
        /// The title renamed on both sides: the other title, as the note holds it.
        case title(other: String)
        /// A field set differently on both sides: what the note says the other side did.
        case field(note: String)
        /// Clash comments that no longer make a whole block (some were deleted by hand).
        case unfinished
    }

    public var file: String
    /// 1-based: the block's first and last comment line, or the note line.
    public var lines: ClosedRange<Int>
    /// The item whose notes hold it; nil in the file's own text.
    public var item: ItemID?
    public var itemTitle: String?
    public var kind: Kind

    /// One line saying what clashed and where, for status and sync.
    public var description: String {
        let place = lines.count == 1 ? "\(file):\(lines.lowerBound)" : "\(file):\(lines.lowerBound)-\(lines.upperBound)"
        let name = itemTitle.map { "\"\($0)\"" }
        switch kind {
        case .lines(let versions):
            return "\(place): " + (name.map { "the notes of \($0)" } ?? "these lines")
                + " were changed on both sides: \(versions.count) versions kept"
        case .title(let other):
            return "\(place): \(name ?? "an item") was renamed on both sides: 1 is its title, 2 is \"\(other)\""
        case .field(let note):
            return "\(place): \(name ?? "an item"): \(note)"
        case .unfinished:
            return
                "\(place): clash comments that no longer make a whole block: keep the lines you want and delete the comments"
        }
    }
}

/// The comment lines around a clash block's versions.
enum ClashMarker {
    case start, middle, end

    static let startLine = Array("<!-- todosync clash: one version -->".utf8)
    static let middleLine = Array("<!-- todosync clash: the other version -->".utf8)
    static let endLine = Array("<!-- todosync clash: end; keep what you want and delete these comments -->".utf8)

    private static let opening = Array("<!-- todosync clash: ".utf8)
    static let notePrefix = Array("todosync clash: ".utf8)
    static let titleNote = Array("this item was also renamed to: ".utf8)

    /// The marker a line is, with any indentation or block-quote markers before it.
    static func of(_ content: ArraySlice<UInt8>) -> ClashMarker? {
        let start = afterLead(content)
        guard start < content.endIndex, content[start] == UInt8(ascii: "<"), content[start...].starts(with: opening)
        else { return nil }
        let rest = content[(start + opening.count)...]
        if rest.starts(with: "one version".utf8) { return .start }
        if rest.starts(with: "the other version".utf8) || rest.starts(with: "another version".utf8) { return .middle }
        if rest.starts(with: "end".utf8) { return .end }
        return nil
    }

    /// The text of a clash note line (after `todosync clash: `), if the line is one.
    static func note(_ content: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let start = afterLead(content)
        guard start < content.endIndex, content[start] == UInt8(ascii: "t"), content[start...].starts(with: notePrefix)
        else { return nil }
        return content[(start + notePrefix.count)...]
    }

    /// Where a line's text starts after indentation and block-quote markers.
    static func afterLead(_ content: ArraySlice<UInt8>) -> Int {
        var i = content.startIndex
        while i < content.endIndex, content[i] == 0x20 || content[i] == 0x09 || content[i] == UInt8(ascii: ">") {
            i += 1
        }
        return i
    }
}

extension ListDocument {
    /// Every clash marked in the file and not yet settled, in file order.
    ///
    /// - Complexity: O(lines); a line that starts with neither `<` nor `t` is passed over at
    ///   its first byte.
    public var clashes: [Clash] {
        var found: [Clash] = []
        var open: (line: Int, versions: [[String]])?
        func owner(_ line: Int) -> (ItemID?, String?) {
            guard let node = roles[line].owner else { return (nil, nil) }
            return (nodes[node].id, title(ofNode: node))
        }
        for index in lines.indices {
            let content = lines[index].content
            if let marker = ClashMarker.of(content) {
                switch (marker, open) {
                case (.start, nil):
                    open = (index, [[]])
                case (.middle, var block?):
                    block.versions.append([])
                    open = block
                case (.end, let block?):
                    let (item, title) = owner(block.line)
                    found.append(
                        Clash(
                            file: path, lines: (block.line + 1)...(index + 1), item: item, itemTitle: title,
                            kind: .lines(versions: block.versions)))
                    open = nil
                case (.start, let block?):
                    // A second start before the end: the first block was left unfinished.
                    let (item, title) = owner(block.line)
                    found.append(
                        Clash(
                            file: path, lines: (block.line + 1)...index, item: item, itemTitle: title, kind: .unfinished
                        ))
                    open = (index, [[]])
                case (.middle, nil), (.end, nil):
                    let (item, title) = owner(index)
                    found.append(
                        Clash(
                            file: path, lines: (index + 1)...(index + 1), item: item, itemTitle: title,
                            kind: .unfinished))
                }
                continue
            }
            if var block = open {
                block.versions[block.versions.count - 1].append(String(decoding: content, as: UTF8.self))
                open = block
                continue
            }
            guard case .note(let node) = roles[index], let note = ClashMarker.note(content) else { continue }
            let text = String(decoding: note, as: UTF8.self)
            let kind: Clash.Kind =
                note.starts(with: ClashMarker.titleNote)
                ? .title(other: String(decoding: note.dropFirst(ClashMarker.titleNote.count), as: UTF8.self))
                : .field(note: text)
            found.append(
                Clash(
                    file: path, lines: (index + 1)...(index + 1), item: nodes[node].id, itemTitle: title(ofNode: node),
                    kind: kind))
        }
        if let block = open {
            let (item, title) = owner(block.line)
            found.append(
                Clash(
                    file: path, lines: (block.line + 1)...lines.count, item: item, itemTitle: title, kind: .unfinished))
        }
        return found
    }

    /// Whether the item whose line (1-based) this is holds a clash.
    func hasClash(onLine line: Int) -> Bool {
        guard line >= 1, line <= lines.count, case .head(let node) = roles[line - 1] else { return false }
        let id = nodes[node].id
        return mayHoldClashes && clashes.contains { $0.item == id }
    }

    /// Whether any line could be part of a clash (a cheap first look, before `clashes`).
    public var mayHoldClashes: Bool {
        lines.contains { line in
            let content = line.content
            let start = ClashMarker.afterLead(content)
            guard start < content.endIndex else { return false }
            let first = content[start]
            return (first == UInt8(ascii: "<") && ClashMarker.of(content) != nil)
                || (first == UInt8(ascii: "t") && ClashMarker.note(content) != nil)
        }
    }
}

extension ClashMarker {
    /// The lines with every clash block that stands inside another one's version joined into
    /// it: its own start and end comments dropped, its versions becoming versions of the
    /// outer block (a clash on lines left unsettled that clashes again never nests). nil when
    /// no block nests. Only comment lines are dropped.
    static func joiningNested(_ lines: [ListLine]) -> [ListLine]? {
        var depth = 0, dropped: [Int] = []
        for index in lines.indices {
            let content = lines[index].content
            guard let first = content.first,
                first == 0x20 || first == 0x09 || first == UInt8(ascii: ">") || first == UInt8(ascii: "<"),
                let marker = of(content)
            else { continue }
            switch marker {
            case .start:
                if depth > 0 { dropped.append(index) }
                depth += 1
            case .middle:
                continue
            case .end:
                guard depth > 0 else { continue }
                if depth > 1 { dropped.append(index) }
                depth -= 1
            }
        }
        guard !dropped.isEmpty else { return nil }
        var result: [ListLine] = []
        result.reserveCapacity(lines.count - dropped.count)
        var next = 0
        for index in lines.indices {
            if next < dropped.count, dropped[next] == index {
                next += 1
                continue
            }
            result.append(lines[index])
        }
        return result
    }
}

/// Which version of a clash stays (`todosync settle`).
public enum ClashChoice: Hashable, Sendable {
    /// The 1-based version: for a title or field clash, 1 is what the item holds and 2 what
    /// the note says the other side wrote; for lines, the versions in the file's order.
    case version(Int)
    /// Every version's lines, in order (lines only: a title holds one text).
    case all
}

extension ListDocument {
    /// The item's clashes settled: the chosen version kept, the clash comments and notes gone.
    /// A version left out that holds a task item is refused (settling never removes an item).
    public func settlingClashes(of id: ItemID, keep choice: ClashChoice) throws(EditError) -> ListDocument {
        guard let node = node(for: id) else { throw .noSuchItem(id) }
        let title = title(ofNode: node)
        let found = clashes.filter { $0.item == id }
        guard !found.isEmpty else { throw .noClash(title: title) }
        var dropped = Set<Int>()
        var words: String?, fields: [(TaskFieldKind, String?)] = []
        for clash in found {
            let first = clash.lines.lowerBound - 1
            switch clash.kind {
            case .lines(let versions):
                if case .version(let wanted) = choice, !(1...versions.count).contains(wanted) {
                    throw .noSuchVersion(title: title, file: path, line: clash.lines.lowerBound, count: versions.count)
                }
                var version = 1
                for index in first..<clash.lines.upperBound {
                    if let marker = ClashMarker.of(lines[index].content) {
                        if marker == .middle { version += 1 }
                        dropped.insert(index)
                        continue
                    }
                    if case .version(let wanted) = choice, wanted != version {
                        if case .head(let other) = roles[index] {
                            throw .clashVersionHoldsItem(
                                title: self.title(ofNode: other), file: path, line: index + 1, version: version)
                        }
                        dropped.insert(index)
                    }
                }
            case .title(let other):
                guard case .version(let wanted) = choice else {
                    throw .oneValueOnly(title: title, file: path, line: clash.lines.lowerBound)
                }
                guard (1...2).contains(wanted) else {
                    throw .noSuchVersion(title: title, file: path, line: clash.lines.lowerBound, count: 2)
                }
                dropped.insert(first)
                if wanted == 2 { words = TitleFields(title: other).plainTitle }
            case .field(let note):
                guard case .version(let wanted) = choice else {
                    throw .oneValueOnly(title: title, file: path, line: clash.lines.lowerBound)
                }
                guard (1...2).contains(wanted) else {
                    throw .noSuchVersion(title: title, file: path, line: clash.lines.lowerBound, count: 2)
                }
                dropped.insert(first)
                if wanted == 2, let field = Self.fieldNamed(in: note) { fields.append(field) }
            case .unfinished:
                throw .unfinishedClash(file: path, line: clash.lines.lowerBound)
            }
        }
        var result = ListDocument(path: path, lines: lines.indices.filter { !dropped.contains($0) }.map { lines[$0] })
        // Every other item reads as it did (the comments gone could have held a block open):
        // only the settled item's notes change, and its title or field below.
        var intended = ItemTreeCheck.Intended(self)
        if let settled = result.node(for: id) { intended.nodes[node].notes = result.notes(ofNode: settled) }
        if let (difference, line) = ItemTreeCheck.difference(result, from: intended) {
            throw .wouldChange(file: path, line: line, difference, doing: "settling the clash of \"\(title)\"")
        }
        if let words {
            // The other side's words, with the fields the item holds now (merged one by one).
            let now = TitleFields(title: title)
            var retitled = words
            if now.priority != .none { retitled = TitleFields.setting(now.priority, in: retitled) }
            for (kind, value) in now.values.sorted(by: { $0.key < $1.key }) {
                retitled = TitleFields.setting(kind, to: value, in: retitled)
            }
            try result.update(id, title: retitled)
        }
        for (kind, value) in fields { try result.update(id, field: kind, to: value) }
        return result
    }

    /// The field and value a field clash note gives the other side (`set the due date to 📅
    /// 2026-08-26`, `removed the due date`).
    static func fieldNamed(in note: String) -> (TaskFieldKind, String?)? {
        for kind in TaskFieldKind.allCases {
            if note == "the other side removed the \(kind.name)" { return (kind, nil) }
            let prefix = "the other side set the \(kind.name) to "
            guard note.hasPrefix(prefix) else { continue }
            let read = TitleFields(title: "x " + note.dropFirst(prefix.count))
            return (kind, kind == .priority ? read.priority.description : read.values[kind])
        }
        return nil
    }
}
