@testable import TodoModel

/// A small deterministic generator for tests (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Parses `text` and gives every item a name-based id, as if it were a commit's file.
func identified(_ text: String, path: String = "TODO.md") -> ListDocument {
    let document = ListDocument(path: path, bytes: Array(text.utf8))
    return IDAssignment.resolveBase(ListSet([document]), commit: "test").lists[path]!
}

/// One line per item: nesting as two spaces, `x` or space for the box, the title, {notes}.
func outline(_ text: String) -> [String] {
    let document = identified(text)
    let items = document.items
    var depth: [ItemID: Int] = [:]
    return items.map { item in
        let level = item.parent.flatMap { depth[$0] }.map { $0 + 1 } ?? 0
        depth[item.id] = level
        let notes = item.notes.isEmpty ? "" : " {\(item.notes.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "⏎"))}"
        return String(repeating: "  ", count: level) + "[\(item.isDone ? "x" : " ")] \(item.title)" + notes
    }
}

extension ListDocument {
    var text: String { String(decoding: render(), as: UTF8.self) }
}
