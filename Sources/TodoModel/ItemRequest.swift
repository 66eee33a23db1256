/// A command as a user asks for it: items named by queries, not ids. Resolving it against the
/// lists gives a `Command`.
///
/// ```swift
/// let request = ItemRequest.setDone(ItemQuery("milk"), true)
/// let command = try request.resolve(in: lists, newID: { ItemID.random() })
/// ```
public enum ItemRequest: Hashable, Sendable {
    /// Where a new or moved item goes, with items named by queries.
    public enum Where: Hashable, Sendable {
        case end(file: String?)
        case under(ItemQuery)
        case before(ItemQuery)
        case after(ItemQuery)
    }

    case add(title: String, at: Where, isDone: Bool = false, notes: String = "", priority: Priority? = nil, due: DueDate? = nil)
    case setDone(ItemQuery, Bool)
    /// nil fields stay as they are; `due: .some(nil)` clears the due date.
    case edit(ItemQuery, title: String? = nil, notes: String? = nil, priority: Priority? = nil, due: DueDate?? = nil)
    case move(ItemQuery, to: Where)
    case remove(ItemQuery)

    /// Where the request puts an item, if it adds or moves one.
    public var destination: Where? {
        switch self {
        case .add(_, let place, _, _, _, _), .move(_, let place): place
        default: nil
        }
    }

    /// The request with the file it names (`.end(file:)`) replaced by `path`.
    public func naming(file path: String) -> ItemRequest {
        switch self {
        case .add(let title, .end(_?), let isDone, let notes, let priority, let due):
            .add(title: title, at: .end(file: path), isDone: isDone, notes: notes, priority: priority, due: due)
        case .move(let query, .end(_?)): .move(query, to: .end(file: path))
        default: self
        }
    }

    public enum Failure: Error, Hashable, Sendable {
        case query(ItemQuery.Failure)
        case edit(EditError)
        /// No list file to add to, and none was named.
        case noFile
    }

    /// The command this request asks for, against these lists. `newID` gives an added item its id.
    public func resolve(in lists: ListSet, defaultFile: String?, newID: () -> ItemID) throws(Failure) -> Command {
        switch self {
        case .add(let title, let place, let isDone, let notes, let priority, let due):
            var text = title
            if let priority { text = TitleFields.setting(priority, in: text) }
            if let due { text = TitleFields.setting(.some(due), in: text) }
            return .add(id: newID(), title: text, isDone: isDone, notes: notes, at: try placement(place, in: lists, defaultFile: defaultFile))
        case .setDone(let query, let done):
            return .setDone(try find(query, in: lists), done)
        case .edit(let query, let title, let notes, let priority, let due):
            let item = try findItem(query, in: lists)
            let id = item.id
            var commands: [Command] = []
            if let title {
                // A new title keeps the item's priority and due date unless it gives its own.
                let fields = TitleFields(title: title)
                var text = title
                if fields.priority == .none, item.priority != .none { text = TitleFields.setting(item.priority, in: text) }
                if fields.due == nil, let old = item.due { text = TitleFields.setting(.some(old), in: text) }
                commands.append(.retitle(id, text))
            }
            if let priority { commands.append(.setPriority(id, priority)) }
            if let due { commands.append(.setDue(id, due)) }
            if let notes { commands.append(.setNotes(id, notes)) }
            return commands.count == 1 ? commands[0] : .batch(commands)
        case .move(let query, let place):
            return .move(try find(query, in: lists), to: try placement(place, in: lists, defaultFile: defaultFile))
        case .remove(let query):
            return .remove(try find(query, in: lists))
        }
    }

    private func find(_ query: ItemQuery, in lists: ListSet) throws(Failure) -> ItemID {
        try findItem(query, in: lists).id
    }

    private func findItem(_ query: ItemQuery, in lists: ListSet) throws(Failure) -> TodoItem {
        do {
            return try query.resolve(in: lists)
        } catch {
            throw .query(error)
        }
    }

    private func placement(_ place: Where, in lists: ListSet, defaultFile: String?) throws(Failure) -> Placement {
        switch place {
        case .end(let file):
            guard let path = file ?? defaultFile else { throw .noFile }
            return .end(file: path)
        case .under(let query): return .under(try find(query, in: lists))
        case .before(let query): return .before(try find(query, in: lists))
        case .after(let query): return .after(try find(query, in: lists))
        }
    }
}
