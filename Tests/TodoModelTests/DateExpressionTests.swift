import PropertyBased
import Testing
@testable import TodoModel

/// Dates as typed for a field (`--due tomorrow`), counted from the unit's day.
@Suite struct DateExpressionTests {
    /// Tuesday.
    static let today = CalendarDate("2026-11-24")!

    @Test(arguments: [
        ("2026-12-01", "2026-12-01"), ("today", "2026-11-24"), ("Tomorrow", "2026-11-25"), ("yesterday", "2026-11-23"),
        ("friday", "2026-11-27"), ("FRI", "2026-11-27"), ("monday", "2026-11-30"), ("tuesday", "2026-12-01"),
        ("tue", "2026-12-01"),
        ("in 3 days", "2026-11-27"), ("in 1 day", "2026-11-25"), ("in 2 weeks", "2026-12-08"),
        ("In 0 days", "2026-11-24"),
        ("+3", "2026-11-27"), ("+3d", "2026-11-27"), ("+2w", "2026-12-08"), ("+40d", "2027-01-03"),
        (" today ", "2026-11-24"), ("in  3 days", "2026-11-27"), ("2026-11-24 ", "2026-11-24"),
        ("3 days ago", "2026-11-21"), ("1 week ago", "2026-11-17"), ("-3d", "2026-11-21"), ("-2w", "2026-11-10"),
        ("-1", "2026-11-23"),
        ("last friday", "2026-11-20"), ("last tue", "2026-11-17"), ("Last Monday", "2026-11-23"),
    ])
    func namesTheDate(_ text: String, _ expected: String) {
        #expect(CalendarDate(expression: text, today: Self.today)?.description == expected)
    }

    @Test(arguments: [
        "", "next week", "in three days", "in 3", "in 3 months", "+", "+d", "-", "-d", "+3x", "3 days", "3 ago", "last",
        "last week", "last fr", "+123456d", "fr", "2026-02-30", "friday!", "+٣d", "in 3 days ago",
    ])
    func refusesWhatItCannotRead(_ text: String) {
        #expect(CalendarDate(expression: text, today: Self.today) == nil)
        #expect(!CalendarDate.isExpression(text))
    }

    /// Against naive references: a weekday by stepping a day at a time until it comes round;
    /// counts by adding one day at a time.
    @Test func agreesWithStepByStepCounting() async {
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        await propertyCheck(count: 2000, input: Gen.int(in: -30_000...60_000), Gen.int(in: 0...6), Gen.int(in: 0...400))
        { day, weekday, count in
            let today = CalendarDate(daysSinceEpoch: day)
            var next = today.adding(days: 1)
            while next.weekday != weekday { next = next.adding(days: 1) }
            #expect(CalendarDate(expression: names[weekday], today: today) == next)
            #expect(CalendarDate(expression: String(names[weekday].prefix(3)), today: today) == next)
            var later = today
            for _ in 0..<count { later = later.adding(days: 1) }
            #expect(CalendarDate(expression: "in \(count) days", today: today) == later)
            #expect(CalendarDate(expression: "+\(count)d", today: today) == later)
            var weeks = today
            for _ in 0..<(7 * (count % 60)) { weeks = weeks.adding(days: 1) }
            #expect(CalendarDate(expression: "in \(count % 60) weeks", today: today) == weeks)
            // Back in time: a weekday by stepping back until it comes round, counts a day at a time.
            var last = today.adding(days: -1)
            while last.weekday != weekday { last = last.adding(days: -1) }
            #expect(CalendarDate(expression: "last \(names[weekday])", today: today) == last)
            var earlier = today
            for _ in 0..<count { earlier = earlier.adding(days: -1) }
            #expect(CalendarDate(expression: "\(count) days ago", today: today) == earlier)
            #expect(CalendarDate(expression: "-\(count)d", today: today) == earlier)
        }
    }
}
