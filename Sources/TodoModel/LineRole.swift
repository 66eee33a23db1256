/// What a line is to todosync.
public enum LineRole: Hashable, Sendable {
    /// Not part of any item: headings, prose, tables, code, front matter, blank lines between blocks.
    case prose
    /// The first line of the item with this node index.
    case head(Int)
    /// A line of notes (or a blank line inside) of the item with this node index.
    case note(Int)

    var owner: Int? {
        switch self {
        case .prose: nil
        case .head(let node), .note(let node): node
        }
    }
}

/// A task item as found in the file, before it is turned into a `TodoItem`.
struct ItemNode: Hashable, Sendable {
    var head: TaskHead
    var line: Int
    var parent: Int?
    var children: [Int] = []
    /// One past the last line of the item, its notes and its descendants.
    var subtreeEnd: Int
    /// The nearest ATX heading above the item, if any (line index).
    var headingLine: Int?

    var id: ItemID? {
        if case .valid(let id, _) = head.idComment { id } else { nil }
    }
}
