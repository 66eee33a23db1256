@testable import TodoModel

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
        let notes =
            item.notes.isEmpty
            ? "" : " {\(item.notes.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "⏎"))}"
        return String(repeating: "  ", count: level) + "[\(item.isDone ? "x" : " ")] \(item.title)" + notes
    }
}

extension ListDocument {
    var text: String { String(decoding: render(), as: UTF8.self) }
}
