/// Which items `list` shows: every filter given must admit an item.
///
/// ```swift
/// var filter = ItemFilter()
/// filter.minimumPriority = .high
/// items.filter(filter.admits)   // the high and highest ones
/// ```
public struct ItemFilter: Hashable, Sendable {
    public enum State: Hashable, Sendable { case open, done }

    /// Part of the plain title, any case.
    public var text: String? { didSet { loweredText = text.map { Array($0.lowercased().utf8) } } }
    /// `text` lower-cased, once (not for each of a vault's items).
    private var loweredText: [UInt8]?
    public var state: State?
    public var file: String?
    /// This priority or higher.
    public var minimumPriority: Priority?
    /// Due strictly before / after; an item without a due date passes neither.
    public var dueBefore: CalendarDate?
    public var dueAfter: CalendarDate?
    /// Open and due before `today`.
    public var overdue = false
    public var today: CalendarDate?
    /// Has a 🔁 rule.
    public var recurring = false

    public init() {}

    public func admits(_ item: TodoItem) -> Bool {
        // As an item is named: lower-cased, compared scalar by scalar (`ItemQuery`).
        if let loweredText, !ItemQuery.search(loweredText, in: Array(item.plainTitle.utf8)[...]).contains {
            return false
        }
        if let state, item.isDone != (state == .done) { return false }
        if let file, item.file != file { return false }
        if let minimumPriority, item.priority < minimumPriority { return false }
        if let dueBefore, !(item.due.map { $0 < dueBefore } ?? false) { return false }
        if let dueAfter, !(item.due.map { $0 > dueAfter } ?? false) { return false }
        if overdue {
            guard !item.isDone, let due = item.due, let today, due < today else { return false }
        }
        if recurring, item.recurrence == nil { return false }
        return true
    }
}
