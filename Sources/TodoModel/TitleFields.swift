/// Priority and due date as they stand in a title (Obsidian Tasks style), and edits to them.
///
/// The fields stay in the text: `Pay rent ⏫ 📅 2026-12-01` has the plain title `Pay rent`.
/// Like Obsidian Tasks, only the run of fields that ends the title counts (`FieldedText`):
/// in `Call ⏫ Bob` the emoji is a word.
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
        var text = FieldedText(before: Array(title.utf8)[...], after: [])
        if let field = text.fields[.priority] { priority = Priority(emoji: field.value) }
        if let field = text.fields[.due] { due = DueDate(String(decoding: field.value, as: UTF8.self)) }
        text.set(.priority, to: nil)
        text.set(.due, to: nil)
        let plain = String(decoding: text.assembledBefore, as: UTF8.self)
        plainTitle = plain.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// Whether the UTF-8 of `title` holds a lead sequence of 🔺🔼🔽📅📆🗓 (F0 9F) or ⏫⏬ (E2 8F).
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

    /// `title` with its priority replaced by `priority` (removed for `.none`), in Obsidian
    /// Tasks' order among the fields that end it.
    static func setting(_ priority: Priority, in title: String) -> String {
        var text = FieldedText(before: Array(title.utf8)[...], after: [])
        text.set(.priority, to: priority.emoji.map { Array($0.utf8) })
        return String(decoding: text.assembledBefore, as: UTF8.self)
    }

    /// `title` with its due field replaced by `due` (or removed for nil).
    static func setting(_ due: DueDate?, in title: String) -> String {
        var text = FieldedText(before: Array(title.utf8)[...], after: [])
        text.set(.due, to: due.map { Array("📅 \($0)".utf8) })
        return String(decoding: text.assembledBefore, as: UTF8.self)
    }
}
