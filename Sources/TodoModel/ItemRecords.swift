/// The items of one list file's bytes in a compact binary form, for a cache of parsed items:
/// decoding them is cheaper than reading the file, parsing it and splitting each title's
/// fields again. Pure: the engine decides where records are kept and when one is trusted.
///
/// ```swift
/// let document = ListDocument(path: "TODO.md", bytes: bytes)
/// if let record = ItemRecords.encode(document) {
///     let decoded = ItemRecords.decode(record, file: "TODO.md", done: nil)
///     decoded?.items == document.items(done: nil)   // true
/// }
/// ```
public enum ItemRecords {
    /// What a record says of the file as a whole (what decides whether it is a list).
    public struct Summary: Equatable, Sendable {
        public var hasItems: Bool
        public var hasIDs: Bool
    }

    /// The record of `document`'s items; nil where the file is not in order for a cache (an
    /// item without an id of its own, an id used twice, an unsettled clash): those are worked
    /// out afresh.
    public static func encode(_ document: ListDocument) -> [UInt8]? {
        joined(document, [part(of: document, done: nil)])
    }

    /// The items of one state (checked, open; nil: all) of a document, encoded as its record
    /// holds them: two parts made at once, on two threads, are `joined` into its record. A
    /// command that hands on the open items builds each once, for itself and the record.
    public struct Part: Sendable {
        public let done: Bool?
        /// Each item's encoding, its length first, in file order.
        var entries: [UInt8] = []
        /// False where an item holds what a record cannot (a date past year 9999).
        var representable = true
    }

    /// The part of `document` for the items whose state is `done` (nil: all), each item
    /// handed to `body` as it is built and encoded.
    public static func part(of document: ListDocument, done: Bool?, handing body: (TodoItem) -> Void = { _ in }) -> Part
    {
        var part = Part(done: done)
        guard document.nodeIDs.allSatisfy({ $0 != nil }) else {
            document.forEachItem(done: done, body)
            part.representable = false
            return part
        }
        part.entries.reserveCapacity((document.lines.last?.content.endIndex ?? 0) / (done == nil ? 1 : 2))
        let sectionOf = sections(of: document).index
        // Every node has an id, so every node is an item: an item's index is its node's.
        var entry: [UInt8] = []
        var lastLine = -1
        var section: Int?
        document.forEachNodeItem(done: done) { node, item in
            body(item)
            guard part.representable else { return }
            let line = document.nodes[node].headingLine
            if line != lastLine {
                section = line.flatMap { sectionOf[$0] }
                lastLine = line ?? -1
            }
            entry.removeAll(keepingCapacity: true)
            part.representable = encode(item, parent: document.nodes[node].parent, section: section, to: &entry)
            part.entries.appendNumber(entry.count)
            part.entries += entry
        }
        return part
    }

    /// The record of `document` from parts that hold each item once (all items, or the open
    /// and the checked ones); nil where the file is not in order for a cache, as `encode`.
    /// `idsChecked`: the caller found every item's id there and used once.
    public static func joined(_ document: ListDocument, _ parts: [Part], idsChecked: Bool = false) -> [UInt8]? {
        let ids = document.nodeIDs
        if !idsChecked {
            var seen = Set<ItemID>(minimumCapacity: ids.count)
            for id in ids {
                guard let id, seen.insert(id).inserted else { return nil }
            }
        }
        // A file holding an unsettled clash is read each time, so every command finds it.
        guard parts.allSatisfy(\.representable), !document.mayHoldClashes else { return nil }
        let all = parts.first { $0.done == nil }
        let open = parts.first { $0.done == false }, checked = parts.first { $0.done == true }
        guard all != nil || (open != nil && checked != nil) else { return nil }
        let sections = sections(of: document).order
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(16 + sections.count * 16) { $0 + $1.entries.count })
        out.append((document.hasItems ? 1 : 0) | (document.hasIDs ? 2 : 0))
        out.appendNumber(sections.count)
        for section in sections { out.appendString(section) }
        out.appendNumber(ids.count)
        if let all {
            out += all.entries
            return out
        }
        // The two parts' entries, taken in file order by each item's state.
        guard let open, let checked else { return nil }
        var readers = [ByteReader(bytes: open.entries[...], at: 0), ByteReader(bytes: checked.entries[...], at: 0)]
        for node in ids.indices {
            let which = document.isDone(node: node) ? 1 : 0
            let start = readers[which].index
            guard let length = readers[which].number(), let end = readers[which].end(after: length) else { return nil }
            out += readers[which].bytes[start..<end]
            readers[which].index = end
        }
        guard readers.allSatisfy({ $0.index == $0.bytes.endIndex }) else { return nil }
        return out
    }

    /// The record's table of sections: heading texts in the order items first stand under
    /// them (the same text under two headings once), and each heading line's place in it.
    private static func sections(of document: ListDocument) -> (index: [Int: Int], order: [String]) {
        var sectionOf: [Int: Int] = [:], order: [String] = []
        var byName: [String: Int] = [:]
        var lastLine = -1
        for node in document.nodes.indices {
            guard let line = document.nodes[node].headingLine, line != lastLine else { continue }
            lastLine = line
            guard sectionOf[line] == nil else { continue }
            let name = document.headingText(line)
            if let known = byName[name] {
                sectionOf[line] = known
            } else {
                sectionOf[line] = order.count
                byName[name] = order.count
                order.append(name)
            }
        }
        return (sectionOf, order)
    }

    /// Whether the file has items and ids, from a record; nil for bytes that are no record.
    public static func summary(_ record: ArraySlice<UInt8>) -> Summary? {
        guard let flags = record.first, flags < 4 else { return nil }
        return Summary(hasItems: flags & 1 != 0, hasIDs: flags & 2 != 0)
    }

    /// The items a record holds, as `ListDocument.items(done:)` gives them for a file at
    /// `file`, and the ids of all its items (whichever `done` asks for); nil for bytes that
    /// are no record (never a partial answer).
    public static func decode(
        _ record: ArraySlice<UInt8>, file: String, done wanted: Bool?
    ) -> (summary: Summary, items: [TodoItem], ids: [ItemID])? {
        var items: [TodoItem] = []
        guard let (summary, ids) = forEach(record, file: file, done: wanted, { items.append($0) }) else { return nil }
        return (summary, items, ids)
    }

    /// `decode`, handing on each item as it is built instead of holding them all (a list of a
    /// million items). Nil for bytes that are no record; items handed on before that was
    /// found stand, so a caller that cannot take a partial answer decodes whole first.
    @discardableResult
    public static func forEach(
        _ record: ArraySlice<UInt8>, file: String, done wanted: Bool?, _ body: (TodoItem) -> Void
    ) -> (summary: Summary, ids: [ItemID])? {
        guard let summary = summary(record) else { return nil }
        var reader = ByteReader(bytes: record, at: record.startIndex + 1)
        guard let sectionCount = reader.number(), sectionCount <= record.count else { return nil }
        var sections: [String] = []
        sections.reserveCapacity(sectionCount)
        for _ in 0..<sectionCount {
            guard let section = reader.string() else { return nil }
            sections.append(section)
        }
        guard let count = reader.number(), count <= record.count else { return nil }
        var ids: [ItemID] = []
        ids.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = reader.number(), let end = reader.end(after: length) else { return nil }
            guard let flags = reader.byte(), let id = reader.id() else { return nil }
            ids.append(id)
            if let wanted, (flags & Flag.done != 0) != wanted {
                reader.index = end
                continue
            }
            guard let item = reader.item(id: id, flags: flags, ids: ids, sections: sections, file: file),
                reader.index == end
            else { return nil }
            body(item)
        }
        guard reader.index == record.endIndex else { return nil }
        return (summary, ids)
    }

    /// The ids of all the items a record holds, in file order; nil for bytes that are no record.
    public static func ids(_ record: ArraySlice<UInt8>) -> [ItemID]? {
        guard summary(record) != nil else { return nil }
        var reader = ByteReader(bytes: record, at: record.startIndex + 1)
        guard let sectionCount = reader.number(), sectionCount <= record.count else { return nil }
        for _ in 0..<sectionCount {
            guard reader.string() != nil else { return nil }
        }
        guard let count = reader.number(), count <= record.count else { return nil }
        var ids: [ItemID] = []
        ids.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = reader.number(), let end = reader.end(after: length), reader.byte() != nil,
                let id = reader.id()
            else { return nil }
            ids.append(id)
            reader.index = end
        }
        return reader.index == record.endIndex ? ids : nil
    }

    enum Flag {
        static let done: UInt8 = 1, parent: UInt8 = 2, section: UInt8 = 4, plainTitleIsTitle: UInt8 = 8
    }

    /// Bits of the field mask, in the order the fields follow it.
    enum Field {
        static let due = 1, start = 2, scheduled = 4, created = 8, doneDate = 16, cancelled = 32
        static let recurrence = 64, taskID = 128, onCompletion = 256, dependsOn = 512
    }

    private static func encode(_ item: TodoItem, parent: Int?, section: Int?, to out: inout [UInt8]) -> Bool {
        var flags: UInt8 = item.isDone ? Flag.done : 0
        if parent != nil { flags |= Flag.parent }
        if section != nil { flags |= Flag.section }
        if item.plainTitle == item.title { flags |= Flag.plainTitleIsTitle }
        out.append(flags)
        for half in [item.id.high, item.id.low] {
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: half >> UInt64(shift)))
            }
        }
        if let parent { out.appendNumber(parent) }
        if let section { out.appendNumber(section) }
        out.appendNumber(item.position)
        out.appendNumber(item.line)
        out.appendString(item.title)
        if item.plainTitle != item.title { out.appendString(item.plainTitle) }
        out.appendString(item.notes)
        out.append(UInt8(item.priority.rawValue + 2))
        let dates: [(Int, CalendarDate?)] = [
            (Field.due, item.due), (Field.start, item.start), (Field.scheduled, item.scheduled),
            (Field.created, item.created), (Field.doneDate, item.doneDate), (Field.cancelled, item.cancelledDate),
        ]
        let texts: [(Int, String?)] = [
            (Field.recurrence, item.recurrence), (Field.taskID, item.taskID), (Field.onCompletion, item.onCompletion),
        ]
        var mask = 0
        for (bit, date) in dates where date != nil { mask |= bit }
        for (bit, text) in texts where text != nil { mask |= bit }
        if !item.dependsOn.isEmpty { mask |= Field.dependsOn }
        out.appendNumber(mask)
        for (_, date) in dates {
            guard let date else { continue }
            // A date the record cannot hold: the file is worked out afresh each time.
            guard (1...9999).contains(date.year) else { return false }
            out.appendNumber(date.year)
            out.append(UInt8(date.month))
            out.append(UInt8(date.day))
        }
        for (_, text) in texts {
            if let text { out.appendString(text) }
        }
        if !item.dependsOn.isEmpty {
            out.appendNumber(item.dependsOn.count)
            for id in item.dependsOn { out.appendString(id) }
        }
        return true
    }
}

/// The pieces of an item record.
extension ByteReader {
    mutating func id() -> ItemID? {
        guard let end = end(after: 16) else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        for offset in 0..<8 { high = high << 8 | UInt64(bytes[index + offset]) }
        for offset in 8..<16 { low = low << 8 | UInt64(bytes[index + offset]) }
        index = end
        return ItemID(high: high, low: low)
    }

    mutating func date() -> CalendarDate? {
        guard let year = number(), let month = byte(), let day = byte() else { return nil }
        return CalendarDate(year: year, month: Int(month), day: Int(day))
    }

    mutating func item(id: ItemID, flags: UInt8, ids: [ItemID], sections: [String], file: String) -> TodoItem? {
        guard flags < 16 else { return nil }
        var parent: ItemID?
        if flags & ItemRecords.Flag.parent != 0 {
            guard let index = number(), index < ids.count - 1 else { return nil }
            parent = ids[index]
        }
        var section: String?
        if flags & ItemRecords.Flag.section != 0 {
            guard let index = number(), index < sections.count else { return nil }
            section = sections[index]
        }
        guard let position = number(), let line = number(), let title = string() else { return nil }
        let plainTitle: String
        if flags & ItemRecords.Flag.plainTitleIsTitle != 0 {
            plainTitle = title
        } else {
            guard let text = string() else { return nil }
            plainTitle = text
        }
        guard let notes = string(), let rank = byte(), let priority = Priority(rawValue: Int(rank) - 2),
            let mask = number(), mask < 1024
        else { return nil }
        var dates: [CalendarDate?] = []
        for bit in [
            ItemRecords.Field.due, ItemRecords.Field.start, ItemRecords.Field.scheduled, ItemRecords.Field.created,
            ItemRecords.Field.doneDate, ItemRecords.Field.cancelled,
        ] {
            if mask & bit == 0 {
                dates.append(nil)
                continue
            }
            guard let date = date() else { return nil }
            dates.append(date)
        }
        var texts: [String?] = []
        for bit in [ItemRecords.Field.recurrence, ItemRecords.Field.taskID, ItemRecords.Field.onCompletion] {
            if mask & bit == 0 {
                texts.append(nil)
                continue
            }
            guard let text = string() else { return nil }
            texts.append(text)
        }
        var dependsOn: [String] = []
        if mask & ItemRecords.Field.dependsOn != 0 {
            guard let count = number(), count <= bytes.endIndex - index else { return nil }
            for _ in 0..<count {
                guard let text = string() else { return nil }
                dependsOn.append(text)
            }
        }
        return TodoItem(
            id: id, title: title, plainTitle: plainTitle, isDone: flags & ItemRecords.Flag.done != 0, notes: notes,
            priority: priority,
            due: dates[0], start: dates[1], scheduled: dates[2], created: dates[3], doneDate: dates[4],
            cancelledDate: dates[5],
            recurrence: texts[0], taskID: texts[1], dependsOn: dependsOn, onCompletion: texts[2],
            parent: parent, position: position, file: file, section: section, line: line)
    }
}
