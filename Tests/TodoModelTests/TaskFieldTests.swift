import TestSupport
import Testing
@testable import TodoModel

@Suite struct TaskFieldTests {
    static func read(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return TaskField.all(in: bytes).map { "\($0.kind):\(String(decoding: $0.value, as: UTF8.self))" }
    }

    @Test(arguments: [
        ("Pay rent ⏫ 📅 2026-12-01", ["priority:⏫", "due:2026-12-01"]),
        (
            "Review 🆔 abc-1 ⛔ x_2, y3 🔁 Every Week when done 🛫 2026-11-20 ⏳ 2026-11-23",
            [
                "id:abc-1", "dependsOn:x_2,y3", "recurrence:every week when done", "start:2026-11-20",
                "scheduled:2026-11-23",
            ]
        ),
        (
            "Done ➕ 2026-11-01 ✅ 2026-11-24 ❌ 2026-11-25 🏁 delete",
            ["created:2026-11-01", "done:2026-11-24", "cancelled:2026-11-25", "onCompletion:delete"]
        ),
        ("Variation selectors 🗓️ 2026-01-02 ⌛2026-01-03 🔼️", ["due:2026-01-02", "scheduled:2026-01-03", "priority:🔼"]),
        // Not fields: an impossible date, digits running on, a rule with words after it.
        ("Bad 📅 2026-02-30", []),
        ("Long 📅 2026-12-011", []),
        ("Water 🔁 every week. Then rest", []),
        ("⏫important", []),
    ])
    func readsEachFieldAsObsidianTasksWritesIt(_ text: String, _ expected: [String]) {
        #expect(Self.read(text) == expected)
    }

    @Test func theFieldsAreTheRunThatEndsEachPart() {
        let text = FieldedText(
            before: Array("Call ⏫ Bob 📅 2026-12-01 🔼".utf8)[...], after: Array("  typed ✅ 2026-11-24  ".utf8)[...])
        #expect(String(decoding: text.before.words, as: UTF8.self) == "Call ⏫ Bob")
        #expect(text.before.kinds == [.due, .priority])
        #expect(String(decoding: text.after.words, as: UTF8.self) == "  typed")
        #expect(text.after.kinds == [.done])
        // A kind met twice: the one nearer the start of the line is its value, the others
        // stay in the run as written.
        let twice = FieldedText(
            before: Array("Pay ⏫ 📅 2026-01-01 📅 2026-02-01".utf8)[...], after: Array(" 📅 2026-03-01".utf8)[...])
        #expect(String(decoding: twice.fields[.due]!.value, as: UTF8.self) == "2026-01-01")
        #expect(twice.before.kinds == [.priority, .due])
        #expect(twice.before.slots.count == 3)
        #expect(twice.after.kinds.isEmpty)
        #expect(twice.after.slots.count == 1)
        #expect(twice.after.words.isEmpty)
    }

    @Test func assemblingTheUnchangedPartsGivesTheBytesBack() {
        for (before, after) in [
            ("Pay rent  ⏫\t📅 2026-12-01", " ✅ 2026-11-24"), ("⏫ 📅 2026-12-01", ""), ("Plain", "  typed later"),
            ("Twice 📅 2026-01-01  📅 2026-02-01", " 📅 2026-03-01 ✅ 2026-11-24"),
            ("Linked ⏫ 📅 2026-12-01 ^link-1", ""), ("Linked", " ✅ 2026-11-24 ^link-1"),
        ] {
            let text = FieldedText(before: Array(before.utf8)[...], after: Array(after.utf8)[...])
            #expect(String(decoding: text.assembledBefore, as: UTF8.self) == before)
            let written = FieldedText.assembled(
                words: Array(text.after.words), slots: text.after.slots, fields: text.fields, isAfterComment: true)
            #expect(String(decoding: written, as: UTF8.self) == after)
        }
    }

    @Test(arguments: [
        ("Pay rent ⏫ 📅 2026-12-01", "Pay rent <ID> ⏫ 📅 2026-12-01"),
        ("Pay rent  ⏫", "Pay rent <ID> ⏫"),
        ("Book dentist ^dentist", "Book dentist <ID> ^dentist"),
        ("Book dentist 📅 2026-12-03 ^dentist", "Book dentist <ID> 📅 2026-12-03 ^dentist"),
        ("Call ⏫ Bob", "Call ⏫ Bob <ID>"),
        ("Call Bob", "Call Bob <ID>"),
        ("⏫ 📅 2026-12-01", "⏫ 📅 2026-12-01 <ID>"),
        ("x^a", "x^a <ID>"),
    ])
    func aNewIdGoesBeforeTheFieldsAndTheBlockReference(_ title: String, _ expected: String) {
        let written = IDPlacement.titleWithComment(Array(title.utf8), Array("<ID>".utf8))
        #expect(String(decoding: written, as: UTF8.self) == expected)
    }

    @Test func aLineWithANewIdReadsAsTheSameItem() {
        let document = identified("- [ ] Pay rent ⏫ 📅 2026-12-01 ^rent\n- [x] Water plants 🔁 every week\n")
        let lines = document.text.split(separator: "\n")
        #expect(lines[0].firstMatch(of: /^- \[ \] Pay rent <!-- id: [0-9A-F-]{36} --> ⏫ 📅 2026-12-01 \^rent$/) != nil)
        let items = document.items
        #expect(items.map(\.title) == ["Pay rent ⏫ 📅 2026-12-01 ^rent", "Water plants 🔁 every week"])
        #expect(items.map(\.priority) == [.high, .none])
        #expect(items.map(\.due) == [CalendarDate("2026-12-01"), nil])
    }
}

/// The plain title, put together byte by byte, against the naive reference: a title that may
/// hold fields with every field set to nothing and the block reference dropped, split at spaces (Characters)
/// and joined with one.
@Suite struct PlainTitleReferenceTests {
    static func naive(_ title: String) -> String {
        // A title without a field emoji or block reference is its own text, spaces collapsed.
        if !TitleFields.mayHoldFields(title) {
            return TitleFields.hasSpacesToCollapse(title)
                ? title.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") : title
        }
        var text = FieldedText(before: Array(title.utf8)[...], after: [])
        for kind in TaskFieldKind.allCases { text.set(kind, to: nil) }
        text.before.slots.removeAll { if case .blockReference = $0 { true } else { false } }
        return String(decoding: text.assembledBefore, as: UTF8.self).split(
            separator: " ", omittingEmptySubsequences: true
        ).joined(separator: " ")
    }

    @Test(arguments: 0..<300)
    func aPlainTitleIsWhatTheNaiveWayGives(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        let pieces = [
            "Pay", "rent", " ", "  ", "日本", "café", "⏫", "🔼", "📅 2026-12-01", "📅 2026-12-02", "🔁 every week",
            "✅ 2026-11-30",
            "^ref-1", "\u{301}", " \u{301}", "\u{200D}", "\u{FE0F}", "🆔 abc", "⛔ a,b", "x", "\t", "#tag",
        ]
        let title = (0..<Int.random(in: 1...9, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            .joined(separator: Bool.random(using: &generator) ? " " : "")
        #expect(
            TitleFields(title: title).plainTitle == Self.naive(title),
            "\(title.unicodeScalars.map { String($0.value, radix: 16) })")
        // The fields' values, against what FieldedText reads (the way every title took before
        // the common title got its own path).
        let fields = TitleFields(title: title)
        let text = FieldedText(before: Array(title.utf8)[...], after: [])
        var priority = Priority.none
        var values: [TaskFieldKind: String] = [:]
        for (kind, field) in text.fields {
            if kind == .priority {
                priority = Priority(emoji: field.value)
            } else {
                values[kind] = String(decoding: field.raw.drop { $0 >= 0x80 || $0 == 0x20 }, as: UTF8.self)
            }
        }
        #expect(fields.priority == priority, "\(title)")
        #expect(fields.values == values, "\(title)")
    }
}
