extension CalendarDate {
    /// A date as a person types it for a field, counted from `today` (the unit's day):
    /// `2026-12-01`; `today`, `tomorrow`, `yesterday`; a weekday (`friday`, `fri`: the next
    /// one after today); `in 3 days`, `in 2 weeks` (or `+3d`, `+2w`, `+3`); and back in time,
    /// `3 days ago`, `2 weeks ago` (or `-3d`, `-2w`), `last friday` (the last one before
    /// today). Any case; extra spaces are ignored. nil for anything else.
    public init?(expression text: String, today: CalendarDate) {
        let words = text.lowercased().split(separator: " ")
        if words.count == 1, let date = CalendarDate(String(words[0])) {
            self = date
            return
        }
        guard let offset = Self.daysFromToday(words, today: today) else { return nil }
        self = today.adding(days: offset)
    }

    /// Whether `text` is a date `init(expression:today:)` reads, whatever the day.
    public static func isExpression(_ text: String) -> Bool {
        CalendarDate(expression: text, today: CalendarDate(daysSinceEpoch: 0)) != nil
    }

    private static func daysFromToday(_ words: [Substring], today: CalendarDate) -> Int? {
        switch words.count {
        case 1:
            let word = words[0]
            switch word {
            case "today": return 0
            case "tomorrow": return 1
            case "yesterday": return -1
            default: break
            }
            if let weekday = weekdayNames.firstIndex(where: { $0 == word || $0.prefix(3) == word }) {
                let ahead = (weekday - today.weekday + 7) % 7
                return ahead == 0 ? 7 : ahead
            }
            guard let sign = word.first, sign == "+" || sign == "-" else { return nil }
            var amount = word.dropFirst()
            var unit = sign == "+" ? 1 : -1
            if amount.last == "d" {
                amount = amount.dropLast()
            } else if amount.last == "w" {
                amount = amount.dropLast(); unit *= 7
            }
            return count(amount).map { $0 * unit }
        case 2 where words[0] == "last":
            // The most recent one before today (a week ago when today is that day).
            guard let weekday = weekdayNames.firstIndex(where: { $0 == words[1] || $0.prefix(3) == words[1] }) else {
                return nil
            }
            let back = (today.weekday - weekday + 7) % 7
            return back == 0 ? -7 : -back
        case 3 where words[0] == "in" || words[2] == "ago":
            guard let amount = count(words[words[0] == "in" ? 1 : 0]) else { return nil }
            let sign = words[0] == "in" ? 1 : -1
            switch words[words[0] == "in" ? 2 : 1] {
            case "day", "days": return sign * amount
            case "week", "weeks": return sign * amount * 7
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Monday first, as `weekday` counts.
    private static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// A count of days or weeks as typed: digits only, and small enough to be a date.
    private static func count(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
