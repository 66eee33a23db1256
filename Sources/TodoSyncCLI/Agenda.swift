import ArgumentParser
import TodoModel
import TodoSyncKit

struct AgendaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agenda",
        abstract: "What is due across every list: overdue, today and the next days.",
        discussion: """
            Each open item shows once, on the day that brings it: its due date (📅) where that falls in the window, before today as overdue; otherwise its scheduled (⏳) or start (🛫) date, the earlier, where that falls in the window (a date that has come shows today). Within a day the highest priority comes first. Recurring items show their rule. Done items are left out unless --done is given.

            "Today" is the local date, or the day of GIT_AUTHOR_DATE where that is set (as the date forms of other options count). Shows the lists as they are now, edits not yet committed included.

            Examples:
              todosync agenda
              todosync agenda --days 14 --priority high
              todosync agenda --file work.md
              todosync agenda --json | jq '.days[] | select(.name == "today") | .items[].title'
            """)

    @OptionGroup var repository: RepositoryOption
    @Argument(help: "Only items whose title holds this text (any case).") var text: String?
    @Option(help: ArgumentHelp("How many days from today to show, today included.", valueName: "n")) var days = 7
    @Option(help: ArgumentHelp("Only the items of this list file.", valueName: "path")) var file: String?
    @Option(
        help: ArgumentHelp(
            "Only items of this priority or higher: highest, high, medium, low, lowest.", valueName: "level"))
    var priority: String?
    @Flag(help: "Show done items too, on the day that brought them.") var done = false
    @Flag(help: "Print a JSON object for scripts (schema: docs/CLI.md).") var json = false

    func validate() throws {
        guard days >= 1, days <= 366 else {
            throw ValidationError("--days takes a number of days from 1 to 366, not \(days)")
        }
        if let priority, Priority(name: priority) == nil || Priority(name: priority) == Priority.none {
            throw ValidationError("unknown priority \"\(priority)\": use highest, high, medium, low or lowest")
        }
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        let today = try runReportingErrors(on: workspace) { try workspace.today() }
        var filter = ItemFilter()
        filter.text = text
        filter.minimumPriority = priority.flatMap { Priority(name: $0) }
        if let file { filter.file = try runReportingErrors(on: workspace) { try workspace.namedList(file) } }
        var items: [TodoItem] = []
        var withoutID = Set<ItemID>()
        try runReportingErrors(on: workspace) {
            _ = try workspace.forEachItem(done: done ? nil : false) { item, hasID in
                guard filter.admits(item), item.due != nil || item.scheduled != nil || item.start != nil else { return }
                items.append(item)
                if !hasID { withoutID.insert(item.id) }
            }
        }
        let agenda = Agenda(items, today: today, days: days, done: done)
        if json {
            Console.out(Self.json(agenda, withoutID: withoutID))
            return
        }
        Self.print(agenda, withoutID: withoutID)
    }

    static func print(_ agenda: Agenda, withoutID: Set<ItemID>) {
        guard !agenda.days.isEmpty else {
            let last = agenda.today.adding(days: agenda.window - 1)
            return Console.out("Nothing due, scheduled or starting from \(agenda.today) to \(last).")
        }
        var text = TextWriter()
        for (index, day) in agenda.days.enumerated() {
            if index > 0 { text.line("") }
            let heading = Self.heading(day, today: agenda.today)
            text.line(Console.paint(heading, day.date == nil ? .red : .bold))
            for entry in day.entries {
                text.line(Self.line(entry, today: agenda.today, hasID: !withoutID.contains(entry.item.id)))
            }
        }
        text.finish()
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// `Overdue`, `Today, Wed 2026-11-25`, `Tomorrow, Thu 2026-11-26`, `Fri 2026-11-27`.
    static func heading(_ day: Agenda.Day, today: CalendarDate) -> String {
        guard let date = day.date else { return "Overdue" }
        let dated = "\(weekdays[date.weekday]) \(date)"
        switch day.name(today: today) {
        case "today": return "Today, " + dated
        case "tomorrow": return "Tomorrow, " + dated
        default: return dated
        }
    }

    /// One entry: mark, priority, title, why it is here, rule, file and line, id.
    static func line(_ entry: Agenda.Entry, today: CalendarDate, hasID: Bool) -> String {
        let item = entry.item
        var details: [String] = []
        switch entry.reason {
        case .overdue: details.append("due \(entry.date), \(Self.ago(entry.date, today: today))")
        case .due: break
        case .scheduled: details.append(entry.date < today ? "scheduled \(entry.date)" : "scheduled")
        case .starts: details.append(entry.date < today ? "started \(entry.date)" : "starts")
        }
        if entry.reason != .due, entry.reason != .overdue, let due = item.due { details.append("due \(due)") }
        if let rule = item.recurrence { details.append("repeats \(rule)") }
        details.append("\(item.file):\(item.line)")
        let id = hasID ? item.id.description.prefix(8).lowercased() : "no id yet"
        let mark = item.isDone ? "[x]" : "[ ]"
        let priority = item.priority.emoji.map { $0 + " " } ?? ""
        let line = "  \(mark) \(priority)\(item.plainTitle)  (\(details.joined(separator: ", ")))  \(id)"
        if item.isDone { return Console.paint(line, .dim) }
        return entry.reason == .overdue ? Console.paint(line, .red) : line
    }

    static func ago(_ date: CalendarDate, today: CalendarDate) -> String {
        let days = today.daysSinceEpoch - date.daysSinceEpoch
        return days == 1 ? "1 day ago" : "\(days) days ago"
    }

    static func json(_ agenda: Agenda, withoutID: Set<ItemID>) -> String {
        let days = agenda.days.map { day in
            let entries = day.entries.map { entry -> String in
                var item = JSON.item(entry.item, hasID: !withoutID.contains(entry.item.id))
                item.removeLast()
                return item + ",\"reason\":" + JSON.string(entry.reason.rawValue) + ",\"date\":"
                    + JSON.string(entry.date.description) + "}"
            }
            return JSON.object([
                ("name", JSON.string(day.name(today: agenda.today))),
                ("date", day.date.map { JSON.string($0.description) } ?? "null"),
                ("items", "[" + entries.joined(separator: ",") + "]"),
            ])
        }
        return JSON.object([
            ("today", JSON.string(agenda.today.description)), ("window", String(agenda.window)),
            ("days", "[" + days.joined(separator: ",\n") + "]"),
        ])
    }
}
