import Foundation

/// Test shorthand: `^a` at the end of an item line stands for a fixed id comment, so cases read
/// like the files they stand for. Names are up to six letters or digits.
public func withIDs(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let caret = rest.firstIndex(of: "^") {
        result += rest[..<caret]
        let name = rest[rest.index(after: caret)...].prefix { $0.isLetter || $0.isNumber }
        result += "<!-- id: \(shortIDText(String(name))) -->"
        rest = rest[rest.index(caret, offsetBy: name.count + 1)...]
    }
    return result + rest
}

/// The UUID `^name` stands for: the name's bytes in its last twelve digits.
public func shortIDText(_ name: String) -> String {
    let bytes = Array(name.utf8.prefix(6))
    let padded = [UInt8](repeating: 0, count: 6 - bytes.count) + bytes
    let digits = Array("0123456789ABCDEF")
    return "00000000-0000-4000-8000-" + String(padded.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
}

/// Writes short ids back as `^name`.
public func withShortIDs(_ text: String) -> String {
    let marker = "<!-- id: 00000000-0000-4000-8000-"
    var result = ""
    var rest = Substring(text)
    while let range = rest.range(of: marker) {
        let hex = Array(rest[range.upperBound...].prefix(12))
        let close = rest[range.upperBound...].dropFirst(12)
        guard hex.count == 12, close.hasPrefix(" -->") else {
            result += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            continue
        }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: 12, by: 2) { bytes.append(UInt8(String(hex[i...i + 1]), radix: 16) ?? 0) }
        result += rest[..<range.lowerBound] + "^" + String(decoding: bytes.drop { $0 == 0 }, as: UTF8.self)
        rest = close.dropFirst(4)
    }
    return result + rest
}

/// One concurrent-edit case: a base file, two descendants, the merged file expected.
public struct MergeCase: CustomStringConvertible, Sendable {
    public var name: String
    public var base: String
    public var ours: String
    public var theirs: String
    public var merged: String
    /// Report kinds expected, in any order.
    public var reports: [String] = []

    public var description: String { name }
}

/// The cases the merge must settle, used by the model's merge tests and, through real
/// clones, by the end-to-end sync tests. `^a` stands for the id comment of an item named a.
public let mergeCases: [MergeCase] = [
    MergeCase(
        name: "different items, different fields",
        base: "- [ ] Milk ^a\n- [ ] Bread ^b\n",
        ours: "- [x] Milk ^a\n- [ ] Bread ^b\n",
        theirs: "- [ ] Milk ^a\n- [ ] Rye bread ^b\n",
        merged: "- [x] Milk ^a\n- [ ] Rye bread ^b\n"),
    MergeCase(
        name: "one item, done on one side, renamed on the other",
        base: "- [ ] Milk ^a\n",
        ours: "- [x] Milk ^a\n",
        theirs: "- [ ] Oat milk ^a\n",
        merged: "- [x] Oat milk ^a\n"),
    MergeCase(
        name: "title: a typo fix and a due date merge as text",
        base: "- [ ] Buy mlk ^a\n",
        ours: "- [ ] Buy milk ^a\n",
        theirs: "- [ ] Buy mlk 📅 2026-12-01 ^a\n",
        merged: "- [ ] Buy milk 📅 2026-12-01 ^a\n"),
    MergeCase(
        name: "title: priority on one side, rename at the start on the other",
        base: "- [ ] Call Bob ^a\n",
        ours: "- [ ] Call Bob ⏫ ^a\n",
        theirs: "- [ ] Phone Bob ^a\n",
        merged: "- [ ] Phone Bob ⏫ ^a\n"),
    MergeCase(
        name: "title: the same rename on both sides",
        base: "- [ ] Milk ^a\n",
        ours: "- [ ] Oat milk ^a\n",
        theirs: "- [ ] Oat milk ^a\n",
        merged: "- [ ] Oat milk ^a\n"),
    MergeCase(
        name: "title clash keeps ours and records theirs in the notes",
        base: "- [ ] Milk ^a\n",
        ours: "- [ ] Oat milk ^a\n",
        theirs: "- [ ] Soy milk ^a\n",
        merged: "- [ ] Oat milk ^a\n  todosync clash: this item was also renamed to: Soy milk\n",
        reports: ["titleClash"]),
    MergeCase(
        name: "notes: a line added on each side in different places",
        base: "- [ ] Trip ^a\n  passport\n  tickets\n",
        ours: "- [ ] Trip ^a\n  passport\n  visa\n  tickets\n",
        theirs: "- [ ] Trip ^a\n  passport\n  tickets\n  charger\n",
        merged: "- [ ] Trip ^a\n  passport\n  visa\n  tickets\n  charger\n"),
    MergeCase(
        name: "notes: the same line changed differently is a clash keeping both",
        base: "- [ ] Trip ^a\n  leave at 9\n",
        ours: "- [ ] Trip ^a\n  leave at 8\n",
        theirs: "- [ ] Trip ^a\n  leave at 10\n",
        merged:
            "- [ ] Trip ^a\n  <!-- todosync clash: one version -->\n  leave at 10\n  <!-- todosync clash: the other version -->\n  leave at 8\n  <!-- todosync clash: end; keep what you want and delete these comments -->\n",
        reports: ["linesClash"]),
    MergeCase(
        name: "notes on one side, check on the other",
        base: "- [ ] Trip ^a\n",
        ours: "- [x] Trip ^a\n",
        theirs: "- [ ] Trip ^a\n  book hotel\n",
        merged: "- [x] Trip ^a\n  book hotel\n"),
    MergeCase(
        name: "removed on one side, unchanged on the other: removed",
        base: "- [ ] Milk ^a\n- [ ] Bread ^b\n",
        ours: "- [ ] Bread ^b\n",
        theirs: "- [ ] Milk ^a\n- [x] Bread ^b\n",
        merged: "- [x] Bread ^b\n"),
    MergeCase(
        name: "removed on one side, edited on the other: kept and reported",
        base: "- [ ] Milk ^a\n- [ ] Bread ^b\n",
        ours: "- [ ] Bread ^b\n",
        theirs: "- [x] Milk ^a\n- [ ] Bread ^b\n",
        merged: "- [x] Milk ^a\n- [ ] Bread ^b\n",
        reports: ["keptRemovedItem"]),
    MergeCase(
        name: "removed on both sides",
        base: "- [ ] Milk ^a\n- [ ] Bread ^b\n",
        ours: "- [ ] Bread ^b\n",
        theirs: "- [ ] Bread ^b\n",
        merged: "- [ ] Bread ^b\n"),
    MergeCase(
        name: "both add at the end: both kept, ordered by id",
        base: "- [ ] Milk ^a\n",
        ours: "- [ ] Milk ^a\n- [ ] Eggs ^e\n",
        theirs: "- [ ] Milk ^a\n- [ ] Tea ^t\n",
        merged: "- [ ] Milk ^a\n- [ ] Eggs ^e\n- [ ] Tea ^t\n"),
    MergeCase(
        name: "moved on one side, edited on the other",
        base: "- [ ] A ^a\n- [ ] B ^b\n- [ ] C ^c\n",
        ours: "- [ ] B ^b\n- [ ] C ^c\n- [ ] A ^a\n",
        theirs: "- [ ] A2 ^a\n- [ ] B ^b\n- [ ] C ^c\n",
        merged: "- [ ] B ^b\n- [ ] C ^c\n- [ ] A2 ^a\n"),
    MergeCase(
        name: "moves on both sides of different items",
        base: "- [ ] A ^a\n- [ ] B ^b\n- [ ] C ^c\n- [ ] D ^d\n",
        ours: "- [ ] B ^b\n- [ ] A ^a\n- [ ] C ^c\n- [ ] D ^d\n",
        theirs: "- [ ] A ^a\n- [ ] B ^b\n- [ ] D ^d\n- [ ] C ^c\n",
        merged: "- [ ] B ^b\n- [ ] A ^a\n- [ ] D ^d\n- [ ] C ^c\n"),
    MergeCase(
        name: "nested under another item on one side, checked on the other",
        base: "- [ ] Errands ^e\n- [ ] Milk ^m\n",
        ours: "- [ ] Errands ^e\n  - [ ] Milk ^m\n",
        theirs: "- [ ] Errands ^e\n- [x] Milk ^m\n",
        merged: "- [ ] Errands ^e\n  - [x] Milk ^m\n"),
    MergeCase(
        name: "a child added under an item the other side removed keeps the parent",
        base: "- [ ] Errands ^e\n- [ ] Other ^o\n",
        ours: "- [ ] Other ^o\n",
        theirs: "- [ ] Errands ^e\n  - [ ] Milk ^m\n- [ ] Other ^o\n",
        merged: "- [ ] Errands ^e\n  - [ ] Milk ^m\n- [ ] Other ^o\n",
        reports: ["keptRemovedParent"]),
    MergeCase(
        name: "prose: a heading added on one side, an item on the other",
        base: "# Home\n- [ ] Milk ^a\n",
        ours: "# Home\n- [ ] Milk ^a\n\n# Work\n",
        theirs: "# Home\n- [ ] Milk ^a\n- [ ] Bread ^b\n",
        merged: "# Home\n- [ ] Milk ^a\n- [ ] Bread ^b\n\n# Work\n"),
    MergeCase(
        name: "prose: the same line rewritten differently is a clash",
        base: "Intro text\n\n- [ ] Milk ^a\n",
        ours: "Intro, ours\n\n- [ ] Milk ^a\n",
        theirs: "Intro, theirs\n\n- [ ] Milk ^a\n",
        merged:
            "<!-- todosync clash: one version -->\nIntro, ours\n<!-- todosync clash: the other version -->\nIntro, theirs\n<!-- todosync clash: end; keep what you want and delete these comments -->\n\n- [ ] Milk ^a\n",
        reports: ["linesClash"]),
    MergeCase(
        name: "prose: the same new line on both sides is kept once",
        base: "- [ ] Milk ^a\n",
        ours: "# Shopping\n- [ ] Milk ^a\n",
        theirs: "# Shopping\n- [ ] Milk ^a\n",
        merged: "# Shopping\n- [ ] Milk ^a\n"),
    MergeCase(
        name: "a formatter switching - to * on one side does not clash with a check on the other",
        base: "- [ ] A ^a\n- [ ] B ^b\n",
        ours: "* [ ] A ^a\n* [ ] B ^b\n",
        theirs: "- [ ] A ^a\n- [x] B ^b\n",
        merged: "* [ ] A ^a\n* [x] B ^b\n"),
    MergeCase(
        name: "re-indenting with tabs on one side, a child's note edited on the other",
        base: "- [ ] A ^a\n  - [ ] B ^b\n    note\n",
        ours: "- [ ] A ^a\n\t- [ ] B ^b\n\t  note\n",
        theirs: "- [ ] A ^a\n  - [ ] B ^b\n    note, longer\n",
        merged: "- [ ] A ^a\n\t- [ ] B ^b\n\t  note, longer\n"),
    MergeCase(
        name: "renumbering an ordered list is presentation",
        base: "1. [ ] A ^a\n3. [ ] B ^b\n",
        ours: "1. [ ] A ^a\n2. [ ] B ^b\n",
        theirs: "1. [x] A ^a\n3. [ ] B ^b\n",
        merged: "1. [x] A ^a\n2. [ ] B ^b\n"),
    MergeCase(
        name: "a whole file converted to CRLF is one change; the other side's line follows it",
        base: "- [ ] A ^a\n- [ ] B ^b\n",
        ours: "- [ ] A ^a\r\n- [ ] B ^b\r\n",
        theirs: "- [ ] A ^a\n- [ ] B ^b\n- [ ] C ^c\n",
        merged: "- [ ] A ^a\r\n- [ ] B ^b\r\n- [ ] C ^c\r\n"),
    MergeCase(
        name: "a file without a final newline gets one when the other side appends",
        base: "- [ ] A ^a",
        ours: "- [x] A ^a",
        theirs: "- [ ] A ^a\n- [ ] B ^b",
        merged: "- [x] A ^a\n- [ ] B ^b"),
    MergeCase(
        name: "the same edit on both sides counts once",
        base: "- [ ] A ^a\n",
        ours: "- [x] A, done ^a\n",
        theirs: "- [x] A, done ^a\n",
        merged: "- [x] A, done ^a\n"),
    MergeCase(
        name: "moved under each other on both sides: nothing lost",
        base: "- [ ] A ^a\n- [ ] B ^b\n",
        ours: "- [ ] A ^a\n  - [ ] B ^b\n",
        theirs: "- [ ] B ^b\n  - [ ] A ^a\n",
        merged: "- [ ] A ^a\n  - [ ] B ^b\n",
        reports: ["movedBothWays"]),
    MergeCase(
        // Found by the property test: with ours' place taken, which item stays depended on
        // which side was ours (P, removed by ours, was kept only when theirs was ours).
        name: "moved under different items on both sides, one of them removed: the same either way",
        base: "- [ ] N ^n\n- [ ] P ^p\n- [ ] Q ^q\n",
        ours: "- [ ] Q ^q\n  - [ ] N ^n\n",
        theirs: "- [ ] P ^p\n  - [x] N ^n\n- [ ] Q ^q\n",
        merged: "- [ ] P ^p\n  - [x] N ^n\n- [ ] Q ^q\n",
        reports: ["movedBothWays", "keptRemovedParent"]),
    MergeCase(
        name: "both sides insert between the same two items",
        base: "- [ ] A ^a\n- [ ] Z ^z\n",
        ours: "- [ ] A ^a\n- [ ] M ^m\n- [ ] Z ^z\n",
        theirs: "- [ ] A ^a\n- [ ] N ^n\n- [ ] Z ^z\n",
        merged: "- [ ] A ^a\n- [ ] M ^m\n- [ ] N ^n\n- [ ] Z ^z\n"),
    MergeCase(
        name: "a CRLF file converted to LF on one side, a check on the other",
        base: "- [ ] A ^a\r\n- [ ] B ^b\r\n",
        ours: "- [x] A ^a\r\n- [ ] B ^b\r\n",
        theirs: "- [ ] A ^a\n- [ ] B ^b\n",
        merged: "- [x] A ^a\n- [ ] B ^b\n"),
    MergeCase(
        name: "an item moved under another heading on one side, renamed on the other",
        base: "# Home\n- [ ] A ^a\n- [ ] B ^b\n\n# Work\n- [ ] C ^c\n",
        ours: "# Home\n- [ ] B ^b\n\n# Work\n- [ ] C ^c\n- [ ] A ^a\n",
        theirs: "# Home\n- [ ] A at work ^a\n- [ ] B ^b\n\n# Work\n- [ ] C ^c\n",
        merged: "# Home\n- [ ] B ^b\n\n# Work\n- [ ] C ^c\n- [ ] A at work ^a\n"),
    MergeCase(
        name: "fenced code and front matter merge as lines",
        base: "---\ntitle: x\n---\n- [ ] A ^a\n```\n- [ ] not an item\n```\n",
        ours: "---\ntitle: y\n---\n- [ ] A ^a\n```\n- [ ] not an item\n```\n",
        theirs: "---\ntitle: x\n---\n- [x] A ^a\n```\n- [ ] not an item\ncode\n```\n",
        merged: "---\ntitle: y\n---\n- [x] A ^a\n```\n- [ ] not an item\ncode\n```\n"),
    MergeCase(
        name: "a blank line added after a different item on each side: both stay",
        base: "# List\n\n- [ ] A ^a\n- [ ] B ^b\n- [ ] C ^c\n  note c\n- [ ] D ^d\n\n## Later\n\n- [ ] E ^e\n",
        ours: "# List\n\n- [ ] A ^a\n\n- [ ] B ^b\n- [ ] C ^c\n  note c\n- [ ] D ^d\n\n## Later\n\n- [ ] E ^e\n",
        theirs: "# List\n\n- [ ] A ^a\n- [ ] B ^b\n- [ ] C ^c\n  note c\n\n- [ ] D ^d\n\n## Later\n\n- [ ] E ^e\n",
        merged: "# List\n\n- [ ] A ^a\n\n- [ ] B ^b\n- [ ] C ^c\n  note c\n\n- [ ] D ^d\n\n## Later\n\n- [ ] E ^e\n"),
    MergeCase(
        name: "a heading moved past items on one side, reworded on the other",
        base: "## Now\n- [ ] A ^a\n## Later\n- [ ] B ^b\n- [ ] C ^c\n",
        ours: "## Now\n- [ ] A ^a\n- [ ] B ^b\n## Later\n- [ ] C ^c\n",
        theirs: "## Now\n- [ ] A ^a\n## Some day\n- [ ] B ^b\n- [ ] C ^c\n",
        merged: "## Now\n- [ ] A ^a\n- [ ] B ^b\n## Some day\n- [ ] C ^c\n"),
    MergeCase(
        name: "a note line without indentation on one side, a blank line under the same item on the other",
        base: "- [ ] A ^a\n  - [ ] B ^b\n",
        ours: "- [ ] A ^a\nlazy note\n  - [ ] B ^b\n",
        theirs: "- [ ] A ^a\n\n  - [ ] B ^b\n",
        merged: "- [ ] A ^a\nlazy note\n\n  - [ ] B ^b\n"),
    MergeCase(
        name: "text typed after the id on one side (Obsidian's done date), a rename on the other",
        base: "- [ ] Buy milk ^m\n- [ ] Bread ^b\n",
        ours: "- [x] Buy milk ^m ✅ 2026-11-24\n- [ ] Bread ^b\n",
        theirs: "- [ ] Buy oat milk ^m\n- [ ] Bread ^b\n",
        merged: "- [x] Buy oat milk ^m ✅ 2026-11-24\n- [ ] Bread ^b\n"),
    MergeCase(
        name: "text typed after the id on one side, another item checked on the other",
        base: "- [ ] Buy milk ^m\n- [ ] Bread ^b\n",
        ours: "- [ ] Buy milk ^m typed later\n- [ ] Bread ^b\n",
        theirs: "- [ ] Buy milk ^m\n- [x] Bread ^b\n",
        merged: "- [ ] Buy milk ^m typed later\n- [x] Bread ^b\n"),
    MergeCase(
        name: "different fields typed after the id on both sides: both kept, no clash",
        base: "- [ ] Buy milk ^m\n",
        ours: "- [x] Buy milk ^m ✅ 2026-11-24\n",
        theirs: "- [ ] Buy milk ^m 📅 2026-12-01\n",
        merged: "- [x] Buy milk ^m 📅 2026-12-01 ✅ 2026-11-24\n"),
    MergeCase(
        name: "different words added after the id on both sides: a title clash, nothing lost",
        base: "- [ ] Buy milk ^m\n",
        ours: "- [ ] Buy milk ^m today\n",
        theirs: "- [ ] Buy milk ^m at the corner shop\n",
        merged:
            "- [ ] Buy milk ^m today\n  todosync clash: this item was also renamed to: Buy milk at the corner shop\n",
        reports: ["titleClash"]),
    MergeCase(
        name: "fields: a due date on one side, a priority on the other, both added at the end",
        base: "- [ ] Plan tax form ^a\n",
        ours: "- [ ] Plan tax form 📅 2026-06-05 ^a\n",
        theirs: "- [ ] Plan tax form ⏫ ^a\n",
        merged: "- [ ] Plan tax form ⏫ 📅 2026-06-05 ^a\n"),
    MergeCase(
        name: "fields: the due date changed on one side, the priority on the other",
        base: "- [ ] Plan tax form 🔼 📅 2026-06-01 ^a\n",
        ours: "- [ ] Plan tax form 🔼 📅 2026-06-05 ^a\n",
        theirs: "- [ ] Plan tax form 🔽 📅 2026-06-01 ^a\n",
        merged: "- [ ] Plan tax form 🔽 📅 2026-06-05 ^a\n"),
    MergeCase(
        name: "fields: the same due date set differently on both sides keeps ours and notes theirs",
        base: "- [ ] Plan tax form ^a\n",
        ours: "- [ ] Plan tax form 📅 2026-06-05 ^a\n",
        theirs: "- [ ] Plan tax form 📅 2026-08-26 ^a\n",
        merged:
            "- [ ] Plan tax form 📅 2026-06-05 ^a\n  todosync clash: the other side set the due date to 📅 2026-08-26\n",
        reports: ["fieldClash"]),
    MergeCase(
        name: "fields: the priority set differently on both sides keeps ours and notes theirs",
        base: "- [ ] Plan tax form 📅 2026-06-05 ^a\n",
        ours: "- [ ] Plan tax form ⏫ 📅 2026-06-05 ^a\n",
        theirs: "- [ ] Plan tax form 🔽 📅 2026-06-05 ^a\n",
        merged: "- [ ] Plan tax form ⏫ 📅 2026-06-05 ^a\n  todosync clash: the other side set the priority to 🔽\n",
        reports: ["fieldClash"]),
    MergeCase(
        name: "fields: the due date removed on one side and changed on the other is a clash, nothing lost",
        base: "- [ ] Renew passport 📅 2026-01-10 ^a\n",
        ours: "- [ ] Renew passport ^a\n",
        theirs: "- [ ] Renew passport 📅 2026-02-01 ^a\n",
        merged: "- [ ] Renew passport ^a\n  todosync clash: the other side set the due date to 📅 2026-02-01\n",
        reports: ["fieldClash"]),
    MergeCase(
        name: "fields: a rename and a changed due date",
        base: "- [ ] Call Bob 📅 2026-01-01 ^a\n",
        ours: "- [ ] Call Alice 📅 2026-01-01 ^a\n",
        theirs: "- [ ] Call Bob 📅 2026-02-01 ^a\n",
        merged: "- [ ] Call Alice 📅 2026-02-01 ^a\n"),
    MergeCase(
        name: "fields: a title clash still merges the fields",
        base: "- [ ] Milk 📅 2026-01-01 ^a\n",
        ours: "- [ ] Oat milk 📅 2026-01-01 ^a\n",
        theirs: "- [ ] Soy milk 📅 2026-03-01 ^a\n",
        merged:
            "- [ ] Oat milk 📅 2026-03-01 ^a\n  todosync clash: this item was also renamed to: Soy milk 📅 2026-03-01\n",
        reports: ["titleClash"]),
    MergeCase(
        name: "fields after the id (Obsidian Tasks): a done date on one side, a new due date on the other",
        base: "- [ ] Book dentist ^a 📅 2026-12-03\n",
        ours: "- [x] Book dentist ^a 📅 2026-12-03 ✅ 2026-11-24\n",
        theirs: "- [ ] Book dentist ^a 📅 2026-12-10\n",
        merged: "- [x] Book dentist ^a 📅 2026-12-10 ✅ 2026-11-24\n"),
    MergeCase(
        name: "fields: one due date set on both sides in different places stands once",
        base: "- [ ] Buy milk ^m\n",
        ours: "- [ ] Buy milk 📅 2026-12-01 ^m\n",
        theirs: "- [ ] Buy milk ^m 📅 2026-12-01\n",
        merged: "- [ ] Buy milk ^m 📅 2026-12-01\n"),
    MergeCase(
        name: "fields: a recurrence rule changed on one side, a start date added on the other",
        base: "- [ ] Water plants ^w 🔁 every week 📅 2026-11-24\n",
        ours: "- [ ] Water plants ^w 🔁 every 2 weeks 📅 2026-11-24\n",
        theirs: "- [ ] Water plants ^w 🔁 every week 🛫 2026-11-20 📅 2026-11-24\n",
        merged: "- [ ] Water plants ^w 🔁 every 2 weeks 🛫 2026-11-20 📅 2026-11-24\n"),
    MergeCase(
        name: "fields: a second due date typed on one side stays when the other removes the first",
        base: "- [ ] Pay rent 📅 2026-12-01 ^a\n",
        ours: "- [ ] Pay rent ^a\n",
        theirs: "- [ ] Pay rent 📅 2026-12-01 📅 2026-12-15 ^a\n",
        merged: "- [ ] Pay rent 📅 2026-12-15 ^a\n"),
    MergeCase(
        name: "text after the id changed differently on both sides: ours kept, theirs noted, reported",
        base: "- [ ] Buy milk ^m later\n",
        ours: "- [ ] Buy milk ^m this week\n",
        theirs: "- [ ] Buy milk ^m next month\n",
        merged: "- [ ] Buy milk ^m this week\n  todosync clash: this item was also renamed to: Buy milk next month\n",
        reports: ["titleClash"]),
    MergeCase(
        name: "title: two renames of one title never mix (one appends words, the other rewrites the start)",
        base: "- [ ] B item ^a\n",
        ours: "- [ ] B item from laptop ^a\n",
        theirs: "- [ ] Thing from desktop ^a\n",
        merged: "- [ ] B item from laptop ^a\n  todosync clash: this item was also renamed to: Thing from desktop\n",
        reports: ["titleClash"]),
    MergeCase(
        name: "title: a typo fixed on both sides differently is a clash",
        base: "- [ ] Buy mlk and bred ^a\n",
        ours: "- [ ] Buy milk and bred ^a\n",
        theirs: "- [ ] Buy mlk and bread ^a\n",
        merged: "- [ ] Buy milk and bred ^a\n  todosync clash: this item was also renamed to: Buy mlk and bread\n",
        reports: ["titleClash"]),
    MergeCase(
        name: "known gap: indented text a deleted item left reads as notes of an item moved in before it",
        base: "# Heading\n1. [ ] first ^f\n  - sub bullet\n- [ ] Buy milk ^m\n",
        ours: "# Heading\n- [ ] Buy milk ^m\n  note 3\n1. [ ] first ^f\n  - sub bullet\n",
        theirs: "# Heading\n  - sub bullet\n- [ ] Buy milk ^m\n",
        merged: "# Heading\n- [ ] Buy milk ^m\n  note 3\n  - sub bullet\n"),
]
