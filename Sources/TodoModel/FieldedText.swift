/// An item's line text split into words and Obsidian Tasks fields: the fields are the run of
/// them that ends the text before the id comment and the run that ends the text after it (as
/// Obsidian Tasks reads fields from the end of a line). A merge takes the words of each part
/// word by word and the fields one by one (`ListMerger+Title.swift`).
///
/// A kind written twice in the runs has one value, the one nearest the start of the line (as
/// Obsidian Tasks reads it); the other is kept where it stands as it is written (`extra`). A
/// block reference (`^abc`) after the fields is read first, as Obsidian reads it.
///
/// ```swift
/// let text = FieldedText(before: "Pay rent ⏫ 📅 2026-12-01", after: " ✅ 2026-11-30")
/// text.before.words            // "Pay rent"
/// text.before.kinds            // [.priority, .due]
/// text.after.kinds             // [.done]
/// ```
struct FieldedText {
    /// A field as one version writes it.
    struct Field {
        /// What it says (`TaskField.value`): two versions agree on a field when these agree.
        var value: [UInt8]
        /// How it is written, emoji and spacing included.
        var raw: ArraySlice<UInt8>
        /// The white space before it.
        var lead: ArraySlice<UInt8>
        /// Whether it stands after the id comment.
        var isAfterComment: Bool
    }

    /// A place in a run of fields: the field of a kind, a second one of a kind as written, or
    /// an Obsidian block reference (`^abc`), which ends the run as it ends a line.
    enum Slot: Equatable {
        case field(TaskField.Kind)
        case extra(lead: ArraySlice<UInt8>, raw: ArraySlice<UInt8>)
        case blockReference(lead: ArraySlice<UInt8>, raw: ArraySlice<UInt8>)
    }

    /// The text before or after the id comment: its words, then its run of fields.
    struct Part: Equatable {
        var words: ArraySlice<UInt8>
        var slots: [Slot]

        var kinds: [TaskField.Kind] { slots.compactMap { if case .field(let kind) = $0 { kind } else { nil } } }
    }

    var before: Part
    var after: Part
    var fields: [TaskField.Kind: Field] = [:]

    /// `before`: the title before the id comment; `after`: the text after it, with the white
    /// space after the comment.
    init(before: ArraySlice<UInt8>, after: ArraySlice<UInt8>) {
        self.before = Part(words: before, slots: [])
        self.after = Part(words: after, slots: [])
        self.before = splitting(before, isAfterComment: false)
        self.after = splitting(after, isAfterComment: true)
    }

    /// The part's trailing run of fields taken out: walks back from the end while a field ends
    /// where the white space after it ends.
    private mutating func splitting(_ text: ArraySlice<UInt8>, isAfterComment: Bool) -> Part {
        let bytes = Array(text)
        let found = TaskField.all(in: bytes)
        var end = bytes.count
        while end > 0, bytes[end - 1].isSpaceOrTab { end -= 1 }
        var slots: [Slot] = []
        if let reference = Self.blockReferenceStart(bytes, end: end) {
            var start = reference
            while start > 0, bytes[start - 1].isSpaceOrTab { start -= 1 }
            let offset = text.startIndex
            slots.append(
                .blockReference(
                    lead: text[(offset + start)..<(offset + reference)],
                    raw: text[(offset + reference)..<(offset + end)]))
            end = start
        }
        for found in found.reversed() {
            guard found.range.upperBound == end else { break }
            var start = found.range.lowerBound
            while start > 0, bytes[start - 1].isSpaceOrTab { start -= 1 }
            let offset = text.startIndex
            let field = Field(
                value: found.value, raw: text[(offset + found.range.lowerBound)..<(offset + found.range.upperBound)],
                lead: text[(offset + start)..<(offset + found.range.lowerBound)], isAfterComment: isAfterComment)
            end = start
            if let nearer = fields[found.kind] {
                if nearer.isAfterComment != isAfterComment {
                    // The part before the comment has this kind's value.
                    slots.insert(.extra(lead: field.lead, raw: field.raw), at: 0)
                    continue
                }
                // This one is nearer the start: it is the value, the other one an extra.
                // NB: `found` came from a slot of this kind, so the slot is there.
                slots[slots.firstIndex(of: .field(found.kind))!] = .extra(lead: nearer.lead, raw: nearer.raw)
            }
            fields[found.kind] = field
            slots.insert(.field(found.kind), at: 0)
        }
        return Part(words: text[text.startIndex..<(text.startIndex + end)], slots: slots)
    }

    /// A part written out: its words, then each field with the white space it had before it
    /// (a space where it had none). The part after the comment starts with white space; the
    /// part before it does not.
    static func assembled(
        words: [UInt8], slots: [Slot], fields: [TaskField.Kind: Field], isAfterComment: Bool
    ) -> [UInt8] {
        var result = words
        for slot in slots {
            let lead: ArraySlice<UInt8>, raw: ArraySlice<UInt8>
            switch slot {
            case .field(let kind):
                guard let field = fields[kind] else { continue }
                (lead, raw) = (field.lead, field.raw)
            case .extra(let extraLead, let extraRaw), .blockReference(let extraLead, let extraRaw):
                (lead, raw) = (extraLead, extraRaw)
            }
            if !result.isEmpty || isAfterComment { result += lead.isEmpty ? [0x20] : lead }
            result += raw
        }
        if isAfterComment, let first = result.first, !first.isSpaceOrTab { result.insert(0x20, at: 0) }
        return result
    }

    /// The text before the comment as its parts say now.
    var assembledBefore: [UInt8] {
        Self.assembled(words: Array(before.words), slots: before.slots, fields: fields, isAfterComment: false)
    }

    /// Sets a field of the part before the comment to `raw` (nil removes it): a new field
    /// goes in Obsidian Tasks' order among the fields there.
    mutating func set(_ kind: TaskField.Kind, to raw: [UInt8]?) {
        guard let raw else {
            fields[kind] = nil
            before.slots.removeAll { $0 == .field(kind) }
            after.slots.removeAll { $0 == .field(kind) }
            return
        }
        let value = TaskField.all(in: raw).first?.value ?? raw
        if let old = fields[kind] {
            fields[kind] = Field(value: value, raw: raw[...], lead: old.lead, isAfterComment: old.isAfterComment)
            return
        }
        fields[kind] = Field(value: value, raw: raw[...], lead: [0x20], isAfterComment: false)
        before.slots.insert(.field(kind), at: Self.place(of: kind, in: before.slots))
    }

    /// Where a new field of `kind` goes in a run: before the first field that Obsidian Tasks
    /// writes after it, else before a block reference, else at the end.
    static func place(of kind: TaskField.Kind, in slots: [Slot]) -> Int {
        slots.firstIndex {
            switch $0 {
            case .field(let other): other > kind
            case .blockReference: true
            case .extra: false
            }
        } ?? slots.endIndex
    }

    /// The start of an Obsidian block reference that ends `bytes[..<end]`: `^` after white
    /// space, then letters, digits and dashes.
    private static func blockReferenceStart(_ bytes: [UInt8], end: Int) -> Int? {
        var start = end
        while start > 0,
            bytes[start - 1].isASCIILetter || bytes[start - 1].isDigit || bytes[start - 1] == UInt8(ascii: "-")
        { start -= 1 }
        guard start < end, start >= 2, bytes[start - 1] == UInt8(ascii: "^"), bytes[start - 2].isSpaceOrTab else {
            return nil
        }
        return start - 1
    }
}
