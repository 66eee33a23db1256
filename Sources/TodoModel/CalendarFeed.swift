/// An iCalendar document (RFC 5545) of items, for calendar apps (`todosync ics`,
/// docs/CALENDAR.md): a VTODO for each item, or an all-day VEVENT on each due date.
///
/// Every property comes from the item, so the same items give the same bytes: UID from the
/// item's id (the same on every clone), DTSTAMP from the time the caller gives for the item (the
/// commit that last changed it). Lines end in CRLF and are folded at 75 octets, never inside a
/// character; text is escaped as the RFC says.
///
/// ```swift
/// let feed = CalendarFeed(name: "lists")
/// let bytes = feed.render([CalendarFeed.Entry(item: item, stamp: 1_780_000_000)])
/// ```
public struct CalendarFeed: Sendable {
    public enum Kind: Sendable { case todos, events }

    public struct Entry: Sendable {
        public var item: TodoItem
        /// When the item was last changed: seconds since 1970 (DTSTAMP, LAST-MODIFIED).
        public var stamp: Int64

        public init(item: TodoItem, stamp: Int64) {
            self.item = item
            self.stamp = stamp
        }
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind = .todos) {
        self.name = name
        self.kind = kind
    }

    /// Whether `item` belongs in a feed of `kind`: VTODOs for items with a due, start or
    /// scheduled date (`all`: every open item too); VEVENTs for open items with a due date.
    public static func includes(_ item: TodoItem, kind: Kind, all: Bool) -> Bool {
        switch kind {
        case .todos: item.due != nil || item.start != nil || item.scheduled != nil || (all && !item.isDone)
        case .events: item.due != nil && !item.isDone
        }
    }

    /// The document: the entries in the order given.
    public func render(_ entries: [Entry]) -> [UInt8] {
        var out = ContentLines()
        out.add("BEGIN", "VCALENDAR")
        out.add("VERSION", "2.0")
        out.add("PRODID", "-//todosync//todosync//EN")
        out.add("CALSCALE", "GREGORIAN")
        out.add("X-WR-CALNAME", Self.text(name))
        for entry in entries {
            switch kind {
            case .todos: todo(entry, into: &out)
            case .events: event(entry, into: &out)
            }
        }
        out.add("END", "VCALENDAR")
        return out.bytes
    }

    private func todo(_ entry: Entry, into out: inout ContentLines) {
        let item = entry.item
        out.add("BEGIN", "VTODO")
        common(entry, into: &out)
        let rule = item.isDone ? nil : Self.rule(for: item)
        // DTSTART: the start date, else the scheduled date; a recurring item without either
        // takes its due date, the rule's anchor (RFC 5545 counts a recurrence from DTSTART).
        var start = item.start ?? item.scheduled
        if start == nil, rule?.rrule != nil { start = item.due }
        if let due = item.due, let begins = start, begins > due { start = nil }
        if let start { out.add("DTSTART;VALUE=DATE", Self.date(start)) }
        if let due = item.due { out.add("DUE;VALUE=DATE", Self.date(due)) }
        if item.cancelledDate != nil {
            out.add("STATUS", "CANCELLED")
        } else if item.isDone {
            out.add("STATUS", "COMPLETED")
            if let done = item.doneDate { out.add("COMPLETED", Self.date(done) + "T120000Z") }
        } else {
            out.add("STATUS", "NEEDS-ACTION")
        }
        if let priority = Self.priority(item.priority) { out.add("PRIORITY", String(priority)) }
        if let rrule = rule?.rrule, start != nil { out.add("RRULE", rrule) }
        out.add(
            "DESCRIPTION",
            Self.text(description(item, unmappedRule: rule?.rrule == nil || start == nil ? item.recurrence : nil)))
        out.add("END", "VTODO")
    }

    private func event(_ entry: Entry, into out: inout ContentLines) {
        let item = entry.item
        guard let due = item.due else { return }
        out.add("BEGIN", "VEVENT")
        common(entry, into: &out)
        out.add("DTSTART;VALUE=DATE", Self.date(due))
        out.add("DTEND;VALUE=DATE", Self.date(due.adding(days: 1)))
        out.add("TRANSP", "TRANSPARENT")
        if let priority = Self.priority(item.priority) { out.add("PRIORITY", String(priority)) }
        let rule = Self.rule(for: item)
        if let rrule = rule?.rrule { out.add("RRULE", rrule) }
        out.add("DESCRIPTION", Self.text(description(item, unmappedRule: rule?.rrule == nil ? item.recurrence : nil)))
        out.add("END", "VEVENT")
    }

    private func common(_ entry: Entry, into out: inout ContentLines) {
        out.add("UID", entry.item.id.description.lowercased() + "@todosync")
        let stamp = Self.dateTime(entry.stamp)
        out.add("DTSTAMP", stamp)
        out.add("LAST-MODIFIED", stamp)
        out.add("SUMMARY", Self.text(entry.item.plainTitle))
    }

    /// The notes, a rule no RRULE says, and where the item stands.
    private func description(_ item: TodoItem, unmappedRule: String?) -> String {
        var parts: [String] = []
        if !item.notes.isEmpty { parts.append(item.notes.hasSuffix("\n") ? String(item.notes.dropLast()) : item.notes) }
        if let unmappedRule { parts.append("Repeats: \(unmappedRule)") }
        parts.append("\(item.file):\(item.line)")
        return parts.joined(separator: "\n\n")
    }

    // MARK: Values

    /// RFC 5545 PRIORITY: 1 (highest) to 9 (lowest); none for no priority.
    static func priority(_ priority: Priority) -> Int? {
        switch priority {
        case .highest: 1
        case .high: 3
        case .medium: 5
        case .low: 7
        case .lowest: 9
        case .none: nil
        }
    }

    /// The item's 🔁 rule as an RRULE (nil where none says the same dates), with the date it
    /// counts from: its due date, else its scheduled, else its start date (as Obsidian Tasks
    /// counts). nil: the item does not recur.
    static func rule(for item: TodoItem) -> (rrule: String?, anchor: CalendarDate?)? {
        guard let text = item.recurrence else { return nil }
        let anchor = item.due ?? item.scheduled ?? item.start
        guard let rule = RecurrenceRule(text), let anchor else { return (nil, anchor) }
        return (rrule(rule, anchor: anchor), anchor)
    }

    /// The RRULE that gives the dates `rule` gives from `anchor` (docs/CALENDAR.md's table);
    /// nil where none does: `when done` (counted from the day it is done), a month's day that
    /// a later month lacks (Obsidian Tasks then takes the month's last day, an RRULE skips the
    /// month), a yearly rule on February 29, a rule of several months every other year.
    public static func rrule(_ rule: RecurrenceRule, anchor: CalendarDate) -> String? {
        guard !rule.whenDone else { return nil }
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var parts: [String]
        switch rule.frequency {
        case .daily:
            parts = ["FREQ=DAILY"]
        case .weekly:
            parts = ["FREQ=WEEKLY"]
            if !rule.weekdays.isEmpty {
                parts.append("BYDAY=" + rule.weekdays.sorted().map { days[$0] }.joined(separator: ","))
                parts.append("WKST=MO")
            }
        case .monthly:
            parts = ["FREQ=MONTHLY"]
            if rule.monthDays.isEmpty, rule.nthWeekdays.isEmpty {
                guard anchor.day <= 28 else { return nil }
            }
            if !rule.monthDays.isEmpty {
                parts.append("BYMONTHDAY=" + rule.monthDays.map(String.init).joined(separator: ","))
            }
            if !rule.nthWeekdays.isEmpty {
                parts.append("BYDAY=" + rule.nthWeekdays.map { "\($0.n)\(days[$0.weekday])" }.joined(separator: ","))
            }
        case .yearly:
            parts = ["FREQ=YEARLY"]
            if rule.months.isEmpty {
                guard !(anchor.month == 2 && anchor.day == 29) else { return nil }
            } else {
                guard rule.interval == 1 else { return nil }
                parts.append("BYMONTH=" + rule.months.sorted().map(String.init).joined(separator: ","))
                if rule.monthDays.isEmpty, rule.nthWeekdays.isEmpty {
                    guard anchor.day <= 28 else { return nil }
                    parts.append("BYMONTHDAY=\(anchor.day)")
                }
                if !rule.monthDays.isEmpty {
                    parts.append("BYMONTHDAY=" + rule.monthDays.map(String.init).joined(separator: ","))
                }
                if !rule.nthWeekdays.isEmpty {
                    parts.append(
                        "BYDAY=" + rule.nthWeekdays.map { "\($0.n)\(days[$0.weekday])" }.joined(separator: ","))
                }
            }
        }
        if rule.interval > 1 { parts.insert("INTERVAL=\(rule.interval)", at: 1) }
        return parts.joined(separator: ";")
    }

    static func date(_ date: CalendarDate) -> String {
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 8)
        for (value, end) in [(date.year, 4), (date.month, 6), (date.day, 8)] {
            var rest = value, at = end
            while rest > 0, at > end - (end == 4 ? 4 : 2) {
                at -= 1
                digits[at] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// A UTC date-time, `YYYYMMDDTHHMMSSZ`.
    static func dateTime(_ seconds: Int64) -> String {
        let days = Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400)
        let rest = Int(seconds - Int64(days) * 86_400)
        var out = Array(date(CalendarDate(daysSinceEpoch: days)).utf8)
        out.append(UInt8(ascii: "T"))
        for value in [rest / 3600, rest / 60 % 60, rest % 60] {
            out += [UInt8(ascii: "0") + UInt8(value / 10), UInt8(ascii: "0") + UInt8(value % 10)]
        }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// TEXT as RFC 5545 escapes it: backslash, semicolon, comma and line ends.
    static func text(_ value: String) -> String {
        // Most titles hold nothing to escape.
        if !value.utf8.contains(where: {
            $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",")
        }) {
            return value
        }
        var out = ""
        var scalars = value.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            default:
                // Other control characters are not allowed in TEXT.
                if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Content lines: `NAME:value`, CRLF, folded so that no line is longer than 75 octets (a
/// continuation starts with a space), never inside a UTF-8 character.
struct ContentLines {
    private(set) var bytes: [UInt8] = []

    mutating func add(_ name: String, _ value: String) {
        var length = 0
        append(name.utf8, &length)
        bytes.append(UInt8(ascii: ":"))
        length += 1
        append(value.utf8, &length)
        bytes += [0x0D, 0x0A]
    }

    private mutating func append(_ text: String.UTF8View, _ length: inout Int) {
        let fast: Void? = text.withContiguousStorageIfAvailable { append($0, &length) }
        if fast == nil { Array(text).withUnsafeBufferPointer { append($0, &length) } }
    }

    private mutating func append(_ text: UnsafeBufferPointer<UInt8>, _ length: inout Int) {
        var index = 0
        while index < text.count {
            if length >= 75 {
                bytes += [0x0D, 0x0A, 0x20]
                length = 1
            }
            // As much as fits, cut before a character's first byte (a continuation byte is
            // 10xxxxxx): a character is never split.
            var end = min(text.count, index + 75 - length)
            while end < text.count, end > index, text[end] & 0xC0 == 0x80 { end -= 1 }
            if end == index {
                // Not even one character fits on this line: the next takes it.
                length = 75
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[index..<end]))
            length += end - index
            index = end
        }
    }
}
