/// The id comment at the end of an item's first line, as found by the parser.
enum IDComment: Hashable, Sendable {
    /// A readable id comment; `range` covers `<!--` through `-->`.
    case valid(ItemID, range: Range<Int>)
    /// Something that was an id comment before an editor damaged it (`<!- id: 0F6C…`, a lost digit).
    case damaged(range: Range<Int>)

    var range: Range<Int> {
        switch self {
        case .valid(_, let range), .damaged(let range): range
        }
    }

    /// The comment todosync writes: `<!-- id: UUID -->`.
    static func canonicalBytes(for id: ItemID) -> [UInt8] {
        Array("<!-- id: ".utf8) + id.canonicalBytes + Array(" -->".utf8)
    }

    /// Finds an id comment (valid or damaged) ending at `end` in `bytes[start..<end]`.
    ///
    /// Accepted as valid: `<!--`, optional spaces, `id` (any case), optional spaces, `:`, optional
    /// spaces, a UUID (any case), optional spaces, `-->`. Taken as damaged: the same shape with
    /// dashes or `>` lost or a UUID of the wrong length, as long as `<!`, `id` and `:` remain.
    static func find(in bytes: ArraySlice<UInt8>, start: Int, end: Int) -> IDComment? {
        guard end - start >= 6 else { return nil }
        // The last "<!" in the range.
        var lt = end - 2
        while lt >= start, !(bytes[lt] == UInt8(ascii: "<") && bytes[lt + 1] == UInt8(ascii: "!")) { lt -= 1 }
        guard lt >= start else { return nil }
        // It must start the title or follow white space, so "a<!--id:x-->" stays text.
        guard lt == start || bytes[lt - 1].isSpaceOrTab else { return nil }

        var i = lt + 2
        var openDashes = 0
        while i < end, bytes[i] == UInt8(ascii: "-"), openDashes < 2 { openDashes += 1; i += 1 }
        i = skipSpaces(bytes, i, end)
        guard i + 1 < end, bytes[i] | 0x20 == UInt8(ascii: "i"), bytes[i + 1] | 0x20 == UInt8(ascii: "d") else { return nil }
        i = skipSpaces(bytes, i + 2, end)
        guard i < end, bytes[i] == UInt8(ascii: ":") else { return nil }
        i = skipSpaces(bytes, i + 1, end)
        let uuidStart = i
        while i < end, bytes[i] == UInt8(ascii: "-") || hexValue(bytes[i]) != nil { i += 1 }
        var uuidEnd = i
        guard uuidEnd > uuidStart else { return nil }
        i = skipSpaces(bytes, i, end)
        // Trailing dashes of the UUID run may belong to the closing "-->".
        var closeDashes = 0
        while i < end, bytes[i] == UInt8(ascii: "-") { closeDashes += 1; i += 1 }
        if closeDashes == 0 {
            // "…4E5F-->" was swallowed into the UUID run: give the dashes back.
            while uuidEnd > uuidStart, bytes[uuidEnd - 1] == UInt8(ascii: "-"), closeDashes < 2 {
                uuidEnd -= 1
                closeDashes += 1
            }
        }
        let closed = i < end && bytes[i] == UInt8(ascii: ">")
        if closed { i += 1 }
        guard i == end else { return nil }
        let range = lt..<end
        if openDashes == 2, closeDashes == 2, closed, let id = ItemID(bytes: bytes[uuidStart..<uuidEnd]) {
            return .valid(id, range: range)
        }
        return .damaged(range: range)
    }

    private static func skipSpaces(_ bytes: ArraySlice<UInt8>, _ from: Int, _ end: Int) -> Int {
        var i = from
        while i < end, bytes[i].isSpaceOrTab { i += 1 }
        return i
    }
}
