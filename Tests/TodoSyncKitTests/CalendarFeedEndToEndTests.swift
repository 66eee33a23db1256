import Foundation
import Testing
import TestSupport
import TodoModel

/// `todosync ics` read back by an independent parser (Python's icalendar from PyPI, in the
/// virtual environment scripts/ensure-test-tools.sh makes), property by property against the
/// items; the recurrence table against python-dateutil's expansion of each RRULE.
@Suite struct CalendarFeedEndToEndTests {
    static let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent(".build/test-tools/venv/bin/python").path

    /// Every component of a feed as icalendar reads it: its kind and properties as text.
    static let reader = """
        import icalendar, json, sys
        calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
        out = []
        for component in calendar.walk():
            if component.name not in ('VTODO', 'VEVENT'):
                continue
            entry = {'kind': component.name}
            for key in ('UID', 'SUMMARY', 'STATUS', 'DESCRIPTION', 'PRIORITY'):
                if key in component:
                    entry[key] = str(component[key])
            for key in ('DUE', 'DTSTART', 'DTEND', 'COMPLETED', 'DTSTAMP'):
                if key in component:
                    entry[key] = component.decoded(key).isoformat()
            if 'RRULE' in component:
                entry['RRULE'] = component['RRULE'].to_ical().decode()
            out.append(entry)
        print(json.dumps(out))
        """

    func read(_ feed: String, in directory: String) throws -> [[String: String]] {
        let result = try run(Self.python, ["-c", Self.reader, feed], in: directory)
        guard result.status == 0 else { throw TestFailure("icalendar could not read \(feed): \(result.stderr)") }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]] ?? []
    }

    static let list = withIDs(
        """
        # Home
        - [ ] Pay rent, at last; really ^rent ⏫ 📅 2026-11-20
        - [ ] Water plants ^water 🔁 every week on Monday, Thursday 📅 2026-11-26
        - [ ] Plan the trip ^trip ⏳ 2026-11-22
        - [ ] Tax return ^tax 🛫 2026-11-28 📅 2026-12-31
          Receipts are in the blue folder.
        - [x] Book the venue ^venue 📅 2026-11-25 ✅ 2026-11-23
        - [x] Call the plumber ^plumber 📅 2026-11-21 ❌ 2026-11-21
        - [ ] Rent check ^check 🔁 every month when done 📅 2026-12-01 🔽
        - [ ] Someday ^someday

        """)

    func fixture() throws -> Fixture {
        let fixture = try Fixture(gitFiles: ["TODO.md": Self.list])
        try fixture.todosync()
        return fixture
    }

    @Test func theFeedReadsBackAsTheItemsSay() throws {
        let f = try fixture()
        let output = try f.todosync("ics", "-o", "todo.ics")
        #expect(output.stdout.contains("Wrote 7 tasks to todo.ics"), "\(output.stdout)")
        let components = try read("todo.ics", in: f.path)
        let byTitle = Dictionary(components.map { ($0["SUMMARY"] ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(components.count == 7 && components.allSatisfy { $0["kind"] == "VTODO" }, "\(components)")
        #expect(byTitle["Someday"] == nil)
        let rent = try #require(byTitle["Pay rent, at last; really"])
        #expect(rent["UID"] == shortIDText("rent").lowercased() + "@todosync")
        #expect(
            rent["DUE"] == "2026-11-20" && rent["DTSTART"] == nil && rent["PRIORITY"] == "3"
                && rent["STATUS"] == "NEEDS-ACTION", "\(rent)")
        #expect(rent["DESCRIPTION"] == "TODO.md:2", "\(rent)")
        let water = try #require(byTitle["Water plants"])
        #expect(
            water["RRULE"] == "FREQ=WEEKLY;BYDAY=MO,TH;WKST=MO" && water["DTSTART"] == "2026-11-26"
                && water["DUE"] == "2026-11-26", "\(water)")
        #expect(byTitle["Plan the trip"]?["DTSTART"] == "2026-11-22" && byTitle["Plan the trip"]?["DUE"] == nil)
        let tax = try #require(byTitle["Tax return"])
        #expect(
            tax["DTSTART"] == "2026-11-28" && tax["DUE"] == "2026-12-31"
                && tax["DESCRIPTION"] == "Receipts are in the blue folder.\n\nTODO.md:5", "\(tax)")
        let venue = try #require(byTitle["Book the venue"])
        #expect(venue["STATUS"] == "COMPLETED" && venue["COMPLETED"] == "2026-11-23T12:00:00+00:00", "\(venue)")
        #expect(byTitle["Call the plumber"]?["STATUS"] == "CANCELLED")
        // A rule no RRULE says is told, not guessed.
        let check = try #require(byTitle["Rent check"])
        #expect(
            check["RRULE"] == nil && check["DESCRIPTION"] == "Repeats: every month when done\n\nTODO.md:9"
                && check["PRIORITY"] == "7", "\(check)")
        // DTSTAMP: the time of the commit that last changed the item's line.
        let authored = try f.git("log", "-1", "--format=%aI").trimmingCharacters(in: .whitespacesAndNewlines)
        let stamp = try #require(rent["DTSTAMP"])
        #expect(
            ISO8601DateFormatter().date(from: stamp) == ISO8601DateFormatter().date(from: authored),
            "\(stamp) \(authored)")
        // A note edited with plain git: the item's DTSTAMP is that commit's.
        try f.write(
            "TODO.md",
            try f.read("TODO.md").replacingOccurrences(
                of: "Receipts are in the blue folder.", with: "Receipts are in the red folder."))
        _ = try run(
            "/usr/bin/git", ["commit", "-q", "-am", "Notes"], in: f.path,
            environment: ["GIT_AUTHOR_DATE": "2027-02-03T04:05:06Z"])
        try f.todosync("ics", "-o", "todo.ics")
        let edited = try read("todo.ics", in: f.path)
        #expect(edited.first { $0["SUMMARY"] == "Tax return" }?["DTSTAMP"] == "2027-02-03T04:05:06+00:00", "\(edited)")
        #expect(edited.first { $0["SUMMARY"] == "Pay rent, at last; really" }?["DTSTAMP"] == stamp)
        // CRLF line ends, lines folded at 75 octets.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: f.path + "/todo.ics"))
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.last == 0x0D && $0.count - 1 <= 75 })
    }

    @Test func theFeedIsTheSameBytesWhileNothingChangesAndOnEveryClone() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": Self.list])
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        let first = try alice.todosync("ics").stdout
        #expect(try alice.todosync("ics").stdout == first)
        try alice.todosync("ics", "-o", "todo.ics")
        #expect(try alice.todosync("ics", "-o", "todo.ics").stdout.contains("todo.ics is up to date"))
        // Deleting the derived data changes nothing.
        try FileManager.default.removeItem(atPath: alice.path + "/.git/todosync/cache")
        #expect(try alice.todosync("ics").stdout == first)
        #expect(try bob.todosync("ics").stdout == first)
        // An edit on one clone reaches the other's feed, with the same UIDs and bytes.
        try bob.todosync(as: "Bob", "edit", "tax", "--due", "2027-01-15")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "sync")
        let edited = try alice.todosync("ics").stdout
        #expect(edited != first && edited.contains("DUE;VALUE=DATE:20270115"))
        #expect(try bob.todosync("ics").stdout == edited)
        let uids = { (text: String) in text.split(separator: "\r\n").filter { $0.hasPrefix("UID:") } }
        #expect(uids(edited) == uids(first))
    }

    @Test func eventsAndItemsWithoutIDs() throws {
        let f = try fixture()
        let events = try f.todosync("ics", "--events", "-o", "events.ics")
        #expect(events.stdout.contains("Wrote 4 events"), "\(events.stdout)")
        let components = try read("events.ics", in: f.path)
        #expect(components.allSatisfy { $0["kind"] == "VEVENT" })
        let water = try #require(components.first { $0["SUMMARY"] == "Water plants" })
        #expect(
            water["DTSTART"] == "2026-11-26" && water["DTEND"] == "2026-11-27"
                && water["RRULE"] == "FREQ=WEEKLY;BYDAY=MO,TH;WKST=MO", "\(water)")
        // An item committed with plain git and no id yet: left out, and counted.
        try f.write("TODO.md", try f.read("TODO.md") + "- [ ] Typed in git 📅 2026-12-05\n")
        _ = try f.git("commit", "-q", "-am", "plain")
        let left = try f.todosync("ics")
        #expect(!left.stdout.contains("Typed in git") && left.stderr.contains("1 item has no id yet"), "\(left.stderr)")
        // Refused: a list's name, a folder.
        #expect(try f.todosync("ics", "-o", "TODO.md", expectStatus: 1).stderr.contains("Markdown file"))
        #expect(try f.todosync("ics", "-o", ".", expectStatus: 1).stderr.contains("is a folder"))
        // A file that is not a feed is never written over.
        try f.write("notes.txt", "my own words\n")
        #expect(try f.todosync("ics", "-o", "notes.txt", expectStatus: 1).stderr.contains("is not an iCalendar feed"))
        #expect(try f.read("notes.txt") == "my own words\n")
    }

    /// docs/CALENDAR.md's table: each rule's RRULE gives, from the anchor, the dates todosync's
    /// own rule gives (python-dateutil expands the RRULE, as calendar apps do); the rules no
    /// RRULE says have none.
    @Test func theRecurrenceTableGivesTheSameDates() throws {
        let mapped: [(rule: String, anchor: String)] = [
            ("every day", "2026-11-24"), ("every 3 days", "2026-11-24"), ("every week", "2026-11-24"),
            ("every 2 weeks", "2026-11-24"),
            ("every weekday", "2026-11-27"), ("every week on Monday, Friday", "2026-11-24"),
            ("every 2 weeks on Tuesday", "2026-11-24"),
            ("every month", "2026-01-15"), ("every 3 months", "2026-01-28"), ("every month on the 15th", "2026-11-24"),
            ("every month on the last", "2026-01-31"), ("every month on the 1st and 15th", "2026-11-24"),
            ("every month on the 2nd Wednesday", "2026-11-24"),
            ("every month on the last Friday", "2026-11-24"), ("every year", "2026-03-10"),
            ("every 2 years", "2028-02-28"),
            ("every January and July", "2026-01-05"), ("every Monday and Thursday", "2026-11-24"),
        ]
        var script = "import json\nfrom dateutil.rrule import rrulestr\nfrom datetime import datetime\nout = {}\n"
        for (index, entry) in mapped.enumerated() {
            let rule = try #require(RecurrenceRule(entry.rule), "\(entry.rule)")
            let anchor = try #require(CalendarDate(entry.anchor))
            let rrule = try #require(CalendarFeed.rrule(rule, anchor: anchor), "\(entry.rule) has no RRULE")
            let start = entry.anchor.replacingOccurrences(of: "-", with: "")
            script +=
                "out[\(index)] = [d.strftime('%Y-%m-%d') for d in rrulestr('\(rrule)', dtstart=datetime.strptime('\(start)', '%Y%m%d'))[:13]]\n"
        }
        script += "print(json.dumps(out))\n"
        let result = try run(Self.python, ["-c", script], in: NSTemporaryDirectory())
        #expect(result.status == 0, "\(result.stderr)")
        let expanded = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String]] ?? [:]
        for (index, entry) in mapped.enumerated() {
            let rule = RecurrenceRule(entry.rule)!
            var dates: [String] = []
            var date = CalendarDate(entry.anchor)!
            // An RRULE's first instance is its anchor only where the anchor matches the rule.
            let fromRRULE = expanded[String(index)] ?? []
            if fromRRULE.first == entry.anchor { dates.append(entry.anchor) }
            while dates.count < fromRRULE.count, let next = rule.next(after: date) {
                dates.append(next.description)
                date = next
            }
            #expect(dates == fromRRULE, "\(entry.rule) from \(entry.anchor)")
        }
        for (rule, anchor) in [
            ("every week when done", "2026-11-24"), ("every month", "2026-01-31"), ("every year", "2028-02-29"),
        ] {
            #expect(
                CalendarFeed.rrule(RecurrenceRule(rule)!, anchor: CalendarDate(anchor)!) == nil,
                "\(rule) from \(anchor)")
        }
    }

    /// With `git config todosync.icsFile`, each command that moves the branch writes the feed
    /// again (only when it changed), and `watch` does when a plain `git pull` moved it.
    @Test func theConfiguredFeedIsKeptCurrent() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": Self.list])
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        _ = try alice.git("config", "todosync.icsFile", "feed/todo.ics")
        try FileManager.default.createDirectory(atPath: alice.path + "/feed", withIntermediateDirectories: true)
        let feed = alice.path + "/feed/todo.ics"
        func text() -> String { (try? String(contentsOfFile: feed, encoding: .utf8)) ?? "" }
        try alice.todosync("add", "Renew passport", "--due", "2026-12-20")
        #expect(text().contains("SUMMARY:Renew passport"), "\(text())")
        try alice.todosync("done", "passport")
        #expect(text().contains("STATUS:COMPLETED\r\nCOMPLETED:") || text().contains("STATUS:COMPLETED"), "\(text())")
        try alice.todosync("undo")
        #expect(!text().contains("STATUS:COMPLETED\r\nPRIORITY") && text().contains("SUMMARY:Renew passport"))
        // Written only when it changed: a command that moves the branch without changing the
        // feed leaves the file as it was.
        let before = try FileManager.default.attributesOfItem(atPath: feed)[.modificationDate] as? Date
        try alice.todosync("add", "Undated thing")
        #expect(try FileManager.default.attributesOfItem(atPath: feed)[.modificationDate] as? Date == before)
        // A sync brings another clone's edit in.
        try bob.todosync(as: "Bob", "edit", "tax", "--due", "2027-01-15")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "sync")
        #expect(text().contains("DUE;VALUE=DATE:20270115"), "\(text())")
        // watch: a plain git pull moves the branch under it.
        try bob.todosync(as: "Bob", "edit", "trip", "--scheduled", "2026-12-02")
        try bob.todosync(as: "Bob", "sync")
        let watch = try WatchProcess(in: alice, ["--quiet-period", "1s"])
        _ = try run("/usr/bin/git", ["pull", "-q", "--no-rebase"], in: alice.path)
        try waitUntil("the feed follows the pull", timeout: 20) { text().contains("DTSTART;VALUE=DATE:20261202") }
        try watch.stop()
        // A feed that cannot be written is told; the command's own write stands.
        _ = try alice.git("config", "todosync.icsFile", "feed/missing-folder/todo.ics")
        let told = try alice.todosync("add", "Call Bob", "--due", "2026-12-03")
        #expect(told.stderr.contains("the calendar feed") && told.stderr.contains("was not written"), "\(told.stderr)")
        #expect(try alice.read("TODO.md").contains("Call Bob"))
    }
}
