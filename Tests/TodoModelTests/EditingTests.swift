import Testing
@testable import TodoModel

@Suite struct EditingTests {
    let base = identified("# Home\n- [ ] Buy milk\n  the blue carton\n- [ ] Call Bob\n\nprose stays\n")

    @Test func checkingChangesOnlyTheBox() throws {
        var document = base
        let id = document.items[0].id
        try document.update(id, isDone: true)
        #expect(document.text == base.text.replacingAll("- [ ] Buy milk", with: "- [x] Buy milk"))
        #expect(document.item(id: id)?.isDone == true)
    }

    @Test func retitlingKeepsTheIdComment() throws {
        var document = base
        let id = document.items[1].id
        try document.update(id, title: "Call Bob about the car")
        #expect(document.item(id: id)?.title == "Call Bob about the car")
        #expect(document.text.contains("- [ ] Call Bob about the car <!-- id: \(id) -->\n"))
    }

    /// A title typed with white space at its end (found by the merge laws' renames: it used to
    /// crash where the id comment goes).
    @Test(arguments: ["Thing ", "Thing \t", " Thing", "Thing ⏫ "])
    func aTitleWithWhiteSpaceAtItsEndKeepsItsId(_ title: String) throws {
        var document = base
        let id = document.items[1].id
        try document.update(id, title: title)
        #expect(document.item(id: id)?.plainTitle.trimmingSpaces == TitleFields(title: title).plainTitle.trimmingSpaces)
        #expect(document.items.count == 2)
    }

    @Test func prioritiesAndDatesAreWrittenInObsidianOrder() throws {
        var document = base
        let id = document.items[1].id
        try document.update(id, due: CalendarDate("2026-12-01"))
        try document.update(id, priority: .high)
        #expect(document.item(id: id)?.title == "Call Bob ⏫ 📅 2026-12-01")
        try document.update(id, priority: Priority.none, due: .some(nil))
        #expect(document.item(id: id)?.title == "Call Bob")
    }

    @Test func notesAreReplacedUnderTheItem() throws {
        var document = base
        let id = document.items[0].id
        try document.update(id, notes: "oat milk\n\nor soy")
        #expect(document.item(id: id)?.notes == "oat milk\n\nor soy")
        #expect(document.text.contains("Buy milk <!-- id: \(id) -->\n  oat milk\n\n  or soy\n- [ ] Call Bob"))
        try document.update(id, notes: "")
        #expect(document.item(id: id)?.notes == "")
        #expect(document.items.count == 2)
    }

    @Test func addingAppendsAfterTheLastItemWithTheNeighboursMarker() throws {
        var document = identified("1. [ ] one\n2. [ ] two\n\ntrailing prose")
        let id = ItemID.named("new")
        try document.add("three", id: id)
        #expect(
            document.text == identified("1. [ ] one\n2. [ ] two\n").text
                + "3. [ ] three <!-- id: \(id) -->\n\ntrailing prose")
    }

    @Test func addingUnderAParentIndentsToItsContent() throws {
        var document = base
        let parent = document.items[1].id
        let child = ItemID.named("child")
        try document.add("Ask about Sunday", id: child, under: parent)
        #expect(document.item(id: child)?.parent == parent)
        #expect(document.text.contains("\n  - [ ] Ask about Sunday <!-- id: \(child) -->\n"))
    }

    @Test func addingToAFileWithoutFinalNewlineEndsTheLastLineFirst() throws {
        var document = identified("- [ ] a\r\n- [ ] b")
        let id = ItemID.named("c")
        try document.add("c", id: id)
        #expect(document.text.hasSuffix("\r\n- [ ] c <!-- id: \(id) -->"))
        #expect(document.items.count == 3)
    }

    @Test func removingTakesNotesAndChildren() throws {
        var document = identified("- [ ] a\n  note\n  - [ ] child\n- [ ] b\n")
        try document.remove(document.items[0].id)
        #expect(document.items.map(\.plainTitle) == ["b"])
    }

    @Test func badTitlesAreRefusedAndChangeNothing() {
        var document = base
        let id = document.items[0].id
        #expect(throws: EditError.invalidTitle("a title is one line; put more text in the notes")) {
            try document.update(id, title: "two\nlines")
        }
        #expect(throws: EditError.self) { try document.update(id, title: "  ") }
        #expect(throws: EditError.noSuchItem(ItemID.named("nope"))) {
            try document.update(ItemID.named("nope"), isDone: true)
        }
        #expect(document == base)
    }
}

@Suite struct TitleFieldWritingTests {
    @Test(arguments: [
        ("Pay rent", Priority.high, "Pay rent ⏫"),
        ("Pay rent 🔽", .high, "Pay rent ⏫"),
        ("Pay rent ⏫\u{FE0F}", .low, "Pay rent 🔽"),
        // As Obsidian Tasks reads them, only the fields that end the title are fields.
        ("Pay ⏫ rent", .low, "Pay ⏫ rent 🔽"),
        ("Water plants 🔁 every week 📅 2026-12-01", .high, "Water plants ⏫ 🔁 every week 📅 2026-12-01"),
        ("Pay rent 📅 2026-12-01", .medium, "Pay rent 🔼 📅 2026-12-01"),
        ("Pay rent ⏫ 📅 2026-12-01", .none, "Pay rent 📅 2026-12-01"),
    ])
    func settingAPriorityReplacesTheOldOneInObsidianTasksOrder(
        _ title: String, _ priority: Priority, _ expected: String
    ) {
        let written = TitleFields.setting(priority, in: title)
        #expect(written == expected)
        #expect(TitleFields(title: written).priority == priority)
    }

    @Test(arguments: [
        ("Pay rent", CalendarDate("2026-12-01"), "Pay rent 📅 2026-12-01"),
        ("Pay rent 📅 2026-11-30 ⏫", CalendarDate("2026-12-01"), "Pay rent 📅 2026-12-01 ⏫"),
        ("Pay rent ⏫ ✅ 2026-11-30", CalendarDate("2026-12-01"), "Pay rent ⏫ 📅 2026-12-01 ✅ 2026-11-30"),
        ("Pay rent 🗓️ 2026-11-30", CalendarDate("2026-12-01"), "Pay rent 📅 2026-12-01"),
        ("Pay rent 📅\u{FE0F} 2026-11-30", nil, "Pay rent"),
        ("Pay rent 📅 2026-02-30", nil, "Pay rent 📅 2026-02-30"),
    ])
    func settingADueDateReplacesTheOldOneInPlace(_ title: String, _ due: CalendarDate?, _ expected: String) {
        let written = TitleFields.setting(due, in: title)
        #expect(written == expected)
        #expect(TitleFields(title: written).date(.due) == due)
    }
}

@Suite struct SwallowedEditTests {
    @Test func anItemThatWouldLandInAnOpenCodeBlockIsRefusedAndChangesNothing() throws {
        let parent = try #require(ItemID(parsing: "0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F"))
        let text = "- [ ] Plan trip <!-- id: \(parent) -->\n  ```\n  notes never closed\n"
        var document = ListDocument(path: "TODO.md", bytes: Array(text.utf8))
        let new = ItemID(high: 1, low: 2)
        #expect(throws: EditError.cannotLand(title: "Book flights", file: "TODO.md", line: 4, heldBy: "Plan trip")) {
            try document.add("Book flights", id: new, under: parent)
        }
        #expect(document.text == text)
        // At the top level it lands after the item, where the block has ended.
        try document.add("Book flights", id: new)
        #expect(document.items.map(\.title) == ["Plan trip", "Book flights"])
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
