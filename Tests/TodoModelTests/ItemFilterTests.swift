import Testing
@testable import TodoModel

@Suite struct ItemFilterTests {
    static let items = identified(
        """
        # Home
        - [ ] Buy milk ⏫ 📅 2026-11-20
        - [x] Call Bob 🔼 📅 2026-11-10
        - [ ] Water plants 🔁 every 3 days 📅 2026-11-27
        - [ ] Read 🔺

        """
    ).items

    func titles(_ change: (inout ItemFilter) -> Void) -> [String] {
        var filter = ItemFilter()
        change(&filter)
        return Self.items.filter(filter.admits).map(\.plainTitle)
    }

    @Test func eachFilter() {
        #expect(titles { _ in } == ["Buy milk", "Call Bob", "Water plants", "Read"])
        #expect(titles { $0.text = "MILK" } == ["Buy milk"])
        #expect(titles { $0.state = .done } == ["Call Bob"])
        #expect(titles { $0.minimumPriority = .high } == ["Buy milk", "Read"])
        #expect(titles { $0.dueBefore = CalendarDate("2026-11-20") } == ["Call Bob"])
        #expect(titles { $0.dueAfter = CalendarDate("2026-11-20") } == ["Water plants"])
        #expect(
            titles {
                $0.overdue = true; $0.today = CalendarDate("2026-11-24")
            } == ["Buy milk"])
        #expect(titles { $0.recurring = true } == ["Water plants"])
        #expect(titles { $0.file = "work.md" } == [])
        // Filters combine: every one must admit the item.
        #expect(
            titles {
                $0.state = .open; $0.minimumPriority = .high; $0.dueBefore = CalendarDate("2026-12-01")
            } == ["Buy milk"])
    }
}

/// `items(done:)` builds only the checked or the open items: exactly what filtering every item
/// by its box gives, positions, sections and parents included (random edited lists).
@Suite struct ItemsByStateTests {
    @Test(arguments: 0..<40)
    func onlyTheItemsOfOneStateAreWhatFilteringAllGives(seed: Int) {
        var editor = RandomEditor(seed: UInt64(seed))
        let start = ListSet([
            identified(
                """
                # Home
                - [ ] A
                  - [x] A1
                  - [ ] A2
                - [x] B ⏫
                ## Work
                1. [ ] C
                2. [x] D

                """), identified("- [ ] E\n- [x] F\n  notes\n", path: "more.md"),
        ])
        let lists = editor.edit(start, times: 12)
        for document in lists.documents.values {
            for done in [true, false] {
                #expect(document.items(done: done) == document.items.filter { $0.isDone == done })
            }
            #expect(document.items(done: nil) == document.items)
        }
        for done in [true, false] {
            #expect(Array(lists.items(done: done).values) == lists.items.values.filter { $0.isDone == done })
        }
    }
}
