import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// The laws of merging Obsidian Tasks fields, over random field edits of a few items made the
/// way an editor makes them (the line's bytes, before or after the id comment), so that both
/// sides often change fields of one item.
@Suite struct FieldMergeLawTests {
    static let base = ListSet([
        ListDocument(
            path: "TODO.md",
            bytes: Array(
                withIDs(
                    """
                    - [ ] Plan tax form 🔼 📅 2026-06-01 ^a
                    - [ ] Book dentist ^b 📅 2026-12-03
                    - [ ] Water plants ^c
                    - [ ] Weekly review ^d 🔁 every week ⏳ 2026-11-23

                    """
                ).utf8))
    ])

    @Test func aFieldOneSideChangedTakesThatSidesValueAndAClashKeepsBoth() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 0...1_000_000)) { seed in
            var editor = FieldEditor(seed: UInt64(seed))
            let ours = editor.edit(Self.base, times: 4), theirs = editor.edit(Self.base, times: 4)
            let merged = ListMerge.mergeItemByItem(base: Self.base, ours: ours, theirs: theirs)
            let backward = ListMerge.mergeItemByItem(base: Self.base, ours: theirs, theirs: ours)
            let (oldItems, oursItems, theirsItems, backwardItems) = (
                Self.base.items, ours.items, theirs.items, backward.lists.items
            )
            #expect(merged.lists.items.count == oldItems.count)
            for (id, item) in merged.lists.items {
                let old = FieldValues(line: Self.base.line(of: oldItems[id]!)),
                    now = FieldValues(line: merged.lists.line(of: item))
                let mine = FieldValues(line: ours.line(of: oursItems[id]!)),
                    other = FieldValues(line: theirs.line(of: theirsItems[id]!))
                let reverse = FieldValues(line: backward.lists.line(of: backwardItems[id]!))
                for kind in TaskField.Kind.allCases {
                    let clashed = expectFieldLaws(
                        kind, [old, mine, other, now], reports: merged.reports, notes: item.notes)
                    if !clashed {
                        #expect(
                            reverse.first[kind]?.value == now.first[kind]?.value,
                            "\(kind) depends on which side is ours")
                    }
                }
                // The words around the fields merge as words.
                if mine.words == old.words { #expect(now.words == other.words) }
                if other.words == old.words { #expect(now.words == mine.words) }
            }
        }
    }
}

/// Edits to items' fields and words as people make them in an editor or in Obsidian.
struct FieldEditor {
    var generator: SeededGenerator
    var counter = 0

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func edit(_ lists: ListSet, times: Int) -> ListSet {
        var document = lists["TODO.md"]!
        for _ in 0..<times {
            counter += 1
            let ids = document.nodeIDs.compactMap { $0 }
            guard let id = ids.randomElement(using: &generator), let node = document.node(for: id) else { continue }
            let line = document.nodeLine(node)
            var text = String(decoding: document.lines[line].content, as: UTF8.self)
            editOnce(&text)
            document.replaceLines(line..<(line + 1), with: [ListLine(content: Array(text.utf8)[...], ending: .lf)])
        }
        return IDAssignment.resolveBase(ListSet([document]), commit: "fields \(counter)").lists
    }

    private mutating func editOnce(_ text: inout String) {
        let day = Int.random(in: 10...28, using: &generator)
        let date = "2026-1\(Int.random(in: 0...2, using: &generator))-\(day)"
        let atEnd = Bool.random(using: &generator)
        switch Int.random(in: 0..<7, using: &generator) {
        case 0: set(/📅 \d{4}-\d{2}-\d{2}/, to: "📅 \(date)", in: &text, atEnd: atEnd)
        case 1: text.replace(/\ 📅 \d{4}-\d{2}-\d{2}/, with: "")
        case 2:
            let priorities = ["🔺", "⏫", "🔼", "🔽", "⏬"]
            set(/[🔺⏫🔼🔽⏬]/, to: priorities.randomElement(using: &generator)!, in: &text, atEnd: atEnd)
        case 3: set(/✅ \d{4}-\d{2}-\d{2}/, to: "✅ \(date)", in: &text, atEnd: true)
        case 4: set(/🔁 every [a-z0-9 ]+?(?= [^a-z0-9 ]|$)/, to: "🔁 every \(day) days", in: &text, atEnd: atEnd)
        case 5: text.replace(/\] (\S+)/) { "] \($0.1)\(counter)" }
        default: text.replace(/\ [🔁⏳🛫][^<]*?(?= [^a-z0-9 -]|$)/, with: "", maxReplacements: 1)
        }
    }

    /// Replaces the field `pattern` finds, or adds `field`: at the line's end (after the id
    /// comment) or before the id comment.
    private func set(_ pattern: some RegexComponent, to field: String, in text: inout String, atEnd: Bool) {
        if text.contains(pattern) {
            text.replace(pattern, with: field, maxReplacements: 1)
        } else if atEnd || !text.contains("<!--") {
            text += " " + field
        } else {
            text.replace("<!--", with: field + " <!--", maxReplacements: 1)
        }
    }
}
