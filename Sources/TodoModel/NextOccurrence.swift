/// The next occurrence of recurring items that were checked off, as Obsidian Tasks makes it:
/// a copy of the item's line, open, placed on the line above it, with its start, scheduled and
/// due dates moved on by the rule (each kept at its distance from the reference date: due,
/// else scheduled, else start), without its done or cancelled date or block reference, and
/// with today's created date where the item had one.
///
/// Its id is derived from the completed item's id and the date of the occurrence completed
/// (its reference date), so every clone that completes the same occurrence adds the same item,
/// and a sync keeps one; an occurrence already present is not added again.
///
/// ```swift
/// let next = lists.nextOccurrences(checkedIn: changes, today: today)
/// let after = try next.command.map { try $0.apply(to: lists) } ?? lists
/// ```
public struct NextOccurrences: Sendable {
    /// Adds each next occurrence above the item it follows; nil when there is none to add.
    public var command: Command?
    /// The files that get one.
    public var files: Set<String> = []
    /// Each next occurrence's id, with the id of the item it follows.
    public var following: [ItemID: ItemID] = [:]
    /// Rules todosync cannot follow, by the line of the item.
    public var warnings: [Diagnostic] = []
}

extension ListSet {
    /// The next occurrences of the recurring items that `changes` (into these lists) check off.
    /// An item whose next occurrence the same changes already added (Obsidian Tasks adds it
    /// when it checks the item off: an open item of the same title and rule in its file) gets
    /// none from todosync.
    public func nextOccurrences(checkedIn changes: [Change], today: CalendarDate) -> NextOccurrences {
        var result = NextOccurrences()
        var commands: [Command] = []
        var adding = Set<ItemID>()
        var addedElsewhere = Set<[String]>()
        for change in changes {
            guard case .added = change.kind, !change.item.isDone, let rule = change.item.recurrence else { continue }
            addedElsewhere.insert([change.item.file, change.item.plainTitle, rule.lowercased()])
        }
        for change in changes {
            guard case .checked = change.kind, let written = change.item.recurrence else { continue }
            guard !addedElsewhere.contains([change.item.file, change.item.plainTitle, written.lowercased()]) else {
                continue
            }
            // The lists hold the item as checked now; its line may have moved since the change was seen.
            guard let path = path(holding: change.item.id), let item = self[path]?.item(id: change.item.id) else {
                continue
            }
            guard let occurrence = Self.nextOccurrence(of: item, rule: written, today: today) else {
                result.warnings.append(
                    Diagnostic(
                        file: item.file, line: item.line,
                        message:
                            "🔁 \"\(written)\" is not a rule todosync can follow, so no next occurrence was added (docs/FORMAT.md lists the rules it follows)"
                    ))
                continue
            }
            guard self.path(holding: occurrence.id) == nil, adding.insert(occurrence.id).inserted else { continue }
            commands.append(occurrence.command)
            result.files.insert(path)
            result.following[occurrence.id] = item.id
        }
        result.command = commands.isEmpty ? nil : .batch(commands)
        return result
    }

    /// The command that adds the next occurrence of `item`; nil if its rule cannot be followed.
    static func nextOccurrence(
        of item: TodoItem, rule written: String, today: CalendarDate
    ) -> (id: ItemID, command: Command)? {
        guard let rule = RecurrenceRule(written) else { return nil }
        let reference = item.due ?? item.scheduled ?? item.start
        var title = item.title
        if let reference {
            guard let next = rule.next(after: rule.whenDone ? today : reference) else { return nil }
            let shift = next.daysSinceEpoch - reference.daysSinceEpoch
            for (kind, date) in [(TaskFieldKind.start, item.start), (.scheduled, item.scheduled), (.due, item.due)] {
                if let date { title = TitleFields.setting(kind, to: date.adding(days: shift).description, in: title) }
            }
        } else if rule.next(after: today) == nil {
            return nil
        }
        title = TitleFields.setting(.done, to: nil, in: title)
        title = TitleFields.setting(.cancelled, to: nil, in: title)
        if item.created != nil { title = TitleFields.setting(.created, to: today.description, in: title) }
        title = TitleFields.removingBlockReference(from: title)
        let id = ItemID.named("todosync next occurrence \(item.id) \(reference?.description ?? "undated")")
        return (id, .add(id: id, title: title, at: .before(item.id)))
    }
}
