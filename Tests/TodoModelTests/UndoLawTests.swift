import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Undo as the engine does it, on the model: undoing unit T (before -> after) with the lists
/// now at `now` is merge(base: after, ours: now, theirs: before), later edits winning.
@Suite struct UndoLawTests {
    static func undo(before: ListSet, after: ListSet, now: ListSet) -> ListSet {
        ListMerge.merge(base: after, ours: now, theirs: before, keepingOurs: true).lists
    }

    @Test func undoingEverythingThenRedoingEverythingGivesBackEachState() async {
        await propertyCheck(count: 200, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            var generator = RandomCommands(seed: UInt64(seed))
            var states = [MergeLawTests.base(text)]
            for _ in 0..<4 { states.append(generator.batch(on: states.last!, count: 3).1) }
            var now = states.last!
            for k in stride(from: states.count - 1, to: 0, by: -1) {
                now = Self.undo(before: states[k - 1], after: states[k], now: now)
                #expect(now.texts == states[k - 1].texts)
            }
            // Redo inverts each undo (which took states[k] to states[k - 1]).
            for k in 1..<states.count {
                now = Self.undo(before: states[k], after: states[k - 1], now: now)
                #expect(now.texts == states[k].texts)
            }
        }
    }

    @Test func undoAfterUnrelatedLaterEditsKeepsThoseEdits() async {
        await propertyCheck(count: 300, input: markdownGenerator, Gen.int(in: 0...1_000_000)) { text, seed in
            guard !["```", "~~~", "---", "<!--"].contains(where: text.contains) else { return }
            let start = MergeLawTests.base(text)
            let ids = Array(start.items.keys)
            guard ids.count >= 2 else { return }
            // The unit edits fields of one half of the items; a later unit edits the other half.
            let (mine, later) = (Array(ids.prefix(ids.count / 2)), Array(ids.suffix(ids.count - ids.count / 2)))
            var generator = SeededGenerator(seed: UInt64(seed))
            func fieldEdits(_ targets: [ItemID], _ tag: String) -> Command {
                .batch(
                    targets.flatMap { id -> [Command] in
                        switch Int.random(in: 0..<3, using: &generator) {
                        case 0: [.setDone(id, Bool.random(using: &generator))]
                        case 1: [.retitle(id, "\(tag) title \(id.low % 1000)")]
                        default: [.setNotes(id, "\(tag) notes")]
                        }
                    })
            }
            guard let after = try? fieldEdits(mine, "unit").apply(to: start),
                let now = try? fieldEdits(later, "later").apply(to: after)
            else { return }
            let undone = Self.undo(before: start, after: after, now: now).items
            let startItems = start.items, nowItems = now.items
            for id in mine {
                #expect(undone[id]?.title == startItems[id]?.title)
                #expect(undone[id]?.isDone == startItems[id]?.isDone)
                #expect(undone[id]?.notes == startItems[id]?.notes)
            }
            for id in later {
                #expect(undone[id]?.title == nowItems[id]?.title)
                #expect(undone[id]?.isDone == nowItems[id]?.isDone)
                #expect(undone[id]?.notes == nowItems[id]?.notes)
            }
        }
    }

    @Test func aLaterEditOfTheSameFieldWinsAndIsReported() {
        let before = lists(["TODO.md": "- [ ] Milk ^milk\n- [ ] Eggs ^eggs\n"])
        let after = lists(["TODO.md": "- [ ] Farm milk ^milk\n- [x] Eggs ^eggs\n"])
        let now = lists(["TODO.md": "- [ ] Goat milk ^milk\n- [x] Eggs ^eggs\n"])
        let outcome = ListMerge.merge(base: after, ours: now, theirs: before, keepingOurs: true)
        #expect(withShortIDs(outcome.lists.texts["TODO.md"]!) == "- [ ] Goat milk ^milk\n- [ ] Eggs ^eggs\n")
        #expect(outcome.reports.count == 1)
        #expect(outcome.reports.first?.description.contains("Goat milk") == true)
        // No clash markers or notes: undo leaves the later edit as it is.
        #expect(!outcome.lists.texts["TODO.md"]!.contains("todosync clash"))
    }
}
