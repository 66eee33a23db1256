/// A command as a user asks for it: items named by queries, not ids. Resolving it against the
/// lists gives a `Command`.
///
/// ```swift
/// let request = ItemRequest.setDone(ItemQuery("milk"), true)
/// let command = try request.resolve(in: lists, context: context, newID: { ItemID.random() })
/// ```
public enum ItemRequest: Hashable, Sendable {
    /// Where a new or moved item goes, with items named by queries.
    public enum Where: Hashable, Sendable {
        case end(file: String?)
        case under(ItemQuery)
        case before(ItemQuery)
        case after(ItemQuery)
    }

    /// A change to an Obsidian Tasks field: its value as written after the emoji (a priority's
    /// name), or none.
    public enum FieldEdit: Hashable, Sendable {
        case set(String)
        case clear

        var value: String? { if case .set(let value) = self { value } else { nil } }
    }

    /// `fields`: values as written after their emoji (a priority's name; a date may be typed
    /// as `CalendarDate(expression:today:)` reads it).
    case add(title: String, at: Where, isDone: Bool = false, notes: String = "", fields: [TaskFieldKind: String] = [:])
    /// Checking off writes today's done date (✅) where `RequestContext` says; unchecking
    /// removes it.
    case setDone(ItemQuery, Bool)
    /// nil stays as it is; fields not named stay as they are.
    case edit(ItemQuery, title: String? = nil, notes: String? = nil, fields: [TaskFieldKind: FieldEdit] = [:])
    case move(ItemQuery, to: Where)
    case remove(ItemQuery)
    /// Settles the item's clashes (`ListDocument.settlingClashes`).
    case settle(ItemQuery, keep: ClashChoice)

    /// Where the request puts an item, if it adds or moves one.
    public var destination: Where? {
        switch self {
        case .add(_, let place, _, _, _), .move(_, let place): place
        default: nil
        }
    }

    /// The request with the file it names (`.end(file:)`) replaced by `path`.
    public func naming(file path: String) -> ItemRequest {
        switch self {
        case .add(let title, .end(_?), let isDone, let notes, let fields):
            .add(title: title, at: .end(file: path), isDone: isDone, notes: notes, fields: fields)
        case .move(let query, .end(_?)): .move(query, to: .end(file: path))
        default: self
        }
    }

    public enum Failure: Error, Hashable, Sendable {
        case query(ItemQuery.Failure)
        case edit(EditError)
        /// No list file to add to, and none was named: the lists there are (none, or several
        /// without a TODO.md).
        case noFile([String])
    }

    /// The command this request asks for, against these lists. `newID` gives an added item its id.
    public func resolve(in lists: ListSet, context: RequestContext, newID: () -> ItemID) throws(Failure) -> Command {
        switch self {
        case .add(let title, let place, let isDone, let notes, let fields):
            var text = title
            for (kind, value) in fields.sorted(by: { $0.key < $1.key }) {
                text = TitleFields.setting(kind, to: Self.written(kind, value, today: context.today), in: text)
            }
            return .add(
                id: newID(), title: text, isDone: isDone, notes: notes,
                at: try placement(place, in: lists, defaultFile: context.defaultFile))
        case .setDone(let query, let done):
            let item = try findItem(query, in: lists, preferring: { $0.isDone != done })
            guard item.isDone != done else { return .setDone(item.id, done) }
            if done, context.writesDoneDate(in: lists[item.file]) {
                return .batch([.setDone(item.id, true), .setField(item.id, .done, context.today.description)])
            }
            if !done, item.doneDate != nil {
                return .batch([.setDone(item.id, false), .setField(item.id, .done, nil)])
            }
            return .setDone(item.id, done)
        case .edit(let query, let title, let notes, let fields):
            let item = try findItem(query, in: lists)
            let id = item.id
            var commands: [Command] = []
            if let title {
                // A new title keeps the item's fields unless it gives its own.
                let old = TitleFields(title: item.title), new = TitleFields(title: title)
                var text = title
                if new.priority == .none, old.priority != .none { text = TitleFields.setting(old.priority, in: text) }
                for (kind, value) in old.values.sorted(by: { $0.key < $1.key }) where new.values[kind] == nil {
                    text = TitleFields.setting(kind, to: value, in: text)
                }
                commands.append(.retitle(id, text))
            }
            for (kind, edit) in fields.sorted(by: { $0.key < $1.key }) {
                commands.append(.setField(id, kind, edit.value.map { Self.written(kind, $0, today: context.today) }))
            }
            if let notes { commands.append(.setNotes(id, notes)) }
            return commands.count == 1 ? commands[0] : .batch(commands)
        case .move(let query, let place):
            return .move(
                try find(query, in: lists), to: try placement(place, in: lists, defaultFile: context.defaultFile))
        case .remove(let query):
            return .remove(try find(query, in: lists))
        case .settle(let query, let choice):
            // Of several items that match, the one with a clash.
            let item = try findItem(
                query, in: lists, preferring: { lists[$0.file]?.hasClash(onLine: $0.line) ?? false })
            return .settle(item.id, keep: choice)
        }
    }

    /// A field's value as it is written: a date typed as `tomorrow` or `fri` becomes the date.
    private static func written(_ kind: TaskFieldKind, _ value: String, today: CalendarDate) -> String {
        guard kind.isDate, let date = CalendarDate(expression: value, today: today) else { return value }
        return date.description
    }

    private func find(_ query: ItemQuery, in lists: ListSet) throws(Failure) -> ItemID {
        try findItem(query, in: lists).id
    }

    private func findItem(
        _ query: ItemQuery, in lists: ListSet, preferring: ((TodoItem) -> Bool)? = nil
    ) throws(Failure) -> TodoItem {
        do {
            return try query.resolve(in: lists, preferring: preferring)
        } catch {
            throw .query(error)
        }
    }

    private func placement(_ place: Where, in lists: ListSet, defaultFile: String?) throws(Failure) -> Placement {
        switch place {
        case .end(let file):
            guard let path = file ?? defaultFile else { throw .noFile(Array(lists.documents.keys)) }
            return .end(file: path)
        case .under(let query): return .under(try find(query, in: lists))
        case .before(let query): return .before(try find(query, in: lists))
        case .after(let query): return .after(try find(query, in: lists))
        }
    }
}

/// What resolving a request needs besides the lists: where `add` goes by default, and what
/// checking an item off writes.
public struct RequestContext: Hashable, Sendable {
    public enum DoneDates: String, Hashable, Sendable, CaseIterable {
        /// Where the item's list already has an item with a done date (✅).
        case auto
        case always
        case never
    }

    /// The list `add` uses when none is named: the one called TODO.md, else the only one; nil
    /// when there are several and none has that name.
    public var defaultFile: String?
    public var today: CalendarDate
    public var doneDates: DoneDates

    public init(defaultFile: String?, today: CalendarDate, doneDates: DoneDates = .auto) {
        self.defaultFile = defaultFile
        self.today = today
        self.doneDates = doneDates
    }

    /// The default file among `paths`: TODO.md, else the only one.
    public static func defaultFile(among paths: some Collection<String>) -> String? {
        paths.contains("TODO.md") ? "TODO.md" : paths.count == 1 ? paths.first : nil
    }

    func writesDoneDate(in document: ListDocument?) -> Bool {
        switch doneDates {
        case .always: true
        case .never: false
        case .auto: document?.hasDoneDates ?? false
        }
    }
}
