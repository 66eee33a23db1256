/// A TODO item as a value: what the user sees and edits, derived from a list file.
///
/// ```swift
/// let doc = ListDocument(path: "TODO.md", bytes: Array("- [x] Call Bob ⏫\n".utf8))
/// doc.items.first?.isDone     // true (once the item has an id)
/// doc.items.first?.priority   // .high
/// ```
public struct TodoItem: Hashable, Sendable, Identifiable {
    public var id: ItemID
    /// The title as written, priority and due fields included, id comment excluded.
    public var title: String
    public var isDone: Bool
    /// The lines indented under the item that are not items, with the item's indentation removed.
    public var notes: String
    public var priority: Priority
    public var due: DueDate?
    /// The item this one is nested under, if any.
    public var parent: ItemID?
    /// The index among the items with the same parent in the same file.
    public var position: Int
    /// The list file that holds the item, relative to the repository root.
    public var file: String
    /// The nearest heading above the item (top-level headings only), without `#`s.
    public var section: String?
    /// 1-based line number of the item's first line.
    public var line: Int

    /// The title without priority and due fields: what "renamed" compares.
    public var plainTitle: String { TitleFields(title: title).plainTitle }
}
