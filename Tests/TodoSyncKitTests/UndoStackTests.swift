import Testing
@testable import TodoSyncKit

/// The stacks read from history (newest first) against a reference stack machine run in time
/// order over the same random sequence of units, undos and redos.
@Suite struct UndoStackTests {
    /// The reference: plain stacks, in time order. Returns the history it made (oldest first).
    struct Reference {
        var undo: [String] = []
        var redo: [String] = []
        var history: [(id: String, entry: UndoStack.Entry)] = []
        var next = 0

        mutating func newID() -> String {
            next += 1
            return "c\(next)"
        }

        mutating func unit() {
            let id = newID()
            history.append((id, .unit))
            undo.append(id)
            redo.removeAll()
        }

        mutating func undoOne() {
            guard let target = undo.popLast() else { return }
            let id = newID()
            history.append((id, .undo(of: target)))
            redo.append(id)
        }

        mutating func redoOne() {
            guard let target = redo.popLast() else { return }
            let id = newID()
            history.append((id, .redo(of: target)))
            undo.append(id)
        }

        mutating func other() { history.append((newID(), .none)) }
    }

    @Test(arguments: 0..<200)
    func stacksReadFromHistoryMatchTheReference(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        var reference = Reference()
        for _ in 0..<60 {
            switch generator.next() % 7 {
            case 0, 1: reference.unit()
            case 2, 3: reference.undoOne()
            case 4, 5: reference.redoOne()
            default: reference.other()
            }
            let newestFirst = reference.history.reversed().map { $0 }
            #expect(UndoStack.undoTargets(newestFirst, count: 1000) == reference.undo.reversed())
            #expect(UndoStack.redoTargets(newestFirst, count: 1000) == reference.redo.reversed())
            #expect(UndoStack.undoTargets(newestFirst, count: 1) == Array(reference.undo.suffix(1)))
        }
    }

    @Test func theTopIsFoundWithoutReadingTheWholeHistory() {
        // 10,000 units, the newest undone twice: the scan reads a handful of entries.
        var history: [(id: String, entry: UndoStack.Entry)] = (0..<10_000).map { ("u\($0)", .unit) }
        history += [("d1", .undo(of: "u9999")), ("d2", .undo(of: "u9998"))]
        var read = 0
        let counted = history.reversed().lazy.map { entry -> (id: String, entry: UndoStack.Entry) in
            read += 1
            return entry
        }
        #expect(UndoStack.undoTargets(counted, count: 1) == ["u9997"])
        #expect(read <= 5)
    }
}

/// A tiny deterministic generator for the tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
