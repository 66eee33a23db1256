/// What is due across every list, day by day (`todosync agenda`): overdue items, then today
/// and each of the next days.
///
/// Each item shows once, on the day that brings it: its due date where that falls in the
/// window (before today: overdue); otherwise its scheduled (⏳) or start (🛫) date, the earlier,
/// where that falls in the window (a date already passed brings it today). An item with none
/// of these dates in the window is left out. Within a day: highest priority first, then file
/// and line.
///
/// ```swift
/// let agenda = Agenda(items, today: CalendarDate("2026-11-25")!, days: 7)
/// agenda.days.first?.name   // "overdue", or the first day with something on it
/// ```
public struct Agenda: Hashable, Sendable {
    /// Why an item is on a day.
    public enum Reason: String, Hashable, Sendable {
        /// Due that day.
        case due
        /// Due before today, and open.
        case overdue
        /// Scheduled (⏳) for that day, or earlier (shown today).
        case scheduled
        /// Its start date (🛫) is that day, or came earlier (shown today).
        case starts
    }

    public struct Entry: Hashable, Sendable {
        public var item: TodoItem
        public var reason: Reason
        /// The date that brings it (its due, scheduled or start date).
        public var date: CalendarDate
    }

    public struct Day: Hashable, Sendable {
        /// The day; nil for the overdue items.
        public var date: CalendarDate?
        public var entries: [Entry]

        /// `overdue`, `today`, `tomorrow`, or the date.
        public func name(today: CalendarDate) -> String {
            guard let date else { return "overdue" }
            if date == today { return "today" }
            if date == today.adding(days: 1) { return "tomorrow" }
            return date.description
        }
    }

    public let today: CalendarDate
    /// How many days from today the window holds (today included).
    public let window: Int
    /// The overdue items (if any), then each day with something on it, in order.
    public let days: [Day]

    /// `items` (already filtered as `list` filters them) on the days of the window: today and
    /// the `days - 1` days after it. Done items are left out unless `done`.
    public init(_ items: [TodoItem], today: CalendarDate, days window: Int = 7, done: Bool = false) {
        self.today = today
        self.window = max(1, window)
        let last = today.adding(days: self.window - 1)
        var overdue: [Entry] = []
        var byDay: [CalendarDate: [Entry]] = [:]
        for item in items where done || !item.isDone {
            if let due = item.due, due <= last {
                if due < today {
                    // A done item is not late: shown on the day it was due only where that day is in the window.
                    if !item.isDone { overdue.append(Entry(item: item, reason: .overdue, date: due)) }
                } else {
                    byDay[due, default: []].append(Entry(item: item, reason: .due, date: due))
                }
                continue
            }
            let planned: [(CalendarDate, Reason)] = [
                item.scheduled.map { ($0, .scheduled) }, item.start.map { ($0, .starts) },
            ].compactMap { $0 }
            guard let (date, reason) = planned.min(by: { $0.0 < $1.0 }), date <= last, !(item.isDone && date < today)
            else { continue }
            byDay[max(date, today), default: []].append(Entry(item: item, reason: reason, date: date))
        }
        func ordered(_ entries: [Entry]) -> [Entry] {
            entries.sorted { a, b in
                if a.item.priority != b.item.priority { return a.item.priority > b.item.priority }
                if a.date != b.date { return a.date < b.date }
                return (a.item.file, a.item.line) < (b.item.file, b.item.line)
            }
        }
        var days: [Day] = overdue.isEmpty ? [] : [Day(date: nil, entries: ordered(overdue))]
        for offset in 0..<self.window {
            let date = today.adding(days: offset)
            guard let entries = byDay[date], !entries.isEmpty else { continue }
            days.append(Day(date: date, entries: ordered(entries)))
        }
        self.days = days
    }

    /// How many items it shows.
    public var count: Int { days.reduce(0) { $0 + $1.entries.count } }
}
