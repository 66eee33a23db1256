import TestSupport
import Testing
@testable import TodoModel

/// A record of a file's items (the items cache's entries) gives back exactly what parsing the
/// file gives: every field, for every state asked for.
@Suite struct ItemRecordsTests {
    static let rich = identified(
        """
        ---
        title: front matter
        ---
        # Home
        - [ ] Buy milk ⏫ 📅 2026-11-20 ⏳ 2026-11-19 🛫 2026-11-18 ➕ 2026-11-01
          a note under it
          - [x] Nested done ✅ 2026-11-21 ❌ 2026-11-22
        - [ ] Water plants 🔁 every 3 days when done 📅 2026-11-27 🆔 abc ⛔ x1, y2 🏁 delete
        - [ ] "Quoted" title with \\ backslash and émoji 🎉
        ## Work
        1. [x] Ship it 🔽
           more notes

           after a blank line
        > - [ ] not a task in a quote? kept as the parser sees it

        ```
        - [ ] in a code fence
        ```
        - [ ] Last

        """)

    @Test func aRecordGivesBackEveryField() throws {
        let record = try #require(ItemRecords.encode(Self.rich))
        for done in [nil, true, false] as [Bool?] {
            let decoded = try #require(ItemRecords.decode(record[...], file: "TODO.md", done: done))
            #expect(decoded.items == Self.rich.items(done: done))
            #expect(decoded.ids == Self.rich.nodeIDs.compactMap { $0 })
            #expect(decoded.summary == ItemRecords.Summary(hasItems: true, hasIDs: true))
        }
        #expect(ItemRecords.ids(record[...]) == Self.rich.nodeIDs.compactMap { $0 })
        // The path is the reader's: the same blob at another path.
        #expect(
            ItemRecords.decode(record[...], file: "other.md", done: nil)?.items.map(\.file)
                == Self.rich.items.map { _ in "other.md" })
    }

    @Test func aFileWithoutItemsHasARecordThatSaysSo() throws {
        let prose = ListDocument(path: "note.md", bytes: Array("# Prose\n\nJust words.\n".utf8))
        let record = try #require(ItemRecords.encode(prose))
        #expect(ItemRecords.summary(record[...]) == ItemRecords.Summary(hasItems: false, hasIDs: false))
        #expect(ItemRecords.decode(record[...], file: "note.md", done: nil)?.items == [])
    }

    @Test func aFileNotInOrderHasNoRecord() {
        // An item without an id, and an id used twice: the id assignment's to settle.
        #expect(ItemRecords.encode(ListDocument(path: "TODO.md", bytes: Array("- [ ] New\n".utf8))) == nil)
        let id = "<!-- id: 7B190C26-FE68-4226-A3E7-A26AA89B13F6 -->"
        #expect(
            ItemRecords.encode(ListDocument(path: "TODO.md", bytes: Array("- [ ] A \(id)\n- [ ] B \(id)\n".utf8)))
                == nil)
    }

    @Test func bytesThatAreNoRecordAreRefusedWhole() throws {
        let record = try #require(ItemRecords.encode(Self.rich))
        for cut in stride(from: 0, to: record.count, by: 7) {
            #expect(ItemRecords.decode(record[..<cut], file: "TODO.md", done: nil) == nil)
            #expect(ItemRecords.ids(record[..<cut]) == nil)
        }
        #expect(ItemRecords.decode((record + [0])[...], file: "TODO.md", done: nil) == nil)
        #expect(ItemRecords.decode([0xFF, 0xFF, 0xFF][...], file: "TODO.md", done: nil) == nil)
    }

    /// Property: lists after random edits (checks, renames, fields, notes, moves, nesting).
    @Test(arguments: 0..<60)
    func aRecordOfAnEditedListGivesBackItsItems(seed: Int) throws {
        var editor = RandomEditor(seed: UInt64(seed))
        let lists = editor.edit(
            ListSet([Self.rich, identified("- [ ] E\n- [x] F\n  notes\n", path: "more.md")]), times: 16)
        for document in lists.documents.values {
            let record = try #require(ItemRecords.encode(document))
            for done in [nil, true, false] as [Bool?] {
                #expect(
                    ItemRecords.decode(record[...], file: document.path, done: done)?.items
                        == document.items(done: done))
            }
            // Made in two parts (one state each, the items of one handed on as they are
            // built), the same record.
            for handed in [true, false] {
                var handedOn: [TodoItem] = []
                let part = ItemRecords.part(of: document, done: handed) { handedOn.append($0) }
                #expect(handedOn == document.items(done: handed))
                let other = ItemRecords.part(of: document, done: !handed)
                #expect(ItemRecords.joined(document, [other, part]) == record)
                #expect(ItemRecords.joined(document, [part, other], idsChecked: true) == record)
                #expect(ItemRecords.joined(document, [part]) == nil, "one state alone is no record")
            }
        }
    }
}
