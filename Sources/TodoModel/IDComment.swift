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

    /// Finds an id comment (valid or damaged) ending at `end` in `buffer[start..<end]`.
    ///
    /// Accepted as valid: `<!--`, optional spaces, `id` (any case), optional spaces, `:`, optional
    /// spaces, a UUID (any case), optional spaces, `-->`. Taken as damaged: the same shape with
    /// dashes or `>` lost or a UUID of the wrong length, as long as `<!`, `id` and `:` remain.
    ///
    /// NB: on raw bytes (offsets into the buffer): this runs for every item line.
    static func find(in buffer: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> IDComment? {
        guard end - start >= 6, let found = scan(buffer, start: start, end: end) else { return nil }
        if let id = found.id { return .valid(id, range: found.range) }
        return .damaged(range: found.range)
    }

    /// Finds a readable id comment inside `buffer[start..<end]`, with text after it: an editor
    /// (or Obsidian Tasks adding `✅ 2026-11-24`) typed past the comment. The first one that
    /// starts the text or follows white space, and is followed by white space, counts; text
    /// around it stays the item's title. Damaged comments are recognised only at the end.
    static func findInside(_ buffer: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> IDComment? {
        var lt = start
        while lt + 4 < end {
            defer { lt += 1 }
            guard buffer[lt] == 0x3C, buffer[lt + 1] == 0x21, lt == start || buffer[lt - 1].isSpaceOrTab else {
                continue
            }
            // The comment's end: the first "-->" after its opening.
            var close = lt + 4
            while close + 2 < end, !(buffer[close] == 0x2D && buffer[close + 1] == 0x2D && buffer[close + 2] == 0x3E) {
                close += 1
            }
            let commentEnd = close + 3
            guard commentEnd < end, buffer[commentEnd].isSpaceOrTab,
                case .valid(let id, let range)? = find(in: buffer, start: lt, end: commentEnd), range.lowerBound == lt
            else { continue }
            return .valid(id, range: range)
        }
        return nil
    }

    /// `<!-- id:` and ` -->` as little-endian words.
    private static let canonicalOpeningWord: UInt64 = 0x3A64_6920_2D2D_213C
    private static let canonicalClosingWord: UInt32 = 0x3E2D_2D20

    private static func scan(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> (range: Range<Int>, id: ItemID?)?
    {
        // Fast path: exactly what todosync writes, `<!-- id: UUID -->`, 49 bytes, its fixed
        // parts compared a word at a time (byte loops over them were a tenth of a parse).
        let lt0 = end - 49
        if lt0 >= start, lt0 == start || b[lt0 - 1].isSpaceOrTab, let text = b.baseAddress,
            UInt64(littleEndian: UnsafeRawPointer(text + lt0).loadUnaligned(as: UInt64.self)) == canonicalOpeningWord,
            text[lt0 + 8] == 0x20,
            UInt32(littleEndian: UnsafeRawPointer(text + end - 4).loadUnaligned(as: UInt32.self))
                == canonicalClosingWord,
            let id = ItemID(uuid: UnsafeBufferPointer(start: text + lt0 + 9, count: 36))
        {
            return (lt0..<end, id)
        }
        // The last "<!" in the range.
        var lt = end - 2
        while lt >= start, !(b[lt] == 0x3C && b[lt + 1] == 0x21) { lt -= 1 }
        guard lt >= start else { return nil }
        // It must start the title or follow white space, so "a<!--id:x-->" stays text.
        guard lt == start || b[lt - 1].isSpaceOrTab else { return nil }

        var i = lt + 2
        var openDashes = 0
        while i < end, b[i] == 0x2D, openDashes < 2 { openDashes += 1; i += 1 }
        i = skipSpaces(b, i, end)
        guard i + 1 < end, b[i] | 0x20 == 0x69, b[i + 1] | 0x20 == 0x64 else { return nil }  // "id"
        i = skipSpaces(b, i + 2, end)
        guard i < end, b[i] == 0x3A else { return nil }  // ":"
        i = skipSpaces(b, i + 1, end)
        let uuidStart = i
        while i < end, b[i] == 0x2D || hexValue(b[i]) != nil { i += 1 }
        var uuidEnd = i
        guard uuidEnd > uuidStart else { return nil }
        i = skipSpaces(b, i, end)
        // Trailing dashes of the UUID run may belong to the closing "-->".
        var closeDashes = 0
        while i < end, b[i] == 0x2D { closeDashes += 1; i += 1 }
        if closeDashes == 0 {
            // "…4E5F-->" was swallowed into the UUID run: give the dashes back.
            while uuidEnd > uuidStart, b[uuidEnd - 1] == 0x2D, closeDashes < 2 {
                uuidEnd -= 1
                closeDashes += 1
            }
        }
        let closed = i < end && b[i] == 0x3E
        if closed { i += 1 }
        guard i == end else { return nil }
        if openDashes == 2, closeDashes == 2, closed,
            let id = ItemID(bytes: UnsafeBufferPointer(rebasing: b[uuidStart..<uuidEnd]))
        {
            return (lt..<end, id)
        }
        return (lt..<end, nil)
    }

    private static func skipSpaces(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        var i = from
        while i < end, b[i].isSpaceOrTab { i += 1 }
        return i
    }
}
