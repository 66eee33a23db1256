/// The Obsidian Tasks fields of a title read as values, and edits to them.
///
/// The fields stay in the text: `Pay rent ⏫ 🔁 every month 📅 2026-12-01` has the plain title
/// `Pay rent`, priority high, recurrence `every month` and due date 2026-12-01. Like Obsidian
/// Tasks, only the run of fields that ends the title counts (`FieldedText`): in `Call ⏫ Bob`
/// the emoji is a word.
struct TitleFields {
    var priority: Priority = .none
    /// Every other field, as written after its emoji: a date, a rule, an id, a list of ids.
    var values: [TaskFieldKind: String] = [:]
    /// The title without its fields and block reference, spaces collapsed.
    var plainTitle: String

    init(title: String) {
        // Fast path: most titles hold no field emoji, block reference or doubled spaces.
        if !Self.mayHoldFields(title) {
            self.plainTitle = Self.hasSpacesToCollapse(title) ? Self.collapsingSpaces(Array(title.utf8)) : title
            return
        }
        let bytes = Array(title.utf8)
        if let simple = Self.trailingFields(bytes) {
            for field in simple.fields {
                if field.kind == .priority {
                    priority = Priority(emoji: field.value)
                } else {
                    values[field.kind] = Self.writtenValue(bytes[field.range])
                }
            }
            plainTitle = Self.collapsingSpaces(Array(bytes[..<simple.wordsEnd]))
            return
        }
        let text = FieldedText(before: bytes[...], after: [])
        for (kind, field) in text.fields {
            if kind == .priority {
                priority = Priority(emoji: field.value)
            } else {
                values[kind] = Self.writtenValue(field.raw)
            }
        }
        // The words, and a second field of a kind as written (what setting every field to nil
        // and dropping the block reference leaves), put together once.
        let extras = text.before.slots.filter { if case .extra = $0 { true } else { false } }
        plainTitle = Self.collapsingSpaces(
            FieldedText.assembled(words: Array(text.before.words), slots: extras, fields: [:], isAfterComment: false))
    }

    /// The run of fields that ends `bytes` and where the words before it end, as
    /// `FieldedText` splits it, for the common title: no block reference (no `^` at all) and
    /// no kind written twice in the run. Nil for any other title (`FieldedText` reads it).
    private static func trailingFields(_ bytes: [UInt8]) -> (fields: [TaskField], wordsEnd: Int)? {
        guard !bytes.contains(UInt8(ascii: "^")) else { return nil }
        var end = bytes.count
        while end > 0, bytes[end - 1].isSpaceOrTab { end -= 1 }
        var fields: [TaskField] = []
        var kinds = 0
        for field in TaskField.all(in: bytes).reversed() {
            guard field.range.upperBound == end else { break }
            let bit = 1 << field.kind.rawValue
            guard kinds & bit == 0 else { return nil }
            kinds |= bit
            var start = field.range.lowerBound
            while start > 0, bytes[start - 1].isSpaceOrTab { start -= 1 }
            end = start
            fields.append(field)
        }
        return (fields, end)
    }

    /// The text with runs of spaces made one and none at either end (as splitting at spaces
    /// and joining the words with one does).
    private static func collapsingSpaces(_ bytes: [UInt8]) -> String {
        // A space that a combining mark joins is no space to split at (a Character of its own):
        // that rare text takes the split by Characters.
        if joinsAfterSpace(bytes) {
            return String(decoding: bytes, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: true).joined(
                separator: " ")
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingSpace = false
        for byte in bytes {
            if byte == 0x20 {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(0x20) }
            pendingSpace = false
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    func date(_ kind: TaskFieldKind) -> CalendarDate? { values[kind].flatMap(CalendarDate.init) }

    /// A field's value as written: its emoji, variation selector and spaces dropped (values
    /// are ASCII, emoji bytes are not).
    private static func writtenValue(_ raw: ArraySlice<UInt8>) -> String {
        String(decoding: raw.drop { $0 >= 0x80 || $0 == 0x20 }, as: UTF8.self)
    }

    /// Whether the UTF-8 of `title` holds the lead bytes of a field emoji, F0 9F (🔺🔼🔽📅🛫🔁🆔…)
    /// or E2 then 8C, 8F, 9B, 9C, 9D or 9E (⌛ ⏫⏬⏳ ⛔ ✅ ❌ ➕), or a `^` (a block reference).
    static func mayHoldFields(_ title: String) -> Bool {
        title.utf8.withContiguousStorageIfAvailable { mayHoldFields($0) } ?? mayHoldFields(title.utf8)
    }

    static func mayHoldFields(_ bytes: some Sequence<UInt8>) -> Bool {
        var utf8 = bytes.makeIterator()
        var previous: UInt8 = 0
        while let byte = utf8.next() {
            if byte == UInt8(ascii: "^") || (previous == 0xF0 && byte == 0x9F) { return true }
            if previous == 0xE2 && (byte == 0x8C || byte == 0x8F || (0x9B...0x9E).contains(byte)) { return true }
            previous = byte
        }
        return false
    }

    /// Whether a space is followed by a scalar that joins it in one Character (a combining
    /// mark, a spacing mark, a zero-width joiner or variation selector).
    private static func joinsAfterSpace(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index + 1 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == 0x20, bytes[index + 1] >= 0x80 else { continue }
            var decoder = UTF8()
            var iterator = bytes[(index + 1)...].makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { continue }
            let properties = scalar.properties
            if properties.isGraphemeExtend || properties.generalCategory == .spacingMark || scalar.value == 0x200D {
                return true
            }
        }
        return false
    }

    static func hasSpacesToCollapse(_ title: String) -> Bool {
        title.utf8.withContiguousStorageIfAvailable { hasSpacesToCollapse($0) } ?? hasSpacesToCollapse(title.utf8)
    }

    static func hasSpacesToCollapse(_ bytes: some Sequence<UInt8>) -> Bool {
        var previous: UInt8 = 0x20
        for byte in bytes {
            if byte == 0x20 && previous == 0x20 { return true }
            previous = byte
        }
        return previous == 0x20
    }

    /// `title` with its priority replaced by `priority` (removed for `.none`), in Obsidian
    /// Tasks' order among the fields that end it.
    static func setting(_ priority: Priority, in title: String) -> String {
        var text = FieldedText(before: Array(title.utf8)[...], after: [])
        text.set(.priority, to: priority.emoji.map { Array($0.utf8) })
        return String(decoding: text.assembledBefore, as: UTF8.self)
    }

    /// `title` with its due field replaced by `due` (or removed for nil).
    static func setting(_ due: CalendarDate?, in title: String) -> String {
        setting(.due, to: due?.description, in: title)
    }

    /// `title` with the field of `kind` set to `value` as written after its emoji (removed for
    /// nil): replaced where it stands, or added in Obsidian Tasks' order.
    static func setting(_ kind: TaskFieldKind, to value: String?, in title: String) -> String {
        if kind == .priority {
            return setting(value.flatMap { Priority(name: $0) } ?? .none, in: title)
        }
        var text = FieldedText(before: Array(title.utf8)[...], after: [])
        // NB: priority, the one kind without an emoji of its own, was handled above.
        text.set(kind, to: value.map { Array("\(kind.emoji!) \($0)".utf8) })
        return String(decoding: text.assembledBefore, as: UTF8.self)
    }

    /// `title` without an Obsidian block reference (`^abc`) after its fields.
    static func removingBlockReference(from title: String) -> String {
        var text = FieldedText(before: Array(title.utf8)[...], after: [])
        text.before.slots.removeAll { if case .blockReference = $0 { true } else { false } }
        return String(decoding: text.assembledBefore, as: UTF8.self)
    }
}
