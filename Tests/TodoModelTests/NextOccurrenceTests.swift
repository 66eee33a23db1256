import TestSupport
import Testing
@testable import TodoModel

/// Obsidian Tasks' fields as item fields, done dates, and next occurrences of recurring items.
@Suite struct ObsidianFieldTests {
    @Test func everyFieldIsReadOutOfTheTitle() throws {
        let document = identified(
            "- [ ] Weekly review 🆔 abc ⛔ x1, y2 ⏫ 🔁 every week 🏁 delete ➕ 2026-11-01 🛫 2026-11-20 ⏳ 2026-11-23 📅 2026-11-27 ❌ 2026-11-28 ✅ 2026-11-29\n"
        )
        let item = try #require(document.items.first)
        #expect(item.plainTitle == "Weekly review")
        #expect(item.taskID == "abc")
        #expect(item.dependsOn == ["x1", "y2"])
        #expect(item.priority == .high)
        #expect(item.recurrence == "every week")
        #expect(item.onCompletion == "delete")
        #expect(item.created == CalendarDate("2026-11-01"))
        #expect(item.start == CalendarDate("2026-11-20"))
        #expect(item.scheduled == CalendarDate("2026-11-23"))
        #expect(item.due == CalendarDate("2026-11-27"))
        #expect(item.cancelledDate == CalendarDate("2026-11-28"))
        #expect(item.doneDate == CalendarDate("2026-11-29"))
    }

    @Test func aFieldAmongTheWordsStaysAWord() throws {
        let item = try #require(identified("- [ ] Book ✅ tickets for 🛫 2026-12-01 trip\n").items.first)
        #expect(item.start == nil && item.doneDate == nil)
        #expect(item.plainTitle == "Book ✅ tickets for 🛫 2026-12-01 trip")
    }

    @Test func settingAFieldPutsItInObsidianTasksOrderAndLeavesTheRestAsWritten() throws {
        let before = lists(["TODO.md": "- [ ] Review   ⏳ 2026-11-23 🔁 every week ^review\n"])
        let after = try Command.setField(shortID("review"), .start, "2026-11-20").apply(to: before)
        // The fields after the id comment keep their order; the new one goes where Obsidian Tasks writes it.
        // The fields before the id comment keep their bytes; the new one goes before the first
        // field Obsidian Tasks writes after it.
        #expect(
            withShortIDs(after.texts["TODO.md"]!) == "- [ ] Review 🛫 2026-11-20   ⏳ 2026-11-23 🔁 every week ^review\n")
        let fresh = try Command.setField(shortID("review"), .start, "2026-11-20").apply(
            to: lists(["TODO.md": "- [ ] Review ^review ⏫ 📅 2026-11-27\n"]))
        #expect(withShortIDs(fresh.texts["TODO.md"]!) == "- [ ] Review ^review ⏫ 🛫 2026-11-20 📅 2026-11-27\n")
        #expect(throws: EditError.self) { try Command.setField(shortID("review"), .start, "soon").apply(to: before) }
    }

    @Test func doneWritesTodaysDoneDateOnlyWhereTheListUsesThem() throws {
        let today = CalendarDate("2026-11-24")!
        let plain = lists(["TODO.md": "- [ ] Milk ^milk\n- [x] Eggs ^eggs\n"])
        let dated = lists(["TODO.md": "- [ ] Milk ^milk\n- [x] Eggs ^eggs ✅ 2026-11-20\n"])
        func done(_ lists: ListSet, _ policy: RequestContext.DoneDates) throws -> String {
            let context = RequestContext(defaultFile: "TODO.md", today: today, doneDates: policy)
            let command = try ItemRequest.setDone(ItemQuery("milk"), true).resolve(in: lists, context: context) {
                ItemID.named("new")
            }
            return withShortIDs(try command.apply(to: lists).texts["TODO.md"]!)
        }
        #expect(try done(plain, .auto) == "- [x] Milk ^milk\n- [x] Eggs ^eggs\n")
        #expect(try done(dated, .auto) == "- [x] Milk ^milk ✅ 2026-11-24\n- [x] Eggs ^eggs ✅ 2026-11-20\n")
        #expect(try done(plain, .always) == "- [x] Milk ^milk ✅ 2026-11-24\n- [x] Eggs ^eggs\n")
        #expect(try done(dated, .never) == "- [x] Milk ^milk\n- [x] Eggs ^eggs ✅ 2026-11-20\n")
        // Reopening takes the done date away, as Obsidian Tasks does.
        let context = RequestContext(defaultFile: "TODO.md", today: today)
        let reopen = try ItemRequest.setDone(ItemQuery("eggs"), false).resolve(in: dated, context: context) {
            ItemID.named("new")
        }
        #expect(withShortIDs(try reopen.apply(to: dated).texts["TODO.md"]!) == "- [ ] Milk ^milk\n- [ ] Eggs ^eggs\n")
    }

    @Test func severalListsWithoutTodoMdHaveNoDefault() {
        #expect(RequestContext.defaultFile(among: ["work.md", "TODO.md"]) == "TODO.md")
        #expect(RequestContext.defaultFile(among: ["work.md"]) == "work.md")
        #expect(RequestContext.defaultFile(among: ["work.md", "home.md"]) == nil)
    }
}

@Suite struct NextOccurrenceTests {
    static let today = CalendarDate("2026-11-24")!

    /// Checks the item named `name` off in `text` and adds what `nextOccurrences` says.
    func complete(
        _ name: String, in text: String, today: CalendarDate = today, raw: Bool = false
    ) throws -> (text: String, next: NextOccurrences) {
        let before = raw ? ListSet([ListDocument(path: "TODO.md", bytes: Array(text.utf8))]) : lists(["TODO.md": text])
        var after = try Command.setDone(shortID(name), true).apply(to: before)
        let next = after.nextOccurrences(checkedIn: ListSet.changes(from: before, to: after), today: today)
        if let command = next.command { after = try command.apply(to: after) }
        return (withShortIDs(after.texts["TODO.md"]!), next)
    }

    /// The text with the one id todosync derived shown as `^next`.
    func naming(_ text: String, _ id: ItemID) -> String {
        text.replacingAll("<!-- id: \(id) -->", with: "^next")
    }

    @Test func theNextOccurrenceGoesAboveWithItsDatesMovedOn() throws {
        let (text, next) = try complete(
            "trash", in: "# Chores\n- [ ] take out the trash ^trash 🔁 every Sunday 📅 2021-04-25\n")
        let id = ItemID.named("todosync next occurrence \(shortID("trash")) 2021-04-25")
        #expect(next.files == ["TODO.md"])
        #expect(
            naming(text, id)
                == "# Chores\n- [ ] take out the trash ^next 🔁 every Sunday 📅 2021-05-02\n- [x] take out the trash ^trash 🔁 every Sunday 📅 2021-04-25\n"
        )
    }

    @Test func everyDateKeepsItsDistanceFromTheReferenceDate() throws {
        let (text, _) = try complete(
            "lawn", in: "- [ ] Mow the lawn ^lawn 🔁 every 2 weeks 🛫 2021-10-20 ⏳ 2021-10-28 📅 2021-10-30\n")
        #expect(text.hasPrefix("- [ ] Mow the lawn <!-- id: "))
        #expect(text.contains("🔁 every 2 weeks 🛫 2021-11-03 ⏳ 2021-11-11 📅 2021-11-13\n- [x] Mow the lawn ^lawn"))
    }

    @Test func whenDoneCountsFromTheDayItWasDone() throws {
        let (text, _) = try complete(
            "sweep", in: "- [ ] sweep the floors ^sweep 🔁 every week when done ⏳ 2021-02-06\n",
            today: CalendarDate("2022-02-13")!)
        #expect(text.contains("🔁 every week when done ⏳ 2022-02-20\n- [x] sweep the floors ^sweep"))
    }

    @Test func doneAndCancelledDatesAndTheBlockReferenceAreNotCopiedAndCreatedIsToday() throws {
        let (text, _) = try complete(
            "pay",
            in:
                "- [ ] Pay rent <!-- id: \(shortIDText("pay")) --> 🔁 every month ➕ 2026-10-01 📅 2026-11-30 ✅ 2026-11-24 ^rent\n",
            raw: true)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix(" 🔁 every month ➕ 2026-11-24 📅 2026-12-30"))
        #expect(lines[1] == "- [x] Pay rent ^pay 🔁 every month ➕ 2026-10-01 📅 2026-11-30 ✅ 2026-11-24 ^rent")
        #expect(!lines[0].contains("✅") && !lines[0].contains("^rent"))
    }

    @Test func anItemWithoutDatesRecursWithoutDates() throws {
        let (text, _) = try complete("water", in: "- [ ] Water plants ^water 🔁 every 3 days\n")
        #expect(text.contains(" 🔁 every 3 days\n- [x] Water plants ^water 🔁 every 3 days\n"))
    }

    @Test func theSameOccurrenceCompletedTwiceGivesTheSameIdAndIsNotAddedAgain() throws {
        let text = "- [ ] Review ^review 🔁 every week 📅 2026-11-27\n"
        let first = try complete("review", in: text)
        let second = try complete("review", in: text)
        #expect(first.text == second.text)
        // Reopened and checked off again, with the occurrence still there: none added.
        let reopened = first.text.replacingAll("- [x] Review", with: "- [ ] Review")
        let again = try complete("review", in: reopened)
        #expect(again.next.command == nil)
        #expect(again.text == first.text)
    }

    @Test func anOccurrenceObsidianTasksAlreadyAddedIsNotAddedAgain() throws {
        let before = lists(["TODO.md": "- [ ] Review ^review 🔁 every week 📅 2026-11-27\n"])
        // Obsidian Tasks checks it off and writes the next occurrence above, without an id.
        let after = lists([
            "TODO.md":
                "- [ ] Review 🔁 every week 📅 2026-12-04 ^obsidian\n- [x] Review ^review 🔁 every week 📅 2026-11-27 ✅ 2026-11-24\n"
        ])
        let next = after.nextOccurrences(checkedIn: ListSet.changes(from: before, to: after), today: Self.today)
        #expect(next.command == nil)
    }

    @Test func aRuleTodosyncCannotFollowIsWarnedAboutAndNothingIsInvented() throws {
        let (text, next) = try complete("tax", in: "# Money\n- [ ] Taxes ^tax 🔁 every fortnight 📅 2026-11-27\n")
        #expect(text == "# Money\n- [x] Taxes ^tax 🔁 every fortnight 📅 2026-11-27\n")
        #expect(
            next.warnings.map(\.description) == [
                "TODO.md:2: 🔁 \"every fortnight\" is not a rule todosync can follow, so no next occurrence was added (docs/FORMAT.md lists the rules it follows)"
            ])
    }

    @Test func undoingTheCompletionRemovesTheOccurrence() throws {
        let before = lists(["TODO.md": "- [ ] Review ^review 🔁 every week 📅 2026-11-27\n- [ ] Milk ^milk\n"])
        let checked = try Command.setDone(shortID("review"), true).apply(to: before)
        let next = checked.nextOccurrences(checkedIn: ListSet.changes(from: before, to: checked), today: Self.today)
        let unit = Command.batch([.setDone(shortID("review"), true), try #require(next.command)])
        let after = try unit.apply(to: before)
        #expect(after.items.count == 3)
        #expect(try unit.inverse(in: before).apply(to: after).texts == before.texts)
    }
}
