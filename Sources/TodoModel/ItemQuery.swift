/// How a user names an item on the command line: a unique part of its title (any case: the
/// title and the text lower-cased, compared scalar by scalar), or the start of its id (at
/// least 4 hex digits).
///
/// ```swift
/// try ItemQuery("milk").resolve(in: lists)   // the one item whose title holds "milk"
/// try ItemQuery("0f6c").resolve(in: lists)   // the one item whose id starts 0F6C
/// ```
public struct ItemQuery: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    public init(_ text: String) { self.text = text }

    public var description: String { text }

    public enum Failure: Error, Hashable, Sendable {
        case noMatch(String)
        case ambiguous(String, candidates: [TodoItem])
    }

    /// The one item the query names. Where several match, those `preferring` accepts are asked
    /// first (`done` looks at open items, `reopen` at done ones, as Taskwarrior's `done` looks
    /// at pending tasks): a recurring chore's open occurrence beside the ones checked before.
    public func resolve(in lists: ListSet, preferring: ((TodoItem) -> Bool)? = nil) throws(Failure) -> TodoItem {
        do {
            return try resolveAll(in: lists)
        } catch {
            guard case .ambiguous(_, let candidates) = error, let preferring else { throw error }
            let preferred = candidates.filter(preferring)
            if preferred.count == 1 { return preferred[0] }
            if preferred.count > 1 { throw .ambiguous(text, candidates: preferred) }
            throw error
        }
    }

    private func resolveAll(in lists: ListSet) throws(Failure) -> TodoItem {
        // NB: over the lines, not the items: only the items that match are built (a list of a
        // million items is searched as git grep would search it).
        let needle = text.lowercased()
        let hex = needle.filter { $0 != "-" }
        if hex.count >= 4, hex.count <= 32, hex.allSatisfy({ $0.isHexDigit }) {
            let matches = nodes(in: lists) { document, node in
                document.id(ofNode: node).map { Self.id($0, startsWith: hex) } ?? false
            }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw .ambiguous(text, candidates: matches) }
        }
        let wanted = Array(needle.utf8)
        // A title whose plain form is the text holds each of its words: the longest is looked
        // for before the plain form is worked out.
        let longestWord = Array(wanted.split(separator: 0x20).max { $0.count < $1.count } ?? [])
        // An exact title wins over titles that merely contain the text.
        var containing: [(document: ListDocument, node: Int)] = []
        let exact = nodes(in: lists) { document, node in
            guard document.id(ofNode: node) != nil else { return false }
            let title = document.titleBytes(ofNode: node)
            let (contains, equal) = Self.search(wanted, in: title)
            let differs = TitleFields.mayHoldFields(title) || TitleFields.hasSpacesToCollapse(title)
            guard contains || differs else { return false }
            if contains { containing.append((document, node)) }
            if equal { return true }
            guard differs, contains || Self.search(longestWord, in: title).contains else { return false }
            let plain = TitleFields(title: String(decoding: title, as: UTF8.self)).plainTitle
            return Self.search(wanted, in: Array(plain.utf8)[...]).equal
        }
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 { throw .ambiguous(text, candidates: exact) }
        let found = Self.firstOccurrences(containing, in: lists)
        if found.count == 1 { return found[0] }
        if found.isEmpty { throw .noMatch(text) }
        throw .ambiguous(text, candidates: found)
    }

    /// The items of the nodes `matches` accepts, in path and file order: each id once, where
    /// it first stands (as `ListSet.items` has them).
    private func nodes(in lists: ListSet, where matches: (ListDocument, Int) -> Bool) -> [TodoItem] {
        var found: [(document: ListDocument, node: Int)] = []
        for document in lists.documents.values {
            for node in document.nodes.indices where matches(document, node) { found.append((document, node)) }
        }
        return Self.firstOccurrences(found, in: lists)
    }

    private static func firstOccurrences(
        _ found: [(document: ListDocument, node: Int)], in lists: ListSet
    ) -> [TodoItem] {
        guard !found.isEmpty else { return [] }
        // An id written twice counts where it first stands (an item whose id stands earlier
        // elsewhere is that item).
        var first: [ItemID: (path: String, node: Int)] = [:]
        let ids = Set(found.compactMap { $0.document.id(ofNode: $0.node) })
        for document in lists.documents.values {
            for node in document.nodes.indices {
                guard let id = document.id(ofNode: node), ids.contains(id), first[id] == nil else { continue }
                first[id] = (document.path, node)
            }
        }
        var seen = Set<ItemID>()
        let firsts = found.filter { match in
            guard let id = match.document.id(ofNode: match.node), let place = first[id] else { return false }
            return place.path == match.document.path && place.node == match.node && seen.insert(id).inserted
        }
        // Each found item built once: by its id where a file has a few, else with all of the
        // file's items in one pass (finding an item by id walks the file).
        var perFile: [String: (document: ListDocument, ids: Set<ItemID>)] = [:]
        for match in firsts {
            guard let id = match.document.id(ofNode: match.node) else { continue }
            perFile[match.document.path, default: (match.document, [])].ids.insert(id)
        }
        var built: [String: [ItemID: TodoItem]] = [:]
        for (path, file) in perFile where file.ids.count > 8 {
            var items: [ItemID: TodoItem] = [:]
            file.document.forEachItem(done: nil) { if file.ids.contains($0.id) { items[$0.id] = $0 } }
            built[path] = items
        }
        return firsts.compactMap { match in
            guard let id = match.document.id(ofNode: match.node) else { return nil }
            return built[match.document.path]?[id] ?? match.document.item(id: id)
        }
    }

    /// Whether the id's canonical digits start with `hex` (lower-case digits, no dashes).
    private static func id(_ id: ItemID, startsWith hex: String) -> Bool {
        for (index, digit) in hex.utf8.enumerated() {
            let word = index < 16 ? id.high : id.low
            let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - (index % 16) * 4)) & 0xF
            let value: UInt8 = digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10
            if nibble != value { return false }
        }
        return true
    }

    /// Whether the lower-cased title holds `wanted` (lower-cased UTF-8), and whether it is
    /// `wanted`. An ASCII title is folded byte by byte; any other is lower-cased as a String.
    /// Text is compared by its Unicode scalars (as git grep -i compares, not by Characters).
    static func search(_ wanted: [UInt8], in title: ArraySlice<UInt8>) -> (contains: Bool, equal: Bool) {
        if title.contains(where: { $0 >= 0x80 }) {
            // Lower-casing keeps ASCII ASCII and makes every other scalar but two (İ, the
            // Kelvin sign) other than ASCII: ASCII text is found in such a title byte by byte.
            if !wanted.contains(where: { $0 >= 0x80 }), !holdsScalarLoweredToASCII(title) {
                return (contains(wanted, in: title, folding: true), false)
            }
            let lowered = Array(String(decoding: title, as: UTF8.self).lowercased().utf8)
            return (contains(wanted, in: lowered[...], folding: false), lowered.elementsEqual(wanted))
        }
        return (
            contains(wanted, in: title, folding: true),
            title.count == wanted.count && contains(wanted, in: title, folding: true)
        )
    }

    private static func contains(_ wanted: [UInt8], in text: ArraySlice<UInt8>, folding: Bool) -> Bool {
        guard !wanted.isEmpty else { return true }
        guard text.count >= wanted.count else { return false }
        let first = wanted[0]
        var start = text.startIndex
        let last = text.endIndex - wanted.count
        while start <= last {
            let byte = folding ? lowered(text[start]) : text[start]
            if byte == first {
                var offset = 1
                while offset < wanted.count,
                    (folding ? lowered(text[start + offset]) : text[start + offset]) == wanted[offset]
                { offset += 1 }
                if offset == wanted.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether the bytes hold U+0130 (C4 B0) or U+212A (E2 84 AA), the two scalars other than
    /// ASCII whose lower case holds ASCII.
    private static func holdsScalarLoweredToASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == 0xC4, bytes[index + 1] == 0xB0 { return true }
            if bytes[index] == 0xE2, index + 2 < bytes.endIndex, bytes[index + 1] == 0x84, bytes[index + 2] == 0xAA {
                return true
            }
            index += 1
        }
        return false
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
