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
    public var title: String { didSet { plainTitle = TitleFields(title: title).plainTitle } }
    /// The title without its Obsidian Tasks fields: what "renamed" compares. Kept with the
    /// title (worked out once, read by every listing and comparison).
    public private(set) var plainTitle: String
    public var isDone: Bool
    /// The lines indented under the item that are not items, with the item's indentation removed.
    public var notes: String
    public var priority: Priority
    public var due: CalendarDate?
    /// The other Obsidian Tasks fields (`🛫 ⏳ ➕ ✅ ❌ 🔁 🆔 ⛔ 🏁`): nil or empty where the title has none.
    public var start: CalendarDate?
    public var scheduled: CalendarDate?
    public var created: CalendarDate?
    public var doneDate: CalendarDate?
    public var cancelledDate: CalendarDate?
    /// The rule after 🔁, as written (`every week on Monday when done`).
    public var recurrence: String?
    /// Obsidian Tasks' own task id (🆔), for ⛔ dependencies: not todosync's id.
    public var taskID: String?
    public var dependsOn: [String] = []
    /// What Obsidian Tasks does on completion (🏁 `delete`, `keep`).
    public var onCompletion: String?
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

    public init(
        id: ItemID, title: String, plainTitle: String? = nil, isDone: Bool, notes: String, priority: Priority,
        due: CalendarDate?,
        start: CalendarDate? = nil, scheduled: CalendarDate? = nil, created: CalendarDate? = nil,
        doneDate: CalendarDate? = nil,
        cancelledDate: CalendarDate? = nil, recurrence: String? = nil, taskID: String? = nil, dependsOn: [String] = [],
        onCompletion: String? = nil, parent: ItemID?, position: Int, file: String, section: String?, line: Int
    ) {
        self.id = id
        self.title = title
        self.plainTitle = plainTitle ?? TitleFields(title: title).plainTitle
        self.isDone = isDone
        self.notes = notes
        self.priority = priority
        self.due = due
        self.start = start
        self.scheduled = scheduled
        self.created = created
        self.doneDate = doneDate
        self.cancelledDate = cancelledDate
        self.recurrence = recurrence
        self.taskID = taskID
        self.dependsOn = dependsOn
        self.onCompletion = onCompletion
        self.parent = parent
        self.position = position
        self.file = file
        self.section = section
        self.line = line
    }

    /// A field's value as written after its emoji (a date, a rule, ids joined by commas; a
    /// priority's name); nil where the item has none.
    public func fieldValue(_ kind: TaskFieldKind) -> String? {
        switch kind {
        case .priority: priority == .none ? nil : priority.description
        case .due: due?.description
        case .start: start?.description
        case .scheduled: scheduled?.description
        case .created: created?.description
        case .done: doneDate?.description
        case .cancelled: cancelledDate?.description
        case .recurrence: recurrence
        case .id: taskID
        case .dependsOn: dependsOn.isEmpty ? nil : dependsOn.joined(separator: ",")
        case .onCompletion: onCompletion
        }
    }
}
