import TestSupport
@testable import TodoModel

/// Random edits of identified lists, the kinds people make in an editor: check, rename, notes,
/// add, remove, move, prose lines, marker style, fields (priority, due and done dates). Deterministic for a seed.
struct RandomEditor {
    var generator: SeededGenerator
    var counter = 0

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// The lists after `times` edits, identified as a commit of them would be (an edit can
    /// uncover an item, say by breaking a code fence).
    mutating func edit(_ lists: ListSet, times: Int) -> ListSet {
        counter += 1
        return IDAssignment.resolveBase(editedRaw(lists, times: times), commit: "edit \(counter)").lists
    }

    private mutating func editedRaw(_ lists: ListSet, times: Int) -> ListSet {
        var result = lists
        for _ in 0..<times {
            guard let path = result.documents.keys.randomElement(using: &generator), var document = result[path] else {
                break
            }
            editOnce(&document)
            result[path] = document
        }
        return result
    }

    private mutating func editOnce(_ document: inout ListDocument) {
        counter += 1
        let ids = document.nodeIDs.compactMap { $0 }
        let target = ids.randomElement(using: &generator)
        switch Int.random(in: 0..<10, using: &generator) {
        case 0:
            if let target, let item = document.item(id: target) { try? document.update(target, isDone: !item.isDone) }
        case 1:
            if let target, let item = document.item(id: target) {
                // Renames as people make them: a word appended (or a field), the start rewritten,
                // the whole title replaced.
                let words = ["now", "later", "⏫", "📅 2026-12-0\(counter % 9 + 1)", "soon"]
                let title: String
                switch counter % 4 {
                case 0: title = "Thing " + item.title.split(separator: " ").dropFirst().joined(separator: " ")
                case 1: title = "Renamed \(counter)"
                default: title = item.title + " " + words[counter % words.count]
                }
                try? document.update(target, title: title)
            }
        case 2:
            if let target, let item = document.item(id: target) {
                try? document.update(
                    target, notes: item.notes.isEmpty ? "note \(counter)" : item.notes + "\nnote \(counter)")
            }
        case 3:
            if let target { try? document.remove(target) }
        case 4:
            let id = ItemID.random(using: &generator)
            let parent = Bool.random(using: &generator) ? target : nil
            try? document.add("New \(counter)", id: id, under: parent)
        case 5:
            let at = Int.random(in: 0...document.lines.count, using: &generator)
            if at > 0, document.lines[at - 1].ending == .none { return }
            let texts = ["", "Some prose \(counter)", "## Heading \(counter)"]
            document.replaceLines(
                at..<at, with: [ListLine(content: Array(texts[counter % texts.count].utf8)[...], ending: .lf)])
        case 6:
            // Move a top-level item (with its notes and children) before another, or to the end.
            let tops = document.topLevelNodes
            guard let moving = tops.randomElement(using: &generator) else { return }
            let range = document.subtree(ofNode: moving)
            let lines = Array(document.lines[range])
            guard lines.last?.ending != LineEnding.none else { return }
            let others = tops.filter { $0 != moving }.map { document.nodeLine($0) }
            let destination = others.randomElement(using: &generator) ?? document.lines.count
            guard destination < range.lowerBound || destination >= range.upperBound else { return }
            var all = document.lines
            all.removeSubrange(range)
            let insertAt = destination >= range.upperBound ? destination - range.count : destination
            guard insertAt <= all.count,
                insertAt == all.count || all.last?.ending != LineEnding.none || insertAt < all.count
            else { return }
            all.insert(contentsOf: lines, at: insertAt)
            if insertAt == all.count - lines.count, insertAt > 0, all[insertAt - 1].ending == .none { return }
            document.replaceLines(0..<document.lines.count, with: all)
        case 7:
            if let target, let node = document.node(for: target) {
                let line = document.nodeLine(node)
                var content = Array(document.lines[line].content)
                if let dash = content.firstIndex(of: UInt8(ascii: "-")), dash + 1 < content.count,
                    content[dash + 1] == 0x20
                {
                    content[dash] = UInt8(ascii: "*")
                    document.replaceLines(
                        line..<(line + 1), with: [ListLine(content: content[...], ending: document.lines[line].ending)])
                }
            }
        case 8:
            // Text typed at the end of an item's first line, after its id comment, as an editor's
            // End key or Obsidian Tasks' done date puts it.
            if let target, let node = document.node(for: target) {
                let line = document.nodeLine(node)
                let typed = counter % 2 == 0 ? " typed \(counter)" : " ✅ 2026-11-2\(counter % 9 + 1)"
                let content = Array(document.lines[line].content) + Array(typed.utf8)
                document.replaceLines(
                    line..<(line + 1), with: [ListLine(content: content[...], ending: document.lines[line].ending)])
            }
        default:
            // A field set as a command sets it: a priority, or a due date (sometimes removed).
            if let target, let item = document.item(id: target) {
                switch counter % 3 {
                case 0: try? document.update(target, priority: item.priority == .high ? .low : .high)
                case 1: try? document.update(target, due: .some(CalendarDate("2026-12-1\(counter % 10)")))
                default: try? document.update(target, due: .some(item.due == nil ? CalendarDate("2026-11-30") : nil))
                }
            }
        }
    }
}
