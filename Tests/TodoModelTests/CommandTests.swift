import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Commands as values: each kind, its inverse, and batches (applied in order, inverted in
/// reverse order).
@Suite struct CommandTests {
    static let start =
        "# Home\n- [ ] Milk ^milk\n  the blue carton\n- [ ] Bread ^bread\n  - [ ] Rye ^rye\n- [x] Eggs ^eggs\n\nProse.\n"

    /// Applies the command to `start` (or `text`), checks the result, then checks that the
    /// inverse brings back the bytes exactly.
    func check(_ command: Command, _ expected: String, from text: String = start) throws {
        let before = lists(["TODO.md": text])
        let after = try command.apply(to: before)
        #expect(withShortIDs(after.texts["TODO.md"] ?? "") == expected)
        let inverse = try command.inverse(in: before)
        #expect(try inverse.apply(to: after).texts == before.texts)
    }

    @Test func add() throws {
        try check(
            .add(id: shortID("tea"), title: "Tea", at: .end(file: "TODO.md")),
            "# Home\n- [ ] Milk ^milk\n  the blue carton\n- [ ] Bread ^bread\n  - [ ] Rye ^rye\n- [x] Eggs ^eggs\n- [ ] Tea ^tea\n\nProse.\n"
        )
        try check(
            .add(id: shortID("tea"), title: "Tea", isDone: true, notes: "green", at: .under(shortID("bread"))),
            "# Home\n- [ ] Milk ^milk\n  the blue carton\n- [ ] Bread ^bread\n  - [ ] Rye ^rye\n  - [x] Tea ^tea\n    green\n- [x] Eggs ^eggs\n\nProse.\n"
        )
        try check(
            .add(id: shortID("tea"), title: "Tea", at: .before(shortID("milk"))),
            "# Home\n- [ ] Tea ^tea\n- [ ] Milk ^milk\n  the blue carton\n- [ ] Bread ^bread\n  - [ ] Rye ^rye\n- [x] Eggs ^eggs\n\nProse.\n"
        )
    }

    @Test func fields() throws {
        try check(.setDone(shortID("milk"), true), Self.start.replacingAll("- [ ] Milk", with: "- [x] Milk"))
        try check(.setDone(shortID("eggs"), false), Self.start.replacingAll("- [x] Eggs", with: "- [ ] Eggs"))
        try check(.retitle(shortID("milk"), "Oat milk"), Self.start.replacingAll("] Milk", with: "] Oat milk"))
        try check(
            .setNotes(shortID("milk"), "the green one\nor any"),
            Self.start.replacingAll("  the blue carton\n", with: "  the green one\n  or any\n"))
        try check(.setNotes(shortID("milk"), ""), Self.start.replacingAll("  the blue carton\n", with: ""))
        // A field goes after the id comment, where Obsidian Tasks reads it; a line whose fields
        // stand before a comment at its end keeps them there.
        try check(
            .setPriority(shortID("bread"), .high), Self.start.replacingAll("] Bread ^bread", with: "] Bread ^bread ⏫"))
        try check(
            .setDue(shortID("bread"), CalendarDate("2026-12-01")),
            Self.start.replacingAll("] Bread ^bread", with: "] Bread ^bread 📅 2026-12-01"))
        let oldStyle = Self.start.replacingAll("] Bread ^", with: "] Bread ⏫ ^")
        try check(
            .setDue(shortID("bread"), CalendarDate("2026-12-01")),
            oldStyle.replacingAll("] Bread ⏫ ^", with: "] Bread ⏫ 📅 2026-12-01 ^"), from: oldStyle)
    }

    @Test func removeTakesNotesAndChildrenAndRestoreBringsThemBack() throws {
        try check(
            .remove(shortID("bread")), "# Home\n- [ ] Milk ^milk\n  the blue carton\n- [x] Eggs ^eggs\n\nProse.\n")
        try check(
            .remove(shortID("milk")), "# Home\n- [ ] Bread ^bread\n  - [ ] Rye ^rye\n- [x] Eggs ^eggs\n\nProse.\n")
        try check(
            .remove(shortID("rye")),
            "# Home\n- [ ] Milk ^milk\n  the blue carton\n- [ ] Bread ^bread\n- [x] Eggs ^eggs\n\nProse.\n")
    }

    @Test func moveReindentsTheWholeBlock() throws {
        try check(
            .move(shortID("milk"), to: .under(shortID("eggs"))),
            "# Home\n- [ ] Bread ^bread\n  - [ ] Rye ^rye\n- [x] Eggs ^eggs\n  - [ ] Milk ^milk\n    the blue carton\n\nProse.\n"
        )
        try check(
            .move(shortID("rye"), to: .after(shortID("eggs"))),
            "# Home\n- [ ] Milk ^milk\n  the blue carton\n- [ ] Bread ^bread\n- [x] Eggs ^eggs\n- [ ] Rye ^rye\n\nProse.\n"
        )
        try check(
            .move(shortID("eggs"), to: .before(shortID("milk"))),
            "# Home\n- [x] Eggs ^eggs\n- [ ] Milk ^milk\n  the blue carton\n- [ ] Bread ^bread\n  - [ ] Rye ^rye\n\nProse.\n"
        )
        try check(
            .move(shortID("eggs"), to: .firstUnder(shortID("bread"))),
            "# Home\n- [ ] Milk ^milk\n  the blue carton\n- [ ] Bread ^bread\n  - [x] Eggs ^eggs\n  - [ ] Rye ^rye\n\nProse.\n"
        )
    }

    @Test func moveToAnotherFile() throws {
        let before = lists(["TODO.md": Self.start, "work.md": "- [ ] Report ^report\n"])
        let command = Command.move(shortID("bread"), to: .end(file: "work.md"))
        let after = try command.apply(to: before)
        #expect(withShortIDs(after.texts["work.md"]!) == "- [ ] Report ^report\n- [ ] Bread ^bread\n  - [ ] Rye ^rye\n")
        #expect(try command.inverse(in: before).apply(to: after).texts == before.texts)
    }

    @Test func refusals() {
        let before = lists(["TODO.md": Self.start])
        #expect(throws: EditError.insideItself(title: "Bread")) {
            try Command.move(shortID("bread"), to: .under(shortID("rye"))).apply(to: before)
        }
        #expect(throws: EditError.noSuchItem(shortID("nope"))) {
            try Command.setDone(shortID("nope"), true).apply(to: before)
        }
        #expect(throws: EditError.duplicateID(shortID("milk"))) {
            try Command.add(id: shortID("milk"), title: "x", at: .end(file: "TODO.md")).apply(to: before)
        }
        #expect(throws: EditError.self) { try Command.retitle(shortID("milk"), "two\nlines").apply(to: before) }
    }

    @Test func aBatchIsInvertedInReverseOrder() throws {
        let before = lists(["TODO.md": Self.start])
        let tea = shortID("tea")
        let batch = Command.batch([
            .add(id: tea, title: "Tea", at: .end(file: "TODO.md")),
            .move(tea, to: .under(shortID("milk"))),
            .setDone(tea, true),
            .remove(shortID("bread")),
        ])
        let after = try batch.apply(to: before)
        #expect(
            withShortIDs(after.texts["TODO.md"]!)
                == "# Home\n- [ ] Milk ^milk\n  the blue carton\n  - [x] Tea ^tea\n- [x] Eggs ^eggs\n\nProse.\n")
        let inverse = try batch.inverse(in: before)
        guard case .batch(let steps) = inverse else { Issue.record("not a batch"); return }
        // Last command's inverse first: restore Bread, uncheck, move back, remove.
        #expect(steps.count == 4)
        if case .restore(let id, _, _) = steps[0] {
            #expect(id == shortID("bread"))
        } else {
            Issue.record("\(steps[0])")
        }
        #expect(steps[1] == .setDone(tea, false))
        if case .batch(let back) = steps[2], case .restore(let id, _, let placement) = back.last {
            #expect(back.first == .remove(tea) && id == tea && placement == .atLine(file: "TODO.md", line: 6))
        } else {
            Issue.record("\(steps[2])")
        }
        #expect(steps[3] == .remove(tea))
        #expect(try inverse.apply(to: after).texts == before.texts)
    }

    @Test func aBOMItemWithIndentedTextIsUndoneByItsInverse() throws {
        let base = MergeLawTests.base("\u{FEFF}- [ ] bom\n    indented code\n")
        var generator = RandomCommands(seed: 246_637)
        let (batch, after) = generator.batch(on: base, count: 6)
        let inverse = try batch.inverse(in: base)
        let back = try inverse.apply(to: after)
        #expect(
            back.normalizedTexts == base.normalizedTexts,
            "\(batch)\nafter: \(after.texts)\nback: \(back.texts)\nbase: \(base.texts)")
    }

    @Test func anyCommandSequenceIsUndoneByItsInverse() async {
        await propertyCheck(count: 1000, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            // NB: an item put below an unclosed code fence (or front matter, or an open HTML
            // comment) would read as code: lines that change the block structure are left out,
            // as in the merge laws (docs/MERGE.md, known gaps).
            guard !["```", "~~~", "---", "<!--"].contains(where: text.contains) else { return }
            let base = MergeLawTests.base(text)
            var generator = RandomCommands(seed: UInt64(seed))
            let (batch, after) = generator.batch(on: base, count: 6)
            let inverse = try batch.inverse(in: base)
            // NB: a moved block takes the line ending of the file it lands in, so in files that
            // mix endings (or differ in them, or lack a final one) the way back can end lines
            // differently; and a box checked as `[X]` comes back as `[x]`. The examples above
            // check the bytes exactly.
            #expect(try inverse.apply(to: after).normalizedTexts == base.normalizedTexts)
            #expect(try inverse.inverse(in: after).apply(to: base).normalizedTexts == after.normalizedTexts)
        }
    }
}

/// Random valid commands against the current lists (deterministic for a seed).
struct RandomCommands {
    var generator: SeededGenerator
    var counter = 0
    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// A batch of up to `count` commands that all apply in order, and the lists after it.
    mutating func batch(on lists: ListSet, count: Int) -> (Command, ListSet) {
        var state = lists
        var commands: [Command] = []
        for _ in 0..<count {
            let command = next(on: state)
            guard let after = try? command.apply(to: state) else { continue }
            commands.append(command)
            state = after
        }
        return (.batch(commands), state)
    }

    mutating func next(on lists: ListSet) -> Command {
        counter += 1
        let ids = Array(lists.items.keys)
        let paths = Array(lists.documents.keys)
        guard let id = ids.randomElement(using: &generator), let other = ids.randomElement(using: &generator) else {
            return .add(
                id: ItemID.random(using: &generator), title: "First \(counter)",
                at: .end(file: paths.first ?? "TODO.md"))
        }
        let placements: [Placement] = [
            .end(file: paths.randomElement(using: &generator)!), .under(other), .firstUnder(other), .before(other),
            .after(other),
        ]
        let placement = placements.randomElement(using: &generator)!
        switch Int.random(in: 0..<9, using: &generator) {
        case 0:
            return .add(
                id: ItemID.random(using: &generator), title: "New \(counter)",
                notes: counter % 2 == 0 ? "note \(counter)" : "", at: placement)
        case 1: return .setDone(id, Bool.random(using: &generator))
        case 2: return .retitle(id, "Renamed \(counter)")
        case 3: return .setNotes(id, counter % 3 == 0 ? "" : "notes \(counter)\nmore")
        case 4: return .setPriority(id, Priority.allCases.randomElement(using: &generator)!)
        case 5: return .setDue(id, counter % 2 == 0 ? nil : CalendarDate("2026-12-1\(counter % 10)"))
        case 6: return .remove(id)
        default: return .move(id, to: placement)
        }
    }
}

extension ListSet {
    /// Each file's text with every line ending written as LF and the last one dropped, `[X]`
    /// as `[x]`; files left empty are left out.
    var normalizedTexts: [String: String] {
        var result: [String: String] = [:]
        for (path, document) in documents {
            var bytes: [UInt8] = []
            for line in document.lines {
                bytes += line.content
                bytes.append(0x0A)
            }
            if document.lines.last?.ending == LineEnding.none || bytes.last == 0x0A { bytes.removeLast() }
            if !bytes.isEmpty { result[path] = String(decoding: bytes, as: UTF8.self).replacingAll("[X]", with: "[x]") }
        }
        return result
    }
}
