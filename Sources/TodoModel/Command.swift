/// Where an added or moved item goes.
public enum Placement: Hashable, Sendable {
    /// After the last top-level item of the file.
    case end(file: String)
    /// As the last child of the item.
    case under(ItemID)
    /// As the first child of the item.
    case firstUnder(ItemID)
    case before(ItemID)
    case after(ItemID)
    /// Before the line (0-based) of the file: where a removed or moved item stood (inverses).
    case atLine(file: String, line: Int)
}

/// One change to the lists, as a value: applying it is a pure function of the lists, and every
/// command has an inverse (worked out against the lists it is applied to).
///
/// ```swift
/// let command = Command.setDone(id, true)
/// let after = try command.apply(to: lists)
/// let undo = try command.inverse(in: lists)   // .setDone(id, false), if it was open
/// ```
public indirect enum Command: Hashable, Sendable {
    case add(id: ItemID, title: String, isDone: Bool = false, notes: String = "", at: Placement)
    case setDone(ItemID, Bool)
    case retitle(ItemID, String)
    case setNotes(ItemID, String)
    case setPriority(ItemID, Priority)
    case setDue(ItemID, CalendarDate?)
    /// Sets an Obsidian Tasks field to `value` as written after its emoji (a date, a rule, an
    /// id; a priority's name), or removes it (nil).
    case setField(ItemID, TaskFieldKind, String?)
    case remove(ItemID)
    case move(ItemID, to: Placement)
    /// Puts back a removed item's exact lines (ids, notes, children): the inverse of `remove`.
    case restore(ItemID, ListDocument.Block, at: Placement)
    /// Settles the item's clashes, keeping the chosen version (`ListDocument.settlingClashes`).
    case settle(ItemID, keep: ClashChoice)
    /// Several commands as one: applied in order, inverted in reverse order.
    case batch([Command])

    /// The lists after this command.
    public func apply(to lists: ListSet) throws(EditError) -> ListSet {
        var result = lists
        switch self {
        case .add(let id, let title, let isDone, let notes, let placement):
            guard result.path(holding: id) == nil else { throw .duplicateID(id) }
            try ListDocument.validate(title: title)
            var scratch = ListDocument(path: "", bytes: [])
            try scratch.add(title, id: id, isDone: isDone)
            if !notes.isEmpty { try scratch.update(id, notes: notes) }
            // NB: just added above.
            try result.put(scratch.block(of: id)!, at: placement)
        case .setDone(let id, let done):
            try result.update(id) { (document) throws(EditError) in try document.update(id, isDone: done) }
        case .retitle(let id, let title):
            try result.update(id) { (document) throws(EditError) in try document.update(id, title: title) }
        case .setNotes(let id, let notes):
            try result.update(id) { (document) throws(EditError) in try document.update(id, notes: notes) }
        case .setPriority(let id, let priority):
            try result.update(id) { (document) throws(EditError) in try document.update(id, priority: priority) }
        case .setDue(let id, let due):
            try result.update(id) { (document) throws(EditError) in try document.update(id, due: .some(due)) }
        case .setField(let id, let kind, let value):
            try result.update(id) { (document) throws(EditError) in try document.update(id, field: kind, to: value) }
        case .remove(let id):
            _ = try result.takeBlock(of: id)
        case .move(let id, let placement):
            try result.checkNotInside(placement, id)
            let block = try result.takeBlock(of: id)
            try result.put(block, at: placement)
        case .restore(let id, let block, let placement):
            guard result.path(holding: id) == nil else { throw .duplicateID(id) }
            try result.put(block, at: placement, restoring: true)
        case .settle(let id, let choice):
            try result.update(id) { (document) throws(EditError) in
                document = try document.settlingClashes(of: id, keep: choice)
            }
        case .batch(let commands):
            for command in commands { result = try command.apply(to: result) }
        }
        return result
    }

    /// The command that takes `apply(to: lists)` back to `lists`.
    public func inverse(in lists: ListSet) throws(EditError) -> Command {
        switch self {
        case .add(let id, _, _, _, _), .restore(let id, _, _):
            return .remove(id)
        case .setDone(let id, _):
            return .setDone(id, try lists.item(id).isDone)
        case .retitle(let id, _), .setPriority(let id, _), .setDue(let id, _), .setField(let id, _, _):
            // Fields live in the title: the old title puts them back where they were.
            return .retitle(id, try lists.item(id).title)
        case .setNotes(let id, _), .settle(let id, _):
            // The old note lines exactly (a lazily written note is not re-indented): the block back.
            return .batch([.remove(id), try lists.restoring(id)])
        case .remove(let id):
            // Back as it was: its own lines (indentation, endings) at the line it stood on.
            return try lists.restoring(id)
        case .move(let id, _):
            return .batch([.remove(id), try lists.restoring(id)])
        case .batch(let commands):
            var inverses: [Command] = []
            var state = lists
            for command in commands {
                inverses.append(try command.inverse(in: state))
                state = try command.apply(to: state)
            }
            return .batch(inverses.reversed())
        }
    }
}

extension ListSet {
    /// The file that holds the item.
    func path(holding id: ItemID) -> String? {
        documents.first { $0.value.node(for: id) != nil }?.key
    }

    func item(_ id: ItemID) throws(EditError) -> TodoItem {
        guard let path = path(holding: id), let item = self[path]?.item(id: id) else { throw .noSuchItem(id) }
        return item
    }

    /// The command that puts the item's block back exactly where it stands now.
    func restoring(_ id: ItemID) throws(EditError) -> Command {
        guard let path = path(holding: id), let document = self[path], let node = document.node(for: id) else {
            throw .noSuchItem(id)
        }
        // Taken as removing it takes it: the block then knows what it renumbered.
        var taking = document
        let block = try taking.takeBlock(of: id)
        return .restore(id, block, at: .atLine(file: path, line: document.nodeLine(node)))
    }

    mutating func update(_ id: ItemID, _ edit: (inout ListDocument) throws(EditError) -> Void) throws(EditError) {
        guard let path = path(holding: id), var document = self[path] else { throw .noSuchItem(id) }
        try edit(&document)
        self[path] = document
    }

    mutating func takeBlock(of id: ItemID) throws(EditError) -> ListDocument.Block {
        guard let path = path(holding: id), var document = self[path] else { throw .noSuchItem(id) }
        let block = try document.takeBlock(of: id)
        self[path] = document
        return block
    }

    mutating func put(_ block: ListDocument.Block, at placement: Placement, restoring: Bool = false) throws(EditError) {
        let spot: ListDocument.Spot
        let anchor: ItemID?
        switch placement {
        case .end: (spot, anchor) = (.end, nil)
        case .atLine(_, let line): (spot, anchor) = (.atLine(line), nil)
        case .under(let id): (spot, anchor) = (.under(id), id)
        case .firstUnder(let id): (spot, anchor) = (.firstUnder(id), id)
        case .before(let id): (spot, anchor) = (.before(id), id)
        case .after(let id): (spot, anchor) = (.after(id), id)
        }
        let path: String
        if let anchor {
            guard let found = self.path(holding: anchor) else { throw .noSuchItem(anchor) }
            path = found
        } else if case .end(let file) = placement {
            path = file
        } else if case .atLine(let file, _) = placement {
            path = file
        } else {
            path = ""
        }
        var document = self[path] ?? ListDocument(path: path, bytes: [])
        try document.put(block, at: spot, restoring: restoring)
        self[path] = document
    }

    /// A move may not put an item under itself or under one of its own descendants.
    func checkNotInside(_ placement: Placement, _ id: ItemID) throws(EditError) {
        let anchor: ItemID
        switch placement {
        case .end, .atLine: return
        case .under(let other), .firstUnder(let other), .before(let other), .after(let other): anchor = other
        }
        guard let path = path(holding: id), let document = self[path], let node = document.node(for: id),
            let target = document.node(for: anchor)
        else { return }
        if document.subtree(ofNode: node).contains(document.nodeLine(target)) {
            throw .insideItself(title: document.title(ofNode: node))
        }
    }
}
