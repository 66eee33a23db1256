/// Where a new id comment goes in an item's title: where it disturbs least. Before the run of
/// Obsidian Tasks fields that ends the title, and before a trailing block reference (`^abc`),
/// so that Obsidian Tasks still reads its fields from the end of the line and block links
/// still resolve; after the text otherwise.
///
/// ```swift
/// IDPlacement.titleWithComment("Pay rent ⏫ 📅 2026-12-01 ^rent", comment)
/// // "Pay rent <!-- id: … --> ⏫ 📅 2026-12-01 ^rent"
/// ```
enum IDPlacement {
    /// The offset in `title` (trimmed, no comment in it) where the comment goes, followed by a
    /// space; nil when it goes after the text.
    static func offset(in title: ArraySlice<UInt8>) -> Int? {
        // The words end where the white space before the run of fields starts.
        let wordsEnd = FieldedText(before: title, after: []).before.words.endIndex
        // A title of fields alone keeps them first.
        guard wordsEnd > title.startIndex, wordsEnd < title.endIndex else { return nil }
        var start = wordsEnd
        while start < title.endIndex, title[start].isSpaceOrTab { start += 1 }
        // Only white space after the words (a title typed with a trailing space): after the text.
        return start < title.endIndex ? start : nil
    }

    /// `title` with `comment` placed as a new id is.
    static func titleWithComment(_ title: [UInt8], _ comment: some Collection<UInt8>) -> [UInt8] {
        guard let offset = offset(in: title[...]) else { return title + [0x20] + comment }
        var before = title[..<offset]
        while before.last?.isSpaceOrTab == true { before = before.dropLast() }
        return Array(before) + [0x20] + comment + [0x20] + title[offset...]
    }
}
