/// What the parser reads from the first line of a task item.
///
/// All offsets are indices into the line's `content` slice (so into the file's bytes).
///
/// NB: stored as 32-bit fields in 48 bytes, not 80: a parse keeps one per item, and at 100,000
/// items the difference is what keeps memory under ten times the file. Files are therefore
/// limited to `ListDocument.maximumSize`.
struct TaskHead: Hashable, Sendable {
    private var commentID: ItemID
    private var storedMarkerColumn: Int32
    private var storedContentColumn: Int32
    private var storedCheckbox: Int32
    private var titleStart: Int32
    private var titleEnd: Int32
    private var commentStart: Int32
    private var commentEnd: Int32
    /// 0: no id comment, 1: a valid one, 2: a damaged one.
    private var commentKind: UInt8

    init(markerColumn: Int, contentColumn: Int, checkbox: Int, title: Range<Int>, idComment: IDComment?) {
        storedMarkerColumn = Int32(markerColumn)
        storedContentColumn = Int32(contentColumn)
        storedCheckbox = Int32(checkbox)
        titleStart = Int32(title.lowerBound)
        titleEnd = Int32(title.upperBound)
        let range = idComment?.range ?? 0..<0
        commentStart = Int32(range.lowerBound)
        commentEnd = Int32(range.upperBound)
        switch idComment {
        case .valid(let id, _): (commentKind, commentID) = (1, id)
        case .damaged: (commentKind, commentID) = (2, ItemID(high: 0, low: 0))
        case nil: (commentKind, commentID) = (0, ItemID(high: 0, low: 0))
        }
    }

    /// Column of the list marker (tabs expand to multiples of 4).
    var markerColumn: Int { Int(storedMarkerColumn) }
    /// Column where the item's content starts: children and notes are indented at least this far.
    var contentColumn: Int { Int(storedContentColumn) }
    /// Offset of the byte inside `[ ]`.
    var checkbox: Int { Int(storedCheckbox) }
    /// The title, without the id comment and surrounding white space.
    var title: Range<Int> { Int(titleStart)..<Int(titleEnd) }

    var idComment: IDComment? {
        let range = Int(commentStart)..<Int(commentEnd)
        switch commentKind {
        case 1: return .valid(commentID, range: range)
        case 2: return .damaged(range: range)
        default: return nil
        }
    }

    var id: ItemID? { commentKind == 1 ? commentID : nil }

    /// Whether the id comment stands inside `title`'s range, with title text after it: the
    /// title is then the text on both sides of it (`titleParts`).
    var hasCommentInsideTitle: Bool { commentKind != 0 && commentEnd <= titleEnd && commentStart >= titleStart }

    /// The line's text around the id comment: `before` it (without the white space before the
    /// comment) and typed `after` it (with the white space after the comment); `after` is
    /// empty, at the comment's end (or the title's), when nothing was typed after it.
    func titleParts<Bytes: RandomAccessCollection<UInt8>>(in line: Bytes) -> (before: Range<Int>, after: Range<Int>)
    where Bytes.Index == Int {
        guard hasCommentInsideTitle else {
            let end = max(Int(titleEnd), commentKind == 0 ? 0 : Int(commentEnd))
            return (title, end..<end)
        }
        return (
            Int(titleStart)..<trimmedEnd(line, start: Int(titleStart), end: Int(commentStart)),
            Int(commentEnd)..<Int(titleEnd)
        )
    }

    /// A title as people read it: the text before the id comment and the text typed after it,
    /// one space between.
    static func joined(_ before: ArraySlice<UInt8>, _ after: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let typed = after.drop { $0.isSpaceOrTab }
        guard !typed.isEmpty else { return before }
        return (before.isEmpty ? Array(typed) : Array(before) + [0x20] + typed)[...]
    }

    /// The same head read from the same bytes placed `shift` bytes further on in a file.
    func shifted(by shift: Int) -> TaskHead {
        var head = self
        let delta = Int32(shift)
        head.storedCheckbox += delta
        head.titleStart += delta
        head.titleEnd += delta
        if commentKind != 0 {
            head.commentStart += delta
            head.commentEnd += delta
        }
        return head
    }

    /// Recognises a GitHub task list item read alone, its marker the first thing on the line
    /// at any indent: `-`, `*`, `+`, `1.` or `1)`, one to four columns of spaces, `[ ]`, `[x]`
    /// or `[X]`, white space, then text. Returns nil for any other line. (The parser reads the marker and box
    /// itself, with the block structure around them, and calls `reading(_:markerColumn:…)`.)
    static func parse(_ line: ArraySlice<UInt8>, from start: Int) -> TaskHead? {
        // NB: on the raw bytes, offsets from the slice's start: each checked subscript of a
        // slice cost a compare and a branch.
        let base = line.startIndex
        return line.withUnsafeBufferPointer { buffer -> TaskHead? in
            var cursor = LineCursor(buffer, offset: start - base)
            guard !cursor.isBlank,
                let width = BlockStarts.listMarker(buffer, cursor.firstNonspace, interruptingParagraph: false)
            else { return nil }
            let markerColumn = cursor.firstNonspaceColumn
            cursor.advanceToFirstNonspace()
            cursor.advance(bytes: width)
            guard (1...4).contains(cursor.indent), BlockStarts.isTaskBox(buffer, cursor.firstNonspace) else {
                return nil
            }
            return reading(
                buffer, markerColumn: markerColumn, contentColumn: cursor.firstNonspaceColumn,
                checkbox: cursor.firstNonspace + 1)
        }?.shifted(by: base)
    }

    /// The head of a task line whose marker and box were found: the box's middle byte at
    /// `checkbox`, followed by white space. Nil when no title follows the box (GFM shows a
    /// checkbox; todosync waits for the title).
    static func reading(
        _ line: UnsafeBufferPointer<UInt8>, markerColumn: Int, contentColumn: Int, checkbox: Int
    ) -> TaskHead? {
        let end = line.count
        var i = checkbox + 2
        while i < end, line[i].isInlineSpace { i += 1 }
        let textEnd = trimmedEnd(line, start: i, end: end)
        guard textEnd > i else { return nil }
        if let comment = IDComment.find(in: line, start: i, end: textEnd) {
            return TaskHead(
                markerColumn: markerColumn, contentColumn: contentColumn, checkbox: checkbox,
                title: i..<trimmedEnd(line, start: i, end: comment.range.lowerBound), idComment: comment)
        }
        // Text typed after the comment: the title runs on past it (`hasCommentInsideTitle`).
        return TaskHead(
            markerColumn: markerColumn, contentColumn: contentColumn, checkbox: checkbox,
            title: i..<textEnd, idComment: IDComment.findInside(line, start: i, end: textEnd))
    }
}
