/// Merging the text of an item's line: the title before the id comment, the text typed after
/// it, and the Obsidian Tasks fields in them, each field on its own.
extension ListMerger {
    /// One version's line text: the title before the id comment and the text after it.
    typealias LineText = (title: ArraySlice<UInt8>, after: ArraySlice<UInt8>)

    /// The merged title and text after the id comment: the words of each part word by word,
    /// the fields that end each part one by one (`mergeFields`), placed as the side that
    /// rearranged them placed them (`mergedSlots`).
    mutating func mergeLineText(_ id: ItemID, old: LineText?, ours: LineText, theirs: LineText) -> (title: [UInt8], after: [UInt8]) {
        // The common cases (the line's box or marker changed, not its text): one side's text.
        let same = { (a: LineText, b: LineText) in a.title == b.title && a.after == b.after }
        if same(ours, theirs) || old.map({ same($0, theirs) }) == true { return (Array(ours.title), Array(ours.after)) }
        if old.map({ same($0, ours) }) == true { return (Array(theirs.title), Array(theirs.after)) }
        let shown = (ours: String(decoding: TaskHead.joined(ours.title, ours.after), as: UTF8.self),
                     theirs: String(decoding: TaskHead.joined(theirs.title, theirs.after), as: UTF8.self))
        let base = old.map { FieldedText(before: $0.title, after: $0.after) }
        let mine = FieldedText(before: ours.title, after: ours.after), other = FieldedText(before: theirs.title, after: theirs.after)
        let fields = mergeFields(id, base?.fields ?? [:], mine.fields, other.fields)
        let title = mergeTitle(id, base?.before.words, mine.before.words, other.before.words, shown: shown)
        let after = mergeAfter(id, base?.after.words, mine.after.words, other.after.words)
        let slots = Self.mergedSlots(base, mine, other, fields: fields)
        return (FieldedText.assembled(words: title, slots: slots.before, fields: fields, isAfterComment: false),
                FieldedText.assembled(words: after, slots: slots.after, fields: fields, isAfterComment: true))
    }

    /// Where the merged fields stand: as the side that rearranged them placed them, without
    /// the fields the merge dropped; a field that arrangement lacks goes in the part its value
    /// came from, in Obsidian Tasks' order. A second field of a kind typed by the other side
    /// stays too, at the end of its part.
    private static func mergedSlots(
        _ base: FieldedText?, _ ours: FieldedText, _ theirs: FieldedText, fields: [TaskField.Kind: FieldedText.Field]
    ) -> (before: [FieldedText.Slot], after: [FieldedText.Slot]) {
        let arrangement = { (text: FieldedText) in [text.before.slots, text.after.slots] }
        let written = { (text: FieldedText) -> [UInt8] in
            FieldedText.assembled(words: [], slots: text.before.slots, fields: text.fields, isAfterComment: false) + [0]
                + FieldedText.assembled(words: [], slots: text.after.slots, fields: text.fields, isAfterComment: true)
        }
        let baseSlots = base.map(arrangement) ?? [[], []]
        let taken: FieldedText, other: FieldedText
        if baseSlots == arrangement(ours) {
            (taken, other) = (theirs, ours)
        } else if baseSlots == arrangement(theirs) {
            (taken, other) = (ours, theirs)
        } else if written(theirs).lexicographicallyPrecedes(written(ours)) {
            // Both rearranged: the runs that sort first, so that the merge does not depend on
            // which side is ours.
            (taken, other) = (theirs, ours)
        } else {
            (taken, other) = (ours, theirs)
        }
        var parts = arrangement(taken).map { slots in
            slots.filter { if case .field(let kind) = $0 { fields[kind] != nil } else { true } }
        }
        for (part, slots) in arrangement(other).enumerated() {
            for slot in slots where !baseSlots[part].contains(slot) && !parts[part].contains(slot) {
                if case .extra = slot { parts[part].append(slot) }
            }
        }
        for (kind, field) in fields.sorted(by: { $0.key < $1.key }) where !parts[0].contains(.field(kind)) && !parts[1].contains(.field(kind)) {
            let part = field.isAfterComment ? 1 : 0
            parts[part].insert(.field(kind), at: FieldedText.place(of: kind, in: parts[part]))
        }
        return (parts[0], parts[1])
    }

    /// Each field three-way on its own: the side that changed it. Both sides changing one
    /// field differently is a clash: ours stays in the field, theirs goes in a note (undo,
    /// `keepingOurs`, only reports it).
    private mutating func mergeFields(
        _ id: ItemID, _ old: [TaskField.Kind: FieldedText.Field], _ ours: [TaskField.Kind: FieldedText.Field],
        _ theirs: [TaskField.Kind: FieldedText.Field]
    ) -> [TaskField.Kind: FieldedText.Field] {
        var result: [TaskField.Kind: FieldedText.Field] = [:]
        for kind in Set(old.keys).union(ours.keys).union(theirs.keys).sorted() {
            let base = old[kind], mine = ours[kind], other = theirs[kind]
            if mine?.value == other?.value {
                // The same value: the way a side that rewrote it writes it.
                result[kind] = mine?.raw == base?.raw ? other : mine
            } else if mine?.value == base?.value {
                result[kind] = other
            } else if other?.value == base?.value {
                result[kind] = mine
            } else {
                result[kind] = mine
                let kept = mine.map { String(decoding: $0.raw, as: UTF8.self) }, theirsValue = other.map { String(decoding: $0.raw, as: UTF8.self) }
                itemReports[id, default: []].append(.fieldClash(field: kind.name, kept: kept, other: theirsValue))
                if keepingOurs { continue }
                clashNotes[id, default: []].append(markers.count)
                let note = theirsValue.map { "set the \(kind.name) to \($0)" } ?? "removed the \(kind.name)"
                markers.append(Array("todosync clash: the other side \(note)".utf8))
            }
        }
        return result
    }

    /// The merged title: word by word; where the edits clash, ours, with theirs kept in a note.
    private mutating func mergeTitle(
        _ id: ItemID, _ old: ArraySlice<UInt8>?, _ ours: ArraySlice<UInt8>, _ theirs: ArraySlice<UInt8>,
        shown: (ours: String, theirs: String)
    ) -> [UInt8] {
        if let merged = Self.mergedWords(old, ours, theirs) { return merged }
        itemReports[id, default: []].append(.titleClash(kept: shown.ours, other: shown.theirs))
        if !keepingOurs {
            clashNotes[id, default: []].append(markers.count)
            markers.append(Array("todosync clash: this item was also renamed to: \(shown.theirs)".utf8))
        }
        return Array(ours)
    }

    /// Three versions of a text merged word by word (the side that changed it, if only one
    /// did); nil where both changed the same words.
    private static func mergedWords(_ old: ArraySlice<UInt8>?, _ ours: ArraySlice<UInt8>, _ theirs: ArraySlice<UInt8>) -> [UInt8]? {
        if ours == theirs || theirs == old { return Array(ours) }
        if ours == old { return Array(theirs) }
        if let old, let base = String(validating: old, as: UTF8.self),
            let mine = String(validating: ours, as: UTF8.self), let other = String(validating: theirs, as: UTF8.self),
            case .merged(let text) = TextMerge.merge(base: base, ours: mine, theirs: other)
        {
            return Array(text.utf8)
        }
        return nil
    }

    /// Text typed after the id comment, merged word by word as a title is; where both sides
    /// typed differently, both are kept, in byte order (so the result does not depend on which
    /// side is ours), and neither is lost. Both sides adding text where there was none is a
    /// union; both changing text that was there is a clash, reported (undo keeps ours).
    private mutating func mergeAfter(
        _ id: ItemID, _ old: ArraySlice<UInt8>?, _ ours: ArraySlice<UInt8>, _ theirs: ArraySlice<UInt8>
    ) -> [UInt8] {
        if let merged = Self.mergedWords(old, ours, theirs) { return merged }
        let hadText = old.map { $0.contains { !$0.isSpaceOrTab } } ?? false
        if hadText { itemReports[id, default: []].append(.afterTextClash) }
        if hadText && keepingOurs { return Array(ours) }
        return ours.lexicographicallyPrecedes(theirs) ? Array(ours) + theirs : Array(theirs) + ours
    }
}
