import TestSupport
import Testing
@testable import TodoModel

/// How commands name items: a unique part of the title, an exact title before a partial one,
/// the start of an id; `done` asks the open items first and `reopen` the done ones.
@Suite struct ItemQueryTests {
    let lists = ListSet([
        ListDocument(
            path: "TODO.md",
            bytes: Array(
                withIDs(
                    """
                    - [ ] Take out bins 🔁 every week 📅 2026-12-08 ^next
                    - [x] Take out bins 🔁 every week 📅 2026-12-01 ✅ 2026-12-01 ^past
                    - [ ] Milk ^milk
                    - [ ] Milk and eggs ^eggs
                    - [ ] Call Bob ^bob1
                    - [ ] Call Bob ^bob2

                    """
                ).utf8))
    ])

    @Test func anExactTitleBeatsTitlesThatHoldIt() throws {
        #expect(try ItemQuery("milk").resolve(in: lists).id == shortID("milk"))
        #expect(try ItemQuery("eggs").resolve(in: lists).id == shortID("eggs"))
    }

    @Test func doneAsksTheOpenItemsFirstAndReopenTheDoneOnes() throws {
        #expect(throws: ItemQuery.Failure.self) { try ItemQuery("bins").resolve(in: lists) }
        #expect(try ItemQuery("bins").resolve(in: lists, preferring: { !$0.isDone }).id == shortID("next"))
        #expect(try ItemQuery("bins").resolve(in: lists, preferring: { $0.isDone }).id == shortID("past"))
        let context = RequestContext(defaultFile: "TODO.md", today: CalendarDate("2026-12-08")!)
        let done = try ItemRequest.setDone(ItemQuery("bins"), true).resolve(in: lists, context: context) {
            ItemID.named("x")
        }
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

/// The query searches the lines and builds only the items that match: it must name what the
/// naive way names, every item built and each title lower-cased and searched as UTF-8
/// (random lists, texts taken from their titles and ids, any case; the two scalars whose
/// lower case is ASCII among them).
@Suite struct ItemQueryReferenceTests {
    static func naive(_ text: String, in lists: ListSet) -> Result<ItemID, ItemQuery.Failure> {
        let items = Array(lists.items.values)
        let needle = text.lowercased()
        let hex = needle.filter { $0 != "-" }
        if hex.count >= 4, hex.allSatisfy({ $0.isHexDigit }) {
            let matches = items.filter { $0.id.description.lowercased().filter { $0 != "-" }.hasPrefix(hex) }
            if matches.count == 1 { return .success(matches[0].id) }
            if matches.count > 1 { return .failure(.ambiguous(text, candidates: matches)) }
        }
        // Compared scalar by scalar (as UTF-8), not Character by Character.
        func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
        func holds(_ text: String, _ part: String) -> Bool {
            let (t, p) = (Array(text.utf8), Array(part.utf8))
            return p.isEmpty
                || (t.count >= p.count && (0...(t.count - p.count)).contains { Array(t[$0..<($0 + p.count)]) == p })
        }
        let exact = items.filter { same($0.plainTitle.lowercased(), needle) || same($0.title.lowercased(), needle) }
        if exact.count == 1 { return .success(exact[0].id) }
        let containing = exact.count > 1 ? exact : items.filter { holds($0.title.lowercased(), needle) }
        if containing.count == 1 { return .success(containing[0].id) }
        if containing.isEmpty { return .failure(.noMatch(text)) }
        return .failure(.ambiguous(text, candidates: containing))
    }

    /// Many matches in one file are built in one pass over it: the same items, in file order.
    @Test func manyMatchesInOneFileAreTheItemsAsBuiltWhole() {
        let lists = ListSet([identified((0..<30).map { "- [ ] Call \($0) ⏫\n  - [x] Note \($0)\n" }.joined())])
        guard case .failure(.ambiguous(_, let expected)) = Self.naive("call", in: lists) else {
            Issue.record("not ambiguous")
            return
        }
        #expect(throws: ItemQuery.Failure.ambiguous("call", candidates: expected)) {
            try ItemQuery("call").resolve(in: lists)
        }
        #expect(expected.count == 30)
    }

    @Test(arguments: 0..<60)
    func theQueryNamesWhatTheNaiveWayNames(seed: Int) {
        var editor = RandomEditor(seed: UInt64(seed))
        var generator = SeededGenerator(seed: UInt64(seed) &+ 99)
        let lists = editor.edit(
            ListSet([
                identified(
                    """
                    # Home
                    - [ ] Buy milk ⏫ 📅 2026-11-20
                    - [ ] Buy  MILK again
                      - [x] Oat milk ✅ 2026-11-21 ^ref
                    - [ ] Café au lait 🔁 every week
                    - [ ] \u{212A}elvin and \u{130}stanbul
                    - [ ] Call Bob
                    - [x] Call Bob

                    """), identified("- [ ] Milk\n- [ ] Ship it 🔽\n", path: "work.md"),
            ]), times: 8)
        let items = Array(lists.items.values)
        for _ in 0..<20 {
            let item = items.randomElement(using: &generator)!
            let source = [item.title, item.plainTitle, item.id.description][Int.random(in: 0..<3, using: &generator)]
            let characters = Array(source)
            let start = Int.random(in: 0..<characters.count, using: &generator)
            let end = Int.random(in: (start + 1)...characters.count, using: &generator)
            var text = String(characters[start..<end])
            if Bool.random(using: &generator) { text = text.uppercased() }
            let expected = Self.naive(text, in: lists)
            let actual = Result { () throws(ItemQuery.Failure) in try ItemQuery(text).resolve(in: lists).id }
            switch (expected, actual) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
            case (.failure(.noMatch), .failure(.noMatch)): break
            case (.failure(.ambiguous(_, let a)), .failure(.ambiguous(_, let b))):
                #expect(a.map(\.id) == b.map(\.id), "\(text)")
            default: Issue.record("\(text): \(expected) against \(actual)")
            }
        }
    }
}
