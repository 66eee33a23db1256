import ArgumentParser
import TodoModel

/// `--priority`, `--due`, `--start`, `--scheduled`, `--recurrence`: Obsidian Tasks fields,
/// written into the title in Obsidian Tasks' order. `none` clears one (for `edit`).
struct FieldOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("highest, high, medium, low, lowest, or none (written as 🔺 ⏫ 🔼 🔽 ⏬).", valueName: "level"))
    var priority: String?
    @Option(
        help: ArgumentHelp(
            "Due date (📅): YYYY-MM-DD, today, tomorrow, a weekday (fri), in 3 days, +2w; or none.", valueName: "date"))
    var due: String?
    @Option(help: ArgumentHelp("Start date (🛫), as --due.", valueName: "date")) var start: String?
    @Option(help: ArgumentHelp("Scheduled date (⏳), as --due.", valueName: "date")) var scheduled: String?
    @Option(
        help: ArgumentHelp(
            "How it repeats (🔁), such as \"every week\" or \"every month on the 1st when done\"; or none.",
            valueName: "rule"))
    var recurrence: String?

    var isEmpty: Bool { [priority, due, start, scheduled, recurrence].allSatisfy { $0 == nil } }

    /// The fields given, each checked: a value (a date as typed), or `.clear` for none.
    func edits() throws -> [TaskFieldKind: ItemRequest.FieldEdit] {
        var result: [TaskFieldKind: ItemRequest.FieldEdit] = [:]
        if let priority { result[.priority] = try Self.priority(priority) }
        for (kind, text) in [(TaskFieldKind.due, due), (.start, start), (.scheduled, scheduled)] {
            if let text { result[kind] = try Self.date(text, kind) }
        }
        if let recurrence { result[.recurrence] = try Self.rule(recurrence) }
        return result
    }

    /// The fields given, for a new item (none leaves a field out).
    func values() throws -> [TaskFieldKind: String] {
        try edits().compactMapValues { if case .set(let value) = $0 { value } else { nil } }
    }

    private static func priority(_ text: String) throws -> ItemRequest.FieldEdit {
        guard let priority = Priority(name: text) else {
            throw ValidationError("unknown priority \"\(text)\": use highest, high, medium, low, lowest or none")
        }
        return priority == .none ? .clear : .set(priority.description)
    }

    private static func date(_ text: String, _ kind: TaskFieldKind) throws -> ItemRequest.FieldEdit {
        if text.lowercased() == "none" { return .clear }
        guard CalendarDate.isExpression(text) else {
            throw ValidationError("\"\(text)\" is not a \(kind.name): write \(dateForms); or none")
        }
        // NB: the date it names is worked out with the unit's day (its author date).
        return .set(text)
    }

    /// The ways a date option can be written (`CalendarDate(expression:today:)`), for errors.
    static let dateForms =
        "YYYY-MM-DD, today, tomorrow, yesterday, a weekday (friday or fri), in N days, in N weeks, +Nd or +Nw"

    private static func rule(_ text: String) throws -> ItemRequest.FieldEdit {
        if text.lowercased() == "none" { return .clear }
        guard RecurrenceRule(text) != nil else {
            throw ValidationError(
                "\"\(text)\" is not a rule todosync can follow: write \"every [N] days|weeks|months|years\", \"every weekday\", "
                    + "\"every Monday and Thursday\", \"every month on the 1st|last|2nd Tuesday\", \"every January on the 15th\", "
                    + "with \"when done\" at the end to count from the day it is done")
        }
        return .set(text)
    }
}
