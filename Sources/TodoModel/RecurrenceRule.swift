/// An Obsidian Tasks recurrence rule (`🔁 every 2 weeks on Monday when done`), for the forms
/// todosync can follow, and the next date it gives. Obsidian Tasks hands its rules to the rrule
/// library (an iCalendar RRULE with the reference date as DTSTART); the dates here are the
/// ones that gives, including Obsidian Tasks' own rule for months and years without "on":
/// a day the next month or year lacks moves back to its last day.
///
/// ```swift
/// let rule = RecurrenceRule("every month on the last Friday")!
/// rule.next(after: CalendarDate("2026-11-24")!)   // 2026-11-27
/// ```
public struct RecurrenceRule: Hashable, Sendable {
    public enum Frequency: Hashable, Sendable { case daily, weekly, monthly, yearly }

    /// "the 2nd Wednesday" (2, 2) or "the last Friday" (-1, 4): weekday 0 is Monday.
    public struct NthWeekday: Hashable, Sendable {
        public var n: Int
        public var weekday: Int
    }

    public var frequency: Frequency
    public var interval: Int
    /// Weekly: the days (0 = Monday); empty: the reference date's weekday.
    public var weekdays: [Int] = []
    /// Monthly or yearly "on the …": days of the month (-1 is the last).
    public var monthDays: [Int] = []
    public var nthWeekdays: [NthWeekday] = []
    /// Yearly by month name (`every January and July`).
    public var months: [Int] = []
    /// `when done`: the next date counts from the day it was completed, not from its dates.
    public var whenDone = false

    /// The rule `text` says (any case); nil for a rule todosync cannot follow.
    public init?(_ text: String) {
        var words = text.lowercased().split { $0 == " " || $0 == "," || $0 == "\t" }.map(String.init)
        if words.suffix(2) == ["when", "done"] {
            whenDone = true
            words.removeLast(2)
        }
        guard words.first == "every", words.count >= 2 else { return nil }
        var rest = words.dropFirst()
        interval = 1
        if let first = rest.first, let number = Int(first) {
            guard number >= 1, number <= 1000 else { return nil }
            interval = number
            rest = rest.dropFirst()
        }
        guard let unit = rest.first else { return nil }
        rest = rest.dropFirst()
        switch unit {
        case "day", "days":
            frequency = .daily
        case "weekday" where interval == 1:
            frequency = .weekly
            weekdays = [0, 1, 2, 3, 4]
        case "week", "weeks":
            frequency = .weekly
            if rest.first == "on" {
                guard let days = Self.weekdayList(rest.dropFirst()), !days.isEmpty else { return nil }
                weekdays = days
                rest = []
            }
        case "month", "months":
            frequency = .monthly
            if rest.first == "on" {
                guard Self.readDaySpecs(rest.dropFirst(), into: &self) else { return nil }
                rest = []
            }
        case "year", "years":
            frequency = .yearly
        default:
            if interval == 1, let days = Self.weekdayList([unit] + rest), !days.isEmpty {
                // `every Monday and Thursday`
                frequency = .weekly
                weekdays = days
                rest = []
            } else if interval == 1, let (months, after) = Self.monthList([unit] + rest) {
                // `every January and July on the 1st`
                frequency = .yearly
                self.months = months
                rest = after
                if rest.first == "on" {
                    guard Self.readDaySpecs(rest.dropFirst(), into: &self) else { return nil }
                    rest = []
                }
            } else {
                return nil
            }
        }
        guard rest.isEmpty else { return nil }
    }

    /// The first date after `reference` that the rule gives, counting from `reference`
    /// (rrule's DTSTART); nil when no date within 400 years fits (`every 12 months on the 30th`
    /// from February).
    public func next(after reference: CalendarDate) -> CalendarDate? {
        switch frequency {
        case .daily:
            return reference.adding(days: interval)
        case .weekly:
            guard !weekdays.isEmpty else { return reference.adding(days: 7 * interval) }
            let weekStart = reference.adding(days: -reference.weekday)
            for week in stride(from: 0, through: interval, by: interval) {
                for day in weekdays.sorted() {
                    let candidate = weekStart.adding(days: 7 * week + day)
                    if candidate > reference { return candidate }
                }
            }
            return nil
        case .monthly where monthDays.isEmpty && nthWeekdays.isEmpty:
            let (year, month) = Self.month(reference.year * 12 + reference.month - 1 + interval)
            return CalendarDate(
                year: year, month: month, day: min(reference.day, CalendarDate.daysIn(month: month, year: year)))
        case .monthly:
            let first = reference.year * 12 + reference.month - 1
            for index in stride(from: first, through: first + 400 * 12, by: interval) {
                let (year, month) = Self.month(index)
                if let date = dates(inYear: year, month: month).first(where: { $0 > reference }) { return date }
            }
            return nil
        case .yearly where months.isEmpty:
            let year = reference.year + interval
            return CalendarDate(
                year: year, month: reference.month,
                day: min(reference.day, CalendarDate.daysIn(month: reference.month, year: year)))
        case .yearly:
            for year in reference.year...(reference.year + 400) {
                for month in months.sorted() {
                    let days =
                        monthDays.isEmpty && nthWeekdays.isEmpty
                        ? CalendarDate(year: year, month: month, day: reference.day).map { [$0] } ?? []
                        : dates(inYear: year, month: month)
                    if let date = days.first(where: { $0 > reference }) { return date }
                }
            }
            return nil
        }
    }

    /// The dates of a month that the rule's "on the …" names, in order.
    private func dates(inYear year: Int, month: Int) -> [CalendarDate] {
        let length = CalendarDate.daysIn(month: month, year: year)
        var days: [Int] = monthDays.compactMap { day in
            let resolved = day < 0 ? length + 1 + day : day
            return (1...length).contains(resolved) ? resolved : nil
        }
        // NB: the first day of a month that exists is a date.
        let firstWeekday = CalendarDate(year: year, month: month, day: 1)!.weekday
        for nth in nthWeekdays {
            let firstDay = 1 + (nth.weekday - firstWeekday + 7) % 7
            let count = (length - firstDay) / 7 + 1
            let index = nth.n > 0 ? nth.n - 1 : count + nth.n
            if (0..<count).contains(index) { days.append(firstDay + 7 * index) }
        }
        // NB: each day was kept only within the month's length.
        return Set(days).sorted().map { CalendarDate(year: year, month: month, day: $0)! }
    }

    private static func month(_ index: Int) -> (year: Int, month: Int) {
        (index / 12, index % 12 + 1)
    }

    // MARK: - Words

    private static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december",
    ]

    /// A weekday's number from its name, its plural or its first three letters.
    private static func weekday(_ word: String) -> Int? {
        weekdayNames.firstIndex { $0 == word || $0 + "s" == word || (word.count == 3 && $0.hasPrefix(word)) }
    }

    private static func monthNumber(_ word: String) -> Int? {
        monthNames.firstIndex { $0 == word || (word.count == 3 && $0.hasPrefix(word)) }.map { $0 + 1 }
    }

    /// `Monday, Wednesday and Friday`: every word a weekday or `and`.
    private static func weekdayList(_ words: some Collection<String>) -> [Int]? {
        var days: [Int] = []
        for word in words where word != "and" {
            guard let day = weekday(word) else { return nil }
            if !days.contains(day) { days.append(day) }
        }
        return days
    }

    /// `January and July`, then the words after the months.
    private static func monthList(_ words: [String]) -> ([Int], ArraySlice<String>)? {
        var months: [Int] = []
        var index = 0
        while index < words.count,
            let month = monthNumber(words[index]) ?? (words[index] == "and" && !months.isEmpty ? 0 : nil)
        {
            if month > 0, !months.contains(month) { months.append(month) }
            index += 1
        }
        return months.isEmpty ? nil : (months, words[index...])
    }

    /// `the 1st and 15th`, `the last`, `the 2nd last Friday`, `the first Monday`.
    private static func readDaySpecs(_ words: ArraySlice<String>, into rule: inout RecurrenceRule) -> Bool {
        var rest = words
        guard rest.first == "the" else { return false }
        rest = rest.dropFirst()
        var found = false
        while let word = rest.first {
            rest = rest.dropFirst()
            if word == "and" || word == "the" { continue }
            guard var n = ordinal(word) else { return false }
            // `2nd last`
            if n > 0, rest.first == "last" {
                n = -n
                rest = rest.dropFirst()
            }
            if let next = rest.first, let day = weekday(next) {
                guard (1...5).contains(abs(n)) else { return false }
                rule.nthWeekdays.append(NthWeekday(n: n, weekday: day))
                rest = rest.dropFirst()
            } else {
                guard n == -1 || (1...31).contains(n) else { return false }
                rule.monthDays.append(n)
            }
            found = true
        }
        return found
    }

    /// `1st` … `31st`, `first` … `fifth`; `last` is -1.
    private static func ordinal(_ word: String) -> Int? {
        if word == "last" { return -1 }
        if let index = ["first", "second", "third", "fourth", "fifth"].firstIndex(of: word) { return index + 1 }
        let digits = word.prefix { $0.isNumber }
        let suffix = word.dropFirst(digits.count)
        guard !digits.isEmpty, ["st", "nd", "rd", "th", ""].contains(suffix) else { return nil }
        return Int(digits)
    }
}
