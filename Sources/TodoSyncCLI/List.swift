import ArgumentParser
import TodoModel
import TodoSyncKit

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the items: state, nesting, fields and id; filter and sort them.",
        discussion: """
            Shows the list files as they are now, edits not yet committed included. The first 8 digits of each id are enough to name the item in other commands; an item added since the last commit shows "no id yet" until todosync commits it. Filters combine: an item shows when it passes every one given.

            Examples:
              todosync list
              todosync list milk                       items whose title holds "milk"
              todosync list --open --sort priority
              todosync list --overdue --file work.md
              todosync list --priority high --due-before 2026-12-01
              todosync list --open --due-before "in 1 week"   open items due within a week
              todosync list --json | jq '.[] | select(.done == false) | .title'
            """)

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case file, priority, due, scheduled, start, created, title
    }

    @OptionGroup var repository: RepositoryOption
    @Argument(help: "Only items whose title holds this text (any case).") var text: String?
    @Flag(help: "Only items not checked off.") var open = false
    @Flag(help: "Only items checked off.") var done = false
    @Option(help: ArgumentHelp("Only the items of this list file.", valueName: "path")) var file: String?
    @Option(
        help: ArgumentHelp(
            "Only items of this priority or higher: highest, high, medium, low, lowest.", valueName: "level"))
    var priority: String?
    @Option(
        help: ArgumentHelp(
            "Only items due before this date (YYYY-MM-DD, today, tomorrow, fri, in 3 days, +2w).", valueName: "date"))
    var dueBefore: String?
    @Option(help: ArgumentHelp("Only items due after this date (as --due-before).", valueName: "date")) var dueAfter:
        String?
    @Flag(help: "Only open items whose due date has passed.") var overdue = false
    @Flag(help: "Only recurring items (🔁).") var recurring = false
    @Option(help: "file (as written, nested), or priority, due, scheduled, start, created, title (a flat list).")
    var sort: Sort = .file
    @Flag(help: "Print a JSON array, one object per item, for scripts (schema: docs/CLI.md).") var json = false

    func validate() throws {
        if open && done { throw ValidationError("--open and --done exclude each other") }
        // NB: checked with any day: which date `tomorrow` names is known once the lists are open.
        _ = try filter(today: CalendarDate(daysSinceEpoch: 0))
    }

    /// The filters given, checked; dates such as `tomorrow` counted from `today`.
    func filter(today: CalendarDate) throws -> ItemFilter {
        func date(_ text: String?, _ option: String) throws -> CalendarDate? {
            guard let text else { return nil }
            guard let date = CalendarDate(expression: text, today: today) else {
                throw ValidationError("\(option) takes a date (\(FieldOptions.dateForms)), not \"\(text)\"")
            }
            return date
        }
        var filter = ItemFilter()
        filter.text = text
        filter.state = open ? .open : done ? .done : nil
        filter.file = file
        if let priority {
            guard let level = Priority(name: priority), level != .none else {
                throw ValidationError("unknown priority \"\(priority)\": use highest, high, medium, low or lowest")
            }
            filter.minimumPriority = level
        }
        filter.dueBefore = try date(dueBefore, "--due-before")
        filter.dueAfter = try date(dueAfter, "--due-after")
        filter.overdue = overdue
        filter.today = today
        filter.recurring = recurring
        return filter
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        // NB: "today" is the unit's day (git's author date), read only where a filter needs it.
        let needsToday = overdue || dueBefore != nil || dueAfter != nil
        var filter = try filter(
            today: needsToday
                ? try runReportingErrors(on: workspace) { try workspace.today() } : CalendarDate(daysSinceEpoch: 0))
        // A file that is no list is a mistake to say, not an empty answer.
        if let file { filter.file = try runReportingErrors(on: workspace) { try workspace.namedList(file) } }
        // JSON needs only the items it shows; the text view works out depths from all of them.
        let state = json ? filter.state.map { $0 == .done } : nil
        if json, sort == .file {
            // Written as the items come, a whole item at a time (as JSON.array would join
            // them): a vault's or a million-item list's items are never held at once.
            var array = JSONArrayWriter()
            var clashing = Set<ItemID>()
            _ = try runReportingErrors(on: workspace) {
                try workspace.forEachItem(done: state, seeingClashes: { clashing = Self.items(of: $0) }) {
                    item, hasID in
                    if filter.admits(item) { array.append(item, hasID: hasID, clash: clashing.contains(item.id)) }
                }
            }
            array.finish()
            return
        }
        if !json, sort == .file {
            try printTextAsItComes(workspace, filter: filter)
            return
        }
        var all: [TodoItem] = [], withoutID = Set<ItemID>()
        let clashes = try runReportingErrors(on: workspace) {
            try workspace.forEachItem(done: state) { item, hasID in
                all.append(item)
                if !hasID { withoutID.insert(item.id) }
            }
        }
        let clashing = Self.items(of: clashes)
        var items = all.filter(filter.admits)
        switch sort {
        case .file: break
        case .priority: items.sort { ($0.priority, $1.file, $1.line) > ($1.priority, $0.file, $0.line) }
        case .due: items.sort(by: Self.byDate(\.due))
        case .scheduled: items.sort(by: Self.byDate(\.scheduled))
        case .start: items.sort(by: Self.byDate(\.start))
        case .created: items.sort(by: Self.byDate(\.created))
        case .title:
            items.sort {
                ($0.plainTitle.lowercased(), $0.file, $0.line) < ($1.plainTitle.lowercased(), $1.file, $1.line)
            }
        }
        if json {
            // Sorted first, then written a whole item at a time (never held as one text).
            var array = JSONArrayWriter()
            for item in items {
                array.append(item, hasID: !withoutID.contains(item.id), clash: clashing.contains(item.id))
            }
            array.finish()
            return
        }
        printText(items, all: all, withoutID: withoutID, clashing: clashing)
        if !withoutID.isEmpty {
            Console.out(
                "(\(withoutID.count) item\(withoutID.count == 1 ? "" : "s") without an id yet: run todosync to commit them)"
            )
        }
        if let note = Self.clashNote(clashes) { Console.out(note) }
    }

    /// The items that hold a clash not yet settled.
    static func items(of clashes: [Clash]) -> Set<ItemID> {
        Set(clashes.compactMap(\.item))
    }

    /// The line under the text view when clashes wait to be settled.
    static func clashNote(_ clashes: [Clash]) -> String? {
        guard !clashes.isEmpty else { return nil }
        let count = clashes.count == 1 ? "1 clash" : "\(clashes.count) clashes"
        return "(\(count) not settled yet: todosync status lists them; todosync settle <item> --keep N settles one)"
    }

    /// Items with the date first, earliest first; the rest after, in file order.
    static func byDate(_ date: KeyPath<TodoItem, CalendarDate?>) -> (TodoItem, TodoItem) -> Bool {
        { a, b in
            let (x, y) = (a[keyPath: date], b[keyPath: date])
            switch (x, y) {
            case let (x?, y?) where x != y: return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            default: break
            }
            return (a.file, a.line) < (b.file, b.line)
        }
    }

    /// The text view in file order, written as the items come (nested under their file, by
    /// depth): a million items are never all held, nor written a line per system call.
    private func printTextAsItComes(_ workspace: Workspace, filter: ItemFilter) throws {
        var depth: [ItemID: Int] = [:]
        var text = TextWriter()
        var file: String?
        var seen = 0, shown = 0, withoutID = 0
        var clashing = Set<ItemID>()
        let clashes = try runReportingErrors(on: workspace) {
            try workspace.forEachItem(done: nil, seeingClashes: { clashing = Self.items(of: $0) }) { item, hasID in
                seen += 1
                if !hasID { withoutID += 1 }
                // A parent comes before its children: its depth is known.
                let level = item.parent.flatMap { depth[$0] }.map { $0 + 1 } ?? 0
                depth[item.id] = level
                guard filter.admits(item) else { return }
                shown += 1
                if item.file != file {
                    text.line(Console.paint(item.file, .bold))
                    file = item.file
                }
                text.line(
                    line(
                        item, indent: String(repeating: "  ", count: level + 1), hasID: hasID,
                        clash: clashing.contains(item.id)))
            }
        }
        if shown == 0 { text.line(seen == 0 ? "No items yet." : "No items match.") }
        if withoutID > 0 {
            text.line("(\(withoutID) item\(withoutID == 1 ? "" : "s") without an id yet: run todosync to commit them)")
        }
        if let note = Self.clashNote(clashes) { text.line(note) }
        text.finish()
    }

    private func printText(_ items: [TodoItem], all: [TodoItem], withoutID: Set<ItemID>, clashing: Set<ItemID>) {
        guard !items.isEmpty else {
            Console.out(all.isEmpty ? "No items yet." : "No items match.")
            return
        }
        var text = TextWriter()
        for item in items {
            text.line(line(item, indent: "", hasID: !withoutID.contains(item.id), clash: clashing.contains(item.id)))
        }
        text.finish()
    }

    /// One item as the text view shows it.
    private func line(_ item: TodoItem, indent: String, hasID: Bool, clash: Bool) -> String {
        var details: [String] = []
        if item.priority != .none { details.append(item.priority.description) }
        if let due = item.due { details.append("due \(due)") }
        if let scheduled = item.scheduled { details.append("scheduled \(scheduled)") }
        if let start = item.start { details.append("starts \(start)") }
        if let rule = item.recurrence { details.append("repeats \(rule)") }
        if let doneDate = item.doneDate { details.append("done \(doneDate)") }
        if clash { details.append("clash: todosync status") }
        if sort != .file { details.append("\(item.file):\(item.line)") }
        let suffix = details.isEmpty ? "" : "  (" + details.joined(separator: ", ") + ")"
        let id = hasID ? item.id.description.prefix(8).lowercased() : "no id yet"
        let line = "\(indent)\(item.isDone ? "[x]" : "[ ]") \(item.plainTitle)\(suffix)  \(id)"
        return item.isDone ? Console.paint(line, .dim) : line
    }
}
