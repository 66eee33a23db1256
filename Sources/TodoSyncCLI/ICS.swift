import ArgumentParser
import TodoModel
import TodoSyncKit

struct ICS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ics",
        abstract: "Write an iCalendar feed of the dated items, for calendar apps to subscribe to.",
        discussion: """
            A VTODO for each item with a due (📅), start (🛫) or scheduled (⏳) date (--all: every open item too). Its UID comes from the item's id, the same on every clone, so a calendar never shows an item twice; SUMMARY is the title without its fields; DUE the due date; DTSTART the start date, else the scheduled date; PRIORITY from the five priorities; STATUS and COMPLETED from the check and its done date (✅); RRULE from the 🔁 rule where one says the same dates (docs/CALENDAR.md has the table; any other rule is told in DESCRIPTION, never guessed); DESCRIPTION the notes and file:line; DTSTAMP the time of the commit that last changed the item's line or its notes (a line not committed yet: its file's modification time). The feed is the lists as they are, as list shows them, and the same bytes while they are.

            --events writes an all-day VEVENT on each open item's due date instead, for calendar apps that show no tasks. Items with no id yet are left out (the next commit gives them one) and counted on standard error.

            To keep a feed current, name it in git's config: git config todosync.icsFile ~/calendar/todo.ics (todosync.icsEvents true for events). Every command that moves the branch then writes it again where it changed, and watch does when a plain git pull moved the branch.

            Examples:
              todosync ics -o ~/calendar/todo.ics
              todosync ics --events -o /var/www/html/todo.ics     for a phone, through a web server
              todosync ics --all --name Home > todo.ics
            """)

    @OptionGroup var repository: RepositoryOption
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the feed to this file (replaced whole, only when it changed); else to standard output.",
            valueName: "file"))
    var output: String?
    @Flag(help: "All-day events on due dates instead of tasks (VEVENT, not VTODO).") var events = false
    @Flag(help: "Every open item, dated or not.") var all = false
    @Option(help: ArgumentHelp("The calendar's name, as apps show it (X-WR-CALNAME).", valueName: "name")) var name =
        "todosync"

    func validate() throws {
        if events && all { throw ValidationError("--events and --all exclude each other: events need a due date") }
    }

    func run() throws {
        let workspace = try repository.openWorkspace()
        let feed = try runReportingErrors(on: workspace) {
            try workspace.calendarFeed(kind: events ? .events : .todos, all: all, name: name)
        }
        if feed.withoutID > 0 {
            Console.warn(
                "\(feed.withoutID) item\(feed.withoutID == 1 ? " has" : "s have") no id yet and \(feed.withoutID == 1 ? "is" : "are") left out: run todosync to commit them"
            )
        }
        guard let output else { return Console.out(bytes: feed.bytes) }
        let written = try runReportingErrors(on: workspace) { try workspace.writeFeed(feed.bytes, to: output) }
        if written {
            Console.out("Wrote \(feed.count) \(events ? "event" : "task")\(feed.count == 1 ? "" : "s") to \(output).")
        } else {
            Console.out(
                "\(output) is up to date (\(feed.count) \(events ? "event" : "task")\(feed.count == 1 ? "" : "s")).")
        }
    }
}
