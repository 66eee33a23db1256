import FuzzDriver
import TodoModel

/// Any text as a recurrence rule and as a date expression: never a crash or a hang; a rule
/// that reads gives a next date after its reference, and again after that.
@main enum Target {
    static func main() {
        FuzzDriver.run { bytes in
            let text = String(decoding: bytes.prefix(200), as: UTF8.self)
            let today = CalendarDate(daysSinceEpoch: 20_000 + Int(bytes.first ?? 0) * 37)
            _ = CalendarDate(expression: text, today: today)
            _ = CalendarDate(text)
            guard let rule = RecurrenceRule(text) else { return }
            var date = today
            for _ in 0..<3 {
                guard let next = rule.next(after: date) else { return }
                precondition(next > date, "the next date is not after the last")
                date = next
            }
        }
    }
}
