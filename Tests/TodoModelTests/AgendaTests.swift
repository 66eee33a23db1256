import PropertyBased
import Testing
@testable import TodoModel

@Suite struct AgendaTests {
    static let today = CalendarDate("2026-11-24")!

    @Test func eachItemOnTheDayThatBringsItByPriority() {
        let items = identified(
            """
            - [ ] Late ⏫ 📅 2026-11-20
            - [ ] Later still 📅 2026-11-01
            - [ ] Today low 🔽 📅 2026-11-24
            - [ ] Today high 🔺 📅 2026-11-24
            - [ ] Planned ⏳ 2026-11-22
            - [ ] Starts friday 🛫 2026-11-27 📅 2027-01-10
            - [ ] Due in the window, started long ago 🛫 2026-10-01 📅 2026-11-26
            - [ ] Beyond 📅 2026-12-01
            - [x] Done today 📅 2026-11-24
            - [x] Done late 📅 2026-11-20
            - [ ] No dates

            """
        ).items
        let agenda = Agenda(items, today: Self.today, days: 7)
        let shown = agenda.days.map { day in
            "\(day.name(today: Self.today)): "
                + day.entries.map { "\($0.item.plainTitle) (\($0.reason.rawValue))" }.joined(separator: ", ")
        }
        #expect(
            shown == [
                "overdue: Late (overdue), Later still (overdue)",
                "today: Today high (due), Planned (scheduled), Today low (due)",
                "2026-11-26: Due in the window, started long ago (due)",
                "2026-11-27: Starts friday (starts)",
            ])
        // Done items on the day that brought them, only where asked; a done item is never late.
        let withDone = Agenda(items, today: Self.today, days: 1, done: true)
        #expect(
            withDone.days.map { $0.entries.map(\.item.plainTitle) } == [
                ["Late", "Later still"],
                ["Today high", "Due in the window, started long ago", "Planned", "Done today", "Today low"],
            ])
    }

    /// Against a naive reference, day by day: every item shows at most once; it shows exactly
    /// where the first date of the reference's order (due, else the earlier of scheduled and
    /// start) brings it; days are in order, overdue first; within a day priority never rises.
    @Test func randomItemsAgainstADayByDayReference() async {
        // Each number spells an item: which dates it has, each of 25 days around today, its
        // box and its priority.
        await propertyCheck(
            count: 300, input: Gen.int(in: 0...(4 * 25 * 25 * 25 * 4 * 6 - 1)).array(of: 0...12), Gen.int(in: 1...10)
        ) { specs, window in
            var text = ""
            for (index, spec) in specs.enumerated() {
                var rest = spec
                func take(_ count: Int) -> Int {
                    defer { rest /= count }
                    return rest % count
                }
                let has = take(4), due = Self.today.adding(days: take(25) - 12),
                    scheduled = Self.today.adding(days: take(25) - 12)
                let start = Self.today.adding(days: take(25) - 12), done = take(4), priority = take(6) - 2
                var line = "- [\(done == 0 ? "x" : " ")] Item \(index)"
                if let mark = Priority(rawValue: priority)?.emoji { line += " " + mark }
                if has & 1 != 0 { line += " ⏳ \(scheduled)" }
                if has & 2 != 0 { line += " 🛫 \(start)" }
                if index % 2 == 0 { line += " 📅 \(due)" }
                text += line + "\n"
            }
            let items = identified(text).items
            let agenda = Agenda(items, today: Self.today, days: window)
            let last = Self.today.adding(days: window - 1)
            var placed: [String: CalendarDate?] = [:]
            for day in agenda.days {
                for entry in day.entries {
                    #expect(placed[entry.item.plainTitle] == nil, "\(entry.item.plainTitle) twice")
                    placed[entry.item.plainTitle] = day.date
                }
                #expect(zip(day.entries, day.entries.dropFirst()).allSatisfy { $0.item.priority >= $1.item.priority })
            }
            #expect(agenda.days.dropFirst().allSatisfy { $0.date != nil })
            #expect(
                zip(agenda.days.compactMap(\.date), agenda.days.compactMap(\.date).dropFirst()).allSatisfy { $0 < $1 })
            for item in items {
                // The reference: walk the days.
                var expected: CalendarDate?? = .none
                if !item.isDone {
                    if let due = item.due, due < Self.today {
                        expected = .some(nil)
                    } else if let due = item.due, due <= last {
                        expected = .some(due)
                    } else {
                        for offset in 0..<window {
                            let day = Self.today.adding(days: offset)
                            let planned = [item.scheduled, item.start].compactMap { $0 }
                            if planned.contains(where: { offset == 0 ? $0 <= day : $0 == day }) {
                                expected = .some(day)
                                break
                            }
                        }
                    }
                }
                #expect(placed[item.plainTitle] == expected, "\(item.title)")
            }
        }
    }
}
