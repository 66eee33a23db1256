import TestSupport
import Testing
@testable import TodoModel

/// How commands name items: a unique part of the title, an exact title before a partial one,
/// the start of an id; `done` asks the open items first and `reopen` the done ones.
@Suite struct ItemQueryTests {
    let lists = ListSet([ListDocument(path: "TODO.md", bytes: Array(withIDs("""
        - [ ] Take out bins 🔁 every week 📅 2026-12-08 ^next
        - [x] Take out bins 🔁 every week 📅 2026-12-01 ✅ 2026-12-01 ^past
        - [ ] Milk ^milk
        - [ ] Milk and eggs ^eggs
        - [ ] Call Bob ^bob1
        - [ ] Call Bob ^bob2

        """).utf8))])

    @Test func anExactTitleBeatsTitlesThatHoldIt() throws {
        #expect(try ItemQuery("milk").resolve(in: lists).id == shortID("milk"))
        #expect(try ItemQuery("eggs").resolve(in: lists).id == shortID("eggs"))
    }

    @Test func doneAsksTheOpenItemsFirstAndReopenTheDoneOnes() throws {
        #expect(throws: ItemQuery.Failure.self) { try ItemQuery("bins").resolve(in: lists) }
        #expect(try ItemQuery("bins").resolve(in: lists, preferring: { !$0.isDone }).id == shortID("next"))
        #expect(try ItemQuery("bins").resolve(in: lists, preferring: { $0.isDone }).id == shortID("past"))
        let context = RequestContext(defaultFile: "TODO.md", today: CalendarDate("2026-12-08")!)
        let done = try ItemRequest.setDone(ItemQuery("bins"), true).resolve(in: lists, context: context) { ItemID.named("x") }
        // The list uses done dates: the check writes today's.
        #expect(done == .batch([.setDone(shortID("next"), true), .setField(shortID("next"), .done, "2026-12-08")]))
    }

    @Test func identicalTitlesAreListedWithTheirIds() {
        #expect {
            try ItemQuery("call bob").resolve(in: lists, preferring: { !$0.isDone })
        } throws: { error in
            guard case .ambiguous(_, let candidates) = error as? ItemQuery.Failure else { return false }
            return Set(candidates.map(\.id)) == [shortID("bob1"), shortID("bob2")]
        }
    }
}
