/// Merging the text of an item's line: the title before the id comment, the text typed after
/// it, and the Obsidian Tasks fields in them, each field on its own.
extension ListMerger {
    /// One version's line text: the title before the id comment and the text after it.
    typealias LineText = (title: ArraySlice<UInt8>, after: ArraySlice<UInt8>)

    /// The merged title and text after the id comment: the words of the line as a whole (one
    /// side's exact words, never words of both: `mergeWords`), the fields that end each part
    /// one by one (`mergeFields`), placed as the side that rearranged them placed them
    /// (`mergedSlots`).
    mutating func mergeLineText(
        _ id: ItemID, old: LineText?, ours: LineText, theirs: LineText
    ) -> (title: [UInt8], after: [UInt8]) {
        // The common cases (the line's box or marker changed, not its text): one side's text.
        let same = { (a: LineText, b: LineText) in a.title == b.title && a.after == b.after }
        if same(ours, theirs) || old.map({ same($0, theirs) }) == true { return (Array(ours.title), Array(ours.after)) }
        if old.map({ same($0, ours) }) == true { return (Array(theirs.title), Array(theirs.after)) }
        let shown = (
            ours: String(decoding: TaskHead.joined(ours.title, ours.after), as: UTF8.self),
            theirs: String(decoding: TaskHead.joined(theirs.title, theirs.after), as: UTF8.self)
        )
        let base = old.map { FieldedText(before: $0.title, after: $0.after) }
        let mine = FieldedText(before: ours.title, after: ours.after),
            other = FieldedText(before: theirs.title, after: theirs.after)
        let fields = mergeFields(id, base?.fields ?? [:], mine.fields, other.fields)
        let (title, after) = mergeWords(
            id, base.map { ($0.before.words, $0.after.words) }, (mine.before.words, mine.after.words),
            (other.before.words, other.after.words), shown: shown)
        let slots = Self.mergedSlots(base, mine, other, fields: fields)
        return (
            FieldedText.assembled(words: title, slots: slots.before, fields: fields, isAfterComment: false),
            FieldedText.assembled(words: after, slots: slots.after, fields: fields, isAfterComment: true)
        )
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
        for (kind, field) in fields.sorted(by: { $0.key < $1.key })
        where !parts[0].contains(.field(kind)) && !parts[1].contains(.field(kind)) {
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
                let kept = mine.map { String(decoding: $0.raw, as: UTF8.self) },
                    theirsValue = other.map { String(decoding: $0.raw, as: UTF8.self) }
                itemReports[id, default: []].append(.fieldClash(field: kind.name, kept: kept, other: theirsValue))
                if keepingOurs { continue }
                clashNotes[id, default: []].append(markers.count)
                let note = theirsValue.map { "set the \(kind.name) to \($0)" } ?? "removed the \(kind.name)"
                markers.append(Array("todosync clash: the other side \(note)".utf8))
            }
        }
        return result
    }

    /// The words of the line (before the id comment and typed after it) as a whole: the side
    /// that changed them; both changing them differently is a clash: ours stay, theirs go in
    /// a note (undo, `keepingOurs`, only reports it). A merged title is always words one side
    /// wrote, never a mix of both.
    private mutating func mergeWords(
        _ id: ItemID, _ old: (ArraySlice<UInt8>, ArraySlice<UInt8>)?, _ ours: (ArraySlice<UInt8>, ArraySlice<UInt8>),
        _ theirs: (ArraySlice<UInt8>, ArraySlice<UInt8>), shown: (ours: String, theirs: String)
    ) -> (title: [UInt8], after: [UInt8]) {
        let same = { (a: (ArraySlice<UInt8>, ArraySlice<UInt8>), b: (ArraySlice<UInt8>, ArraySlice<UInt8>)) in
            a.0 == b.0 && a.1 == b.1
        }
        if same(ours, theirs) || old.map({ same($0, theirs) }) == true { return (Array(ours.0), Array(ours.1)) }
        if old.map({ same($0, ours) }) == true { return (Array(theirs.0), Array(theirs.1)) }
        itemReports[id, default: []].append(.titleClash(kept: shown.ours, other: shown.theirs))
        if !keepingOurs {
            clashNotes[id, default: []].append(markers.count)
            markers.append(Array("todosync clash: this item was also renamed to: \(shown.theirs)".utf8))
        }
        return (Array(ours.0), Array(ours.1))
    }
}
