/// Priority and due date as they stand in a title (Obsidian Tasks style), and edits to them.
///
/// The fields stay in the text: `Pay rent ⏫ 📅 2026-12-01` has the plain title `Pay rent`.
struct TitleFields {
    var priority: Priority = .none
    var due: DueDate? = nil
    /// The title without the priority emoji and the due field, spaces collapsed.
    var plainTitle: String


    init(title: String) {
        // Fast path: most titles hold no field emoji and no doubled spaces.
        if !Self.mayHoldFields(title) {
            self.plainTitle = Self.hasSpacesToCollapse(title)
                ? title.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") : title
            return
        }
        // NB: on UTF-8 bytes; building scalar arrays here dominated a 10,000-item status.
        let bytes = Array(title.utf8)
        var plain: [UInt8] = []
        plain.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if let (found, length) = Self.priority(in: bytes, at: i) {
                if priority == .none { priority = found }
                i += length
                continue
            }
            if let (date, length) = Self.dueField(in: bytes, at: i) {
                if due == nil { due = date }
                i += length
                continue
            }
            // Collapse runs of spaces, drop leading ones.
            if bytes[i] != 0x20 || (plain.last.map { $0 != 0x20 } ?? false) { plain.append(bytes[i]) }
            i += 1
        }
        while plain.last == 0x20 { plain.removeLast() }
        plainTitle = String(decoding: plain, as: UTF8.self)
    }

    private static let prioritySequences: [([UInt8], Priority)] = [
        ([0xF0, 0x9F, 0x94, 0xBA], .highest), ([0xE2, 0x8F, 0xAB], .high), ([0xF0, 0x9F, 0x94, 0xBC], .medium),
        ([0xF0, 0x9F, 0x94, 0xBD], .low), ([0xE2, 0x8F, 0xAC], .lowest),
    ]
    private static let calendarBytes: [UInt8] = [0xF0, 0x9F, 0x93, 0x85]
    private static let variationSelectorBytes: [UInt8] = [0xEF, 0xB8, 0x8F]

    /// A priority emoji (and an optional variation selector) at `i`: the priority and its length.
    private static func priority(in bytes: [UInt8], at i: Int) -> (Priority, Int)? {
        guard bytes[i] == 0xF0 || bytes[i] == 0xE2 else { return nil }
        for (sequence, priority) in prioritySequences where hasPrefix(bytes, sequence, at: i) {
            let end = i + sequence.count
            return (priority, hasPrefix(bytes, variationSelectorBytes, at: end) ? sequence.count + 3 : sequence.count)
        }
        return nil
    }

    /// `📅`, an optional variation selector, spaces and a date at `i`: the date and the length.
    private static func dueField(in bytes: [UInt8], at i: Int) -> (DueDate, Int)? {
        guard hasPrefix(bytes, calendarBytes, at: i) else { return nil }
        var j = i + 4
        if hasPrefix(bytes, variationSelectorBytes, at: j) { j += 3 }
        while j < bytes.count, bytes[j] == 0x20 { j += 1 }
        guard j + 10 <= bytes.count, let date = DueDate(String(decoding: bytes[j..<(j + 10)], as: UTF8.self)) else { return nil }
        return (date, j + 10 - i)
    }

    private static func hasPrefix(_ bytes: [UInt8], _ prefix: [UInt8], at i: Int) -> Bool {
        guard i + prefix.count <= bytes.count else { return false }
        for k in 0..<prefix.count where bytes[i + k] != prefix[k] { return false }
        return true
    }

    /// Whether the UTF-8 of `title` holds a lead sequence of 🔺🔼🔽📅 (F0 9F 9x) or ⏫⏬ (E2 8F).
    private static func mayHoldFields(_ title: String) -> Bool {
        var utf8 = title.utf8.makeIterator()
        var previous: UInt8 = 0
        while let byte = utf8.next() {
            if previous == 0xF0 && byte == 0x9F { return true }
            if previous == 0xE2 && byte == 0x8F { return true }
            previous = byte
        }
        return false
    }

    private static func hasSpacesToCollapse(_ title: String) -> Bool {
        var previous: UInt8 = 0x20
        for byte in title.utf8 {
            if byte == 0x20 && previous == 0x20 { return true }
            previous = byte
        }
        return previous == 0x20
    }

    /// `title` with its priority emoji replaced by `priority`'s (or removed for `.none`).
    ///
    /// Fields are found by the same byte matchers that read them, so writing and reading agree.
    static func setting(_ priority: Priority, in title: String) -> String {
        let bytes = removingAll(Array(title.utf8)) { bytes, i in Self.priority(in: bytes, at: i)?.1 }
        guard let emoji = priority.emoji else { return trimmed(bytes) }
        // Obsidian Tasks order: text, priority, then dates.
        let insertAt = firstIndex(of: calendarBytes, in: bytes) ?? bytes.count
        var before = Array(bytes[..<insertAt])
        while before.last == 0x20 { before.removeLast() }
        let after = Array(bytes[insertAt...])
        return trimmed(before + [0x20] + Array(emoji.utf8) + (after.isEmpty ? [] : [0x20] + after))
    }

    /// `title` with its due field replaced by `due` (or removed for nil).
    static func setting(_ due: DueDate?, in title: String) -> String {
        var result = trimmed(removingAll(Array(title.utf8)) { bytes, i in dueField(in: bytes, at: i)?.1 })
        if let due { result += (result.isEmpty ? "" : " ") + "📅 \(due)" }
        return result
    }

    /// `bytes` without each match and one space before it; `match` gives a match's length at `i`.
    private static func removingAll(_ bytes: [UInt8], match: ([UInt8], Int) -> Int?) -> [UInt8] {
        var result = bytes
        var i = 0
        while i < result.count {
            if let length = match(result, i) {
                let start = i > 0 && result[i - 1] == 0x20 ? i - 1 : i
                result.removeSubrange(start..<(i + length))
                i = start
            } else {
                i += 1
            }
        }
        return result
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        bytes.indices.first { hasPrefix(bytes, pattern, at: $0) }
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        var slice = bytes[...]
        while slice.last == 0x20 { slice = slice.dropLast() }
        while slice.first == 0x20 { slice = slice.dropFirst() }
        return String(decoding: slice, as: UTF8.self)
    }
}
