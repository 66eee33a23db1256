/// One thing that happened to one item between two versions of the lists.
public struct Change: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case added
        /// Added as the next occurrence of a recurring item checked off in the same unit.
        case addedNextOccurrence
        case removed
        case checked
        case unchecked
        case retitled(from: String)
        case notesEdited
        /// To another parent, another file, or another place among its siblings.
        case moved(fromFile: String)
        case reprioritized(from: Priority)
        case dueChanged(from: CalendarDate?)
        /// Another Obsidian Tasks field (start, scheduled, created, done or cancelled date,
        /// recurrence, task id, depends-on, on-completion): its value before, as written.
        case fieldChanged(TaskFieldKind, from: String?)
    }

    public var kind: Kind
    /// The item after the change (before it, for `.removed`).
    public var item: TodoItem

    public init(_ kind: Kind, _ item: TodoItem) {
        self.kind = kind
        self.item = item
    }

    /// What happened, in words: `Check "Buy milk"`.
    public var phrase: String {
        let name = Self.quoted(item.plainTitle)
        switch kind {
        case .added: return "Add \(name)"
        case .addedNextOccurrence:
            let date =
                (item.due.map { "due \($0)" } ?? item.scheduled.map { "scheduled \($0)" }
                    ?? item.start.map { "starting \($0)" })
            return "Add the next \(name)" + (date.map { " (\($0))" } ?? "")
        case .removed: return "Remove \(name)"
        case .checked: return "Check \(name)"
        case .unchecked: return "Uncheck \(name)"
        case .retitled(let old): return "Rename \(Self.quoted(TitleFields(title: old).plainTitle)) to \(name)"
        case .notesEdited: return "Edit notes of \(name)"
        case .moved(let fromFile):
            return fromFile == item.file ? "Move \(name)" : "Move \(name) from \(fromFile) to \(item.file)"
        case .reprioritized:
            return item.priority == .none ? "Clear priority of \(name)" : "Set priority of \(name) to \(item.priority)"
        case .dueChanged:
            return item.due.map { "Set due date of \(name) to \($0)" } ?? "Clear due date of \(name)"
        case .fieldChanged(let kind, _):
            return item.fieldValue(kind).map { "Set \(kind.name) of \(name) to \($0)" }
                ?? "Clear \(kind.name) of \(name)"
        }
    }

    static func quoted(_ title: String, limit: Int = 60) -> String {
        let shown = title.count > limit ? String(title.prefix(limit - 1)) + "…" : title
        return "\"\(shown)\""
    }
}

extension Change {
    /// `changes` with the items `occurrences` added told as next occurrences, each right after
    /// the check of the item it follows (the check is what the user did).
    public static func tellingNextOccurrences(_ changes: [Change], _ occurrences: [ItemID: ItemID]) -> [Change] {
        guard !occurrences.isEmpty else { return changes }
        var result: [Change] = []
        var held: [ItemID: Change] = [:]
        for change in changes {
            if case .added = change.kind, let completed = occurrences[change.item.id] {
                held[completed] = Change(.addedNextOccurrence, change.item)
            } else {
                result.append(change)
            }
        }
        var told: [Change] = []
        for change in result {
            told.append(change)
            if case .checked = change.kind, let next = held.removeValue(forKey: change.item.id) { told.append(next) }
        }
        return told + held.values.sorted { $0.item.line < $1.item.line }
    }
}
