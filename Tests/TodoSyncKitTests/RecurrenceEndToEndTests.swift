import Foundation
import Testing
import TestSupport

/// Obsidian Tasks' fields and recurring items through real repositories: `done`, a check typed
/// in an editor, undo, and two clones completing the same occurrence.
@Suite struct RecurrenceEndToEndTests {
    /// The day the units are dated (GIT_AUTHOR_DATE), so "today" is fixed.
    static let day = ["GIT_AUTHOR_DATE": "2026-11-24T09:00:00+01:00"]
    /// Its fields in an order of their own, spaced as typed, and a block reference (`^rent`
    /// stands for an id comment in the shorthand, so that line is written out).
    static let list =
        withIDs("# Chores\n- [ ] Water plants ^water 🔁 every 3 days 📅 2026-11-24\n")
        + "- [ ]   Pay rent <!-- id: \(shortIDText("rent")) --> 📅 2026-12-01   ⏫ 🛫 2026-11-25 ^blockref\n"
        + withIDs("- [x] Call Bob ^bob ✅ 2026-11-20\n")

    func fixture() throws -> Fixture {
        let fixture = try Fixture(gitFiles: ["TODO.md": Self.list])
        try fixture.todosync()
        return fixture
    }

    func todosync(_ fixture: Fixture, _ arguments: String...) throws -> ProcessResult {
        let result = try run(todosyncBinary, arguments, in: fixture.path, environment: Self.day)
        guard result.status == 0 else {
            throw TestFailure("todosync \(arguments) exited \(result.status): \(result.stderr)")
        }
        return result
    }

    /// The lines of TODO.md, with the id todosync derived for the next occurrence as `^next`.
    func lines(_ fixture: Fixture) throws -> [String] {
        let text = withShortIDs(try fixture.read("TODO.md"))
        return text.split(separator: "\n").map { line in
            String(line).replacingOccurrences(
                of: #"<!-- id: [0-9A-F-]{36} -->"#, with: "^next", options: .regularExpression)
        }
    }

    @Test func doneAddsTheNextOccurrenceAndTheDoneDateAndUndoTakesBothBack() throws {
        let f = try fixture()
        let before = try f.read("TODO.md")
        let done = try todosync(f, "done", "water")
        #expect(done.stdout.contains("Check \"Water plants\" and add the next \"Water plants\" (due 2026-11-27)"))
        #expect(
            try lines(f) == [
                "# Chores",
                "- [ ] Water plants ^next 🔁 every 3 days 📅 2026-11-27",
                "- [x] Water plants ^water 🔁 every 3 days 📅 2026-11-24 ✅ 2026-11-24",
                "- [ ]   Pay rent ^rent 📅 2026-12-01   ⏫ 🛫 2026-11-25 ^blockref",
                "- [x] Call Bob ^bob ✅ 2026-11-20",
            ])
        // Fields as fields in list --json; the line todosync did not change kept its bytes.
        let json = try todosync(f, "list", "--json").stdout
        #expect(json.contains(#""title":"Pay rent""#) && json.contains(#""start":"2026-11-25""#))
        #expect(
            try f.read("TODO.md").contains(
                "- [ ]   Pay rent <!-- id: \(shortIDText("rent")) --> 📅 2026-12-01   ⏫ 🛫 2026-11-25 ^blockref\n"))
        #expect(try f.git("show", "--stat", "--format=%s", "HEAD").contains("TODO.md | 3 ++-"))

        let undo = try todosync(f, "undo")
        #expect(undo.stdout.contains("Undo: Check \"Water plants\""))
        #expect(try f.read("TODO.md") == before)
        try f.expectCleanAndSound()
    }

    /// A chore checked week after week: `done` names the open occurrence, not the ones checked
    /// before; `reopen` names a checked one.
    @Test func aChoreIsCheckedOffWeekAfterWeekByItsName() throws {
        let f = try fixture()
        for week in 0..<3 {
            let result = try todosync(f, "done", "water")
            #expect(result.stdout.contains("Check \"Water plants\""), "week \(week)")
        }
        let lines = try lines(f).filter { $0.contains("Water plants") }
        #expect(lines.count == 4)
        #expect(lines.filter { $0.hasPrefix("- [ ]") }.count == 1)
        let reopen = try run(todosyncBinary, ["reopen", "water"], in: f.path, environment: Self.day)
        // Three checked: which one to reopen is the user's to say, by id.
        #expect(reopen.status == 1 && reopen.stderr.contains("\"water\" matches 3 items"))
        try f.expectCleanAndSound()
    }

    @Test func aCheckTypedInAnEditorGetsItsNextOccurrenceInTheSameCommit() throws {
        let f = try fixture()
        let text = try f.read("TODO.md")
        try f.save(
            "TODO.md", text.replacingOccurrences(of: "- [ ] Water plants", with: "- [x] Water plants"), like: .vim)
        _ = try todosync(f)
        #expect(
            try lines(f)[1...2] == [
                "- [ ] Water plants ^next 🔁 every 3 days 📅 2026-11-27",
                "- [x] Water plants ^water 🔁 every 3 days 📅 2026-11-24",
            ])
        #expect(
            try f.git("log", "-1", "--format=%s")
                == "Check \"Water plants\" and add the next \"Water plants\" (due 2026-11-27)\n")
        #expect(f.commitCount == 2)
        try f.expectCleanAndSound()
        // Checking off the next one goes on from its date.
        try f.save(
            "TODO.md", try f.read("TODO.md").replacingOccurrences(of: "- [ ] Water plants", with: "- [x] Water plants"),
            like: .nano)
        _ = try todosync(f)
        #expect(
            try lines(f)[1...3] == [
                "- [ ] Water plants ^next 🔁 every 3 days 📅 2026-11-30",
                "- [x] Water plants ^next 🔁 every 3 days 📅 2026-11-27",
                "- [x] Water plants ^water 🔁 every 3 days 📅 2026-11-24",
            ])
    }

    @Test func twoClonesCompletingTheSameOccurrenceEndWithOneNextOccurrence() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": Self.list])
        try alice.sync()
        try bob.sync()
        _ = try todosync(alice, "done", "water")
        // Bob checks it off in his editor.
        let text = try bob.read("TODO.md")
        try bob.save(
            "TODO.md", text.replacingOccurrences(of: "- [ ] Water plants", with: "- [x] Water plants"), like: .nano)
        _ = try todosync(bob)
        _ = try todosync(alice, "sync")
        _ = try todosync(bob, "sync")
        _ = try todosync(alice, "sync")
        #expect(alice.head == bob.head)
        let waters = try lines(bob).filter { $0.contains("Water plants") }
        #expect(
            waters == [
                "- [ ] Water plants ^next 🔁 every 3 days 📅 2026-11-27",
                "- [x] Water plants ^water 🔁 every 3 days 📅 2026-11-24 ✅ 2026-11-24",
            ])
        try alice.expectCleanAndSound()
        try bob.expectCleanAndSound()
    }

    @Test func aRuleTodosyncCannotFollowIsReportedAndNothingIsAdded() throws {
        let f = try Fixture(gitFiles: ["TODO.md": withIDs("- [ ] Taxes ^tax 🔁 every fortnight 📅 2026-11-27\n")])
        try f.todosync()
        let done = try todosync(f, "done", "taxes")
        #expect(
            done.stderr.contains(
                "TODO.md:1: 🔁 \"every fortnight\" is not a rule todosync can follow, so no next occurrence was added"))
        #expect(try lines(f) == ["- [x] Taxes ^tax 🔁 every fortnight 📅 2026-11-27"])
    }

    @Test func editSetsFieldsAndRefusesARuleItCannotFollow() throws {
        let f = try fixture()
        _ = try todosync(f, "edit", "Call Bob", "--recurrence", "every month on the 1st", "--scheduled", "2026-12-01")
        #expect(try lines(f)[3] == "- [x] Call Bob ^bob 🔁 every month on the 1st ⏳ 2026-12-01 ✅ 2026-11-20")
        #expect(
            try f.git("log", "-1", "--format=%B").contains("- Set recurrence of \"Call Bob\" to every month on the 1st")
        )
        let refused = try run(todosyncBinary, ["edit", "Call Bob", "--recurrence", "every fortnight"], in: f.path)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("\"every fortnight\" is not a rule todosync can follow"))
    }

    /// Dates typed as words are counted from the unit's day (Tuesday 2026-11-24 here) and
    /// written as dates; one todosync cannot read is refused before anything is touched.
    @Test func datesTypedAsWordsAreCountedFromTheUnitsDay() throws {
        let f = try fixture()
        _ = try todosync(f, "add", "Call the plumber", "--due", "fri", "--start", "tomorrow")
        #expect(try lines(f).last == "- [ ] Call the plumber ^next 🛫 2026-11-25 📅 2026-11-27")
        _ = try todosync(f, "edit", "plumber", "--scheduled", "in 2 weeks", "--due", "+1w")
        #expect(try lines(f).last == "- [ ] Call the plumber ^next 🛫 2026-11-25 ⏳ 2026-12-08 📅 2026-12-01")
        let soon = try todosync(f, "list", "--due-before", "tomorrow", "--open")
        #expect(
            soon.stdout.contains("Water plants") && !soon.stdout.contains("plumber")
                && !soon.stdout.contains("Pay rent"), "\(soon.stdout)")

        let before = try f.read("TODO.md")
        let refused = try run(
            todosyncBinary, ["edit", "plumber", "--due", "someday"], in: f.path, environment: Self.day)
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains("\"someday\" is not a due date: write YYYY-MM-DD, today, tomorrow"),
            "\(refused.stderr)")
        #expect(try f.read("TODO.md") == before)
    }
}
