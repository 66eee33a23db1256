/// What the parser reads from the first line of a task item.
///
/// All offsets are indices into the line's `content` slice.
struct TaskHead: Hashable, Sendable {
    /// Column of the list marker (tabs expand to multiples of 4).
    var markerColumn: Int
    /// Column where the item's content starts: children and notes are indented at least this far.
    var contentColumn: Int
    /// Offset of the byte inside `[ ]`.
    var checkbox: Int
    /// The title, without the id comment and surrounding white space.
    var title: Range<Int>
    var idComment: IDComment?

    /// Recognises a GitHub task list item: `-`, `*`, `+`, `1.` or `1)`, one to four spaces,
    /// `[ ]`, `[x]` or `[X]`, white space, then text. Returns nil for any other line.
    static func parse(_ line: ArraySlice<UInt8>, from start: Int) -> TaskHead? {
        let end = line.endIndex
        let (markerColumn, markerStart) = leadingIndent(line, from: start)
        guard markerStart < end else { return nil }
        var i = markerStart
        let first = line[i]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+") {
            i += 1
        } else if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
            while i < end, i - markerStart < 9, line[i] >= UInt8(ascii: "0") && line[i] <= UInt8(ascii: "9") { i += 1 }
            guard i < end, line[i] == UInt8(ascii: ".") || line[i] == UInt8(ascii: ")") else { return nil }
            i += 1
        } else {
            return nil
        }
        let markerEndColumn = markerColumn + (i - markerStart)
        // One to four columns of white space, then the box.
        var column = markerEndColumn
        let spaceStart = i
        while i < end, line[i].isSpaceOrTab {
            column += line[i] == 0x09 ? 4 - column % 4 : 1
            i += 1
        }
        guard i > spaceStart, column - markerEndColumn <= 4 else { return nil }
        guard i + 2 < end, line[i] == UInt8(ascii: "["), line[i + 2] == UInt8(ascii: "]") else { return nil }
        let box = line[i + 1]
        guard box == UInt8(ascii: " ") || box == UInt8(ascii: "x") || box == UInt8(ascii: "X") else { return nil }
        let checkbox = i + 1
        i += 3
        // GFM wants white space after the box and some text.
        guard i < end, line[i].isSpaceOrTab else { return nil }
        while i < end, line[i].isSpaceOrTab { i += 1 }
        guard i < end else { return nil }
        let textEnd = trimmedEnd(line, start: i, end: end)
        let comment = IDComment.find(in: line, start: i, end: textEnd)
        let titleEnd = trimmedEnd(line, start: i, end: comment?.range.lowerBound ?? textEnd)
        return TaskHead(
            markerColumn: markerColumn, contentColumn: column, checkbox: checkbox,
            title: i..<titleEnd, idComment: comment)
    }
}
