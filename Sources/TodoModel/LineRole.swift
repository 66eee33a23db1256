/// What a line is to todosync.
public enum LineRole: Hashable, Sendable {
    /// Not part of any item: headings, prose, tables, code, front matter, blank lines between blocks.
    case prose
    /// The first line of the item with this node index.
    case head(Int)
    /// A line of notes (or a blank line inside) of the item with this node index.
    case note(Int)

    var headNode: Int? {
        if case .head(let node) = self { node } else { nil }
    }

    /// The same role with its node index moved by `shift`.
    func shifted(by shift: Int) -> LineRole {
        switch self {
        case .prose: .prose
        case .head(let node): .head(node + shift)
        case .note(let node): .note(node + shift)
        }
    }

    var owner: Int? {
        switch self {
        case .prose: nil
        case .head(let node), .note(let node): node
        }
    }
}

/// A task item as found in the file, before it is turned into a `TodoItem`.
///
/// NB: 64 bytes (32-bit fields, no per-item array of children), for the reason `TaskHead` gives.
struct ItemNode: Hashable, Sendable {
    var head: TaskHead
    private var storedLine: Int32
    /// -1: no parent task item, and no block around the item (it stands at the document
    /// level); -2: no parent task item, inside another block (a plain list item).
    private var storedParent: Int32
    private var storedSubtreeEnd: Int32
    /// -1: no heading above.
    private var storedHeadingLine: Int32

    init(head: TaskHead, line: Int, parent: Int?, atDocumentLevel: Bool, subtreeEnd: Int, headingLine: Int?) {
        self.head = head
        storedLine = Int32(line)
        storedParent = Int32(parent ?? (atDocumentLevel ? -1 : -2))
        storedSubtreeEnd = Int32(subtreeEnd)
        storedHeadingLine = Int32(headingLine ?? -1)
    }

    var line: Int { Int(storedLine) }
    var parent: Int? { storedParent < 0 ? nil : Int(storedParent) }
    /// No block holds the item: where its line starts, a parse's state is the item alone.
    var isAtDocumentLevel: Bool { storedParent == -1 }
    /// One past the last line of the item, its notes and its descendants.
    var subtreeEnd: Int {
        get { Int(storedSubtreeEnd) }
        set { storedSubtreeEnd = Int32(newValue) }
    }
    /// The nearest ATX heading above the item, if any (line index).
    var headingLine: Int? { storedHeadingLine < 0 ? nil : Int(storedHeadingLine) }

    var id: ItemID? { head.id }
}
