/// A position in one line as CommonMark's block parser keeps it: a byte offset and a column
/// (tabs stop every 4 columns), where a container may take only some of a tab's columns.
struct LineCursor {
    let line: UnsafeBufferPointer<UInt8>
    private(set) var offset: Int
    private(set) var column = 0

    /// The first byte that is no space or tab at or after `offset`, its column, and how far
    /// past `column` that is; `firstNonspace == line.count` on a blank rest of line.
    private(set) var firstNonspace = 0
    private(set) var firstNonspaceColumn = 0

    init(_ line: UnsafeBufferPointer<UInt8>, offset: Int) {
        self.line = line
        self.offset = offset
        findFirstNonspace()
    }

    var indent: Int { firstNonspaceColumn - column }
    var isBlank: Bool { firstNonspace == line.count }
    /// The byte at the first non-space, or nil at the line's end.
    var next: UInt8? { firstNonspace < line.count ? line[firstNonspace] : nil }

    mutating func findFirstNonspace() {
        var i = offset, col = column
        while i < line.count {
            let byte = line[i]
            if byte == 0x20 {
                col += 1
            } else if byte == 0x09 {
                col += 4 - col % 4
            } else {
                break
            }
            i += 1
        }
        firstNonspace = i
        firstNonspaceColumn = col
    }

    /// Moves on `count` columns (a tab may be taken in part).
    mutating func advance(columns count: Int) {
        var count = count
        while count > 0, offset < line.count {
            if line[offset] == 0x09 {
                let toTabStop = 4 - column % 4
                let taken = min(count, toTabStop)
                column += taken
                // A tab taken only in part stays under the cursor with its other columns.
                if taken == toTabStop { offset += 1 }
                count -= taken
            } else {
                offset += 1
                column += 1
                count -= 1
            }
        }
        findFirstNonspace()
    }

    /// Moves on `count` bytes (a tab counts whole, to its tab stop).
    mutating func advance(bytes count: Int) {
        for _ in 0..<count where offset < line.count {
            column += line[offset] == 0x09 ? 4 - column % 4 : 1
            offset += 1
        }
        findFirstNonspace()
    }

    mutating func advanceToFirstNonspace() {
        offset = firstNonspace
        column = firstNonspaceColumn
    }
}
