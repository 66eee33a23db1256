import Foundation
import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// The laws of the merge, over generated lists and random edits, on the merge itself (not the
/// shortcuts `ListMerge.merge` takes when a side is unchanged).
@Suite struct MergeLawTests {
    static func base(_ text: String) -> ListSet {
        let documents = [
            ListDocument(path: "TODO.md", bytes: Array(text.utf8)),
            ListDocument(
                path: "work.md", bytes: Array("# Work\n- [ ] Report\n  due soon\n- [ ] Email\n  - [ ] Draft\n".utf8)),
        ]
        return IDAssignment.resolveBase(ListSet(documents), commit: "base").lists
    }

    /// A base and two sides, each after `times` random edits.
    static func twoSides(_ text: String, seed: Int, times: Int = 3) -> (base: ListSet, ours: ListSet, theirs: ListSet) {
        let base = base(text)
        var editor = RandomEditor(seed: UInt64(seed))
        return (base, editor.edit(base, times: times), editor.edit(base, times: times))
    }

    @Test func mergingASideWithItselfGivesThatSide() async {
        await propertyCheck(count: 3000, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let base = Self.base(text)
            var editor = RandomEditor(seed: UInt64(seed))
            let side = editor.edit(base, times: 4)
            let merged = ListMerge.mergeItemByItem(base: base, ours: side, theirs: side)
            #expect(merged.lists.texts == side.texts)
            #expect(merged.reports.isEmpty)
        }
    }

    @Test func mergingWithAnUnchangedSideGivesTheOtherSide() async {
        await propertyCheck(count: 3000, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let base = Self.base(text)
            var editor = RandomEditor(seed: UInt64(seed))
            let side = editor.edit(base, times: 4)
            #expect(ListMerge.mergeItemByItem(base: base, ours: base, theirs: side).lists.texts == side.texts)
            #expect(ListMerge.mergeItemByItem(base: base, ours: side, theirs: base).lists.texts == side.texts)
        }
    }

    @Test func theItemsDoNotDependOnWhichSideIsOurs() async {
        await propertyCheck(count: 300, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let (base, ours, theirs) = Self.twoSides(text, seed: seed)
            let forward = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs)
            let backward = ListMerge.mergeItemByItem(base: base, ours: theirs, theirs: ours)
            // A clash keeps ours in the title (a field or the words) and theirs in a note.
            let clashed = Set(
                forward.reports.filter {
                    switch $0.kind {
                    case .titleClash, .fieldClash: true
                    default: false
                    }
                }.compactMap(\.item))
            let a = forward.lists.items, b = backward.lists.items
            #expect(Set(a.keys) == Set(b.keys))
            for (id, item) in a {
                guard let other = b[id] else { continue }
                #expect(item.isDone == other.isDone)
                if !clashed.contains(item.title) && !clashed.contains(other.title) {
                    #expect(item.title == other.title)
                }
            }
        }
    }

    @Test func anItemLineAlikeInAllThreeIsWrittenAsTheGeneralPathWouldWriteIt() async {
        await propertyCheck(count: 1000, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let (base, ours, theirs) = Self.twoSides(text, seed: seed)
            let quick = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs, folding: false)
            let general = ListMerge.mergeItemByItem(
                base: base, ours: ours, theirs: theirs, folding: false, takingAlikeLines: false)
            #expect(quick.lists.texts == general.lists.texts)
            #expect(quick.reports == general.reports)
        }
    }

    /// Obsidian Tasks fields merge one by one: a field one side changed takes that side's
    /// value whatever the other did to the item; both changing it differently keeps ours,
    /// reports it, and shows theirs in the item's notes; no merge writes a field twice.
    /// (`FieldMergeLawTests` holds the same laws over edits of fields alone.)
    @Test func fieldsMergeAsFields() async {
        await propertyCheck(count: 1000, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let (base, ours, theirs) = Self.twoSides(text, seed: seed, times: 5)
            let merged = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs)
            guard !ours.hasIDsOutsideItems, !theirs.hasIDsOutsideItems, !merged.lists.hasIDsOutsideItems else { return }
            let baseItems = base.items, oursItems = ours.items, theirsItems = theirs.items
            for (id, item) in merged.lists.items {
                guard let old = baseItems[id], let mine = oursItems[id], let other = theirsItems[id] else { continue }
                let fields = [
                    base.line(of: old), ours.line(of: mine), theirs.line(of: other), merged.lists.line(of: item),
                ].map(FieldValues.init(line:))
                // Where the words clash the merge keeps ours' words; when a side wrote a field
                // emoji among its words, those may end with one (as any title may).
                let wordsClashed = merged.reports.contains {
                    if case .titleClash = $0.kind { $0.item == item.title } else { false }
                }
                for kind in TaskField.Kind.allCases {
                    // A kind written twice by hand has no single value to hold the merge to.
                    let holdingValues = !wordsClashed && !fields.contains { $0.count(kind) > 1 }
                    expectFieldLaws(
                        kind, fields, reports: merged.reports, notes: item.notes, holdingValues: holdingValues)
                }
            }
        }
    }

    /// docs/MERGE.md, "Titles": a merged title is the words base, ours or theirs had, never a
    /// mix; where both sides renamed an item differently ours stands, the clash is reported and
    /// theirs is in the item's notes.
    @Test func aMergedTitleIsOneASideWrote() async {
        await propertyCheck(count: 1000, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let (base, ours, theirs) = Self.twoSides(text, seed: seed, times: 6)
            let mergedLists = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs)
            // The items as the merged bytes read afresh (what the next command sees): the merge's
            // own parse takes spans' parses from the sides they came from, which can still
            // call a line an item that the merged text around it no longer makes one.
            let fresh = ListSet(
                mergedLists.lists.documents.values.map { ListDocument(path: $0.path, bytes: $0.render()) })
            let baseItems = base.items, oursItems = ours.items, theirsItems = theirs.items
            // The words of a title, without the Obsidian Tasks fields that end it (those merge one by one).
            func words(_ item: TodoItem?) -> String? {
                item.map {
                    String(
                        decoding: FieldedText(before: Array($0.title.utf8)[...], after: []).before.words, as: UTF8.self)
                }
            }
            for (id, item) in fresh.items {
                // An item that a side's other edits turned into text there (a list that lost the
                // line making it one: MERGE.md's known gaps) has that side's words only as bytes:
                // the law is held where every side still reads the line as an item.
                let versions = [baseItems[id], oursItems[id], theirsItems[id]].compactMap(words)
                guard versions.count == 3, let merged = words(item) else { continue }
                #expect(versions.contains(merged), "\(merged.debugDescription) is none of \(versions)")
                guard let old = words(baseItems[id]), let mine = words(oursItems[id]),
                    let other = words(theirsItems[id]),
                    mine != old, other != old, mine != other
                else { continue }
                #expect(merged == mine)
                #expect(mergedLists.reports.contains { if case .titleClash = $0.kind { true } else { false } })
                #expect(item.notes.contains("todosync clash: this item was also renamed to: \(theirsItems[id]!.title)"))
            }
        }
    }

    @Test func nothingIsLostAndNoIDIsDoubled() async {
        await propertyCheck(count: 300, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            let (base, ours, theirs) = Self.twoSides(text, seed: seed)
            let merged = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs).lists
            // Kept on both sides, or added by one: in the result, as bytes always.
            let must = ours.ids.intersection(theirs.ids).union(ours.ids.subtracting(base.ids)).union(
                theirs.ids.subtracting(base.ids))
            let mergedText = merged.documents.values.map { String(decoding: $0.render(), as: UTF8.self) }.joined()
            #expect(must.allSatisfy { mergedText.contains($0.description) })
            // NB: a known gap (docs/MERGE.md): lines that change the block structure merge as
            // lines. When an edit turns lines into code (a fence or front matter opened, a
            // heading put above an indented line), the merged file may read the other side's
            // items there as code, or hold such a line twice. Such merges (an id in the text
            // on no item's line) are held to the bytes alone.
            guard !ours.hasIDsOutsideItems, !theirs.hasIDsOutsideItems, !merged.hasIDsOutsideItems else { return }
            let mergedIDs = merged.documents.values.flatMap(\.nodeIDs)
            #expect(!mergedIDs.contains(nil))
            #expect(Set(mergedIDs).count == mergedIDs.count)
            #expect(must.isSubset(of: Set(mergedIDs.compactMap { $0 })))
            // Every checked box that one side set and the other did not touch stays set.
            let baseItems = base.items, oursItems = ours.items, theirsItems = theirs.items
            for (id, item) in merged.items {
                guard let old = baseItems[id], let mine = oursItems[id], let other = theirsItems[id] else { continue }
                if mine.isDone != old.isDone { #expect(item.isDone == mine.isDone) }
                if other.isDone != old.isDone { #expect(item.isDone == other.isDone) }
                // A field only one side changed takes that side's value. (Notes: unchanged means
                // the same note lines; a blank line added around them does not show in `notes`.)
                let baseNotes = base.noteLines(of: id)
                for (changed, unchanged, lines) in [
                    (mine, other, theirs.noteLines(of: id)), (other, mine, ours.noteLines(of: id)),
                ] {
                    if changed.title != old.title, unchanged.title == old.title { #expect(item.title == changed.title) }
                    if changed.notes != old.notes, lines == baseNotes, !item.notes.contains("todosync clash") {
                        // Kept whole. After it, only lines a side held outside every item may
                        // follow: indented text left by a deleted item reads as the notes of an
                        // item moved in right before it (docs/MERGE.md, known gaps).
                        #expect(item.notes.hasPrefix(changed.notes))
                        let loose = ours.looseLines.union(theirs.looseLines)
                        let extra = item.notes.dropFirst(changed.notes.count).split(separator: "\n")
                        #expect(extra.allSatisfy { loose.contains($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
                    }
                }
            }
        }
    }
}

extension ListSet {
    /// Whether an id comment stands on a line that is no item's (an edit made it code).
    var hasIDsOutsideItems: Bool {
        documents.values.contains { document in
            String(decoding: document.render(), as: UTF8.self).matches(of: /<!-- id: [0-9A-F-]{36} -->/).count
                > document.nodeIDs.compactMap { $0 }.count
        }
    }

    /// The lines (trimmed) that belong to no item: neither an item's line nor one of its notes.
    var looseLines: Set<String> {
        var result = Set<String>()
        for document in documents.values {
            var owned = Set<Int>()
            for node in 0..<document.nodeIDs.count {
                owned.insert(document.nodeLine(node))
                owned.formUnion(document.noteLines(ofNode: node))
            }
            for (index, line) in document.lines.enumerated() where !owned.contains(index) {
                result.insert(
                    String(decoding: line.content, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        return result
    }

    /// An item's note lines as written, blank ones included.
    func noteLines(of id: ItemID) -> [ArraySlice<UInt8>]? {
        for document in documents.values {
            if let node = document.node(for: id) {
                return document.noteLines(ofNode: node).map { document.lines[$0].content }
            }
        }
        return nil
    }

    /// Each file's text, lines and endings visible, for readable failures.
    var texts: [String: String] {
        Dictionary(
            uniqueKeysWithValues: documents.map {
                ($0.key, String(decoding: $0.value.render(), as: UTF8.self).replacingAll("\r", with: "⏎"))
            })
    }
}
