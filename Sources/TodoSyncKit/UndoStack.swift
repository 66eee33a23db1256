/// The undo and redo stacks, read from first-parent history newest first. Nothing else stores
/// them: every clone, after any restart, push or pull, reads the same stacks from the same
/// history.
///
/// In time order the rules are a stack machine: a unit is pushed on the undo stack and clears
/// the redo stack; an undo pops the unit it names and pushes itself on the redo stack; a redo
/// pops the undo it names and pushes itself (a unit that can be undone again). Read newest
/// first, the top of either stack is found without reading further back than the stacks reach.
enum UndoStack {
    /// What a first-parent commit is to the stacks.
    enum Entry: Hashable, Sendable {
        /// An edit session, a command, a batch, a sync, or a plain git commit that changed a list.
        case unit
        /// An undo of the named commit.
        case undo(of: String)
        /// A redo, taking back the named undo commit.
        case redo(of: String)
        /// Changed no list (ids written, other files): not on either stack.
        case none
    }

    /// The commits `undo count` inverts, newest first: units (or redos) not undone yet.
    static func undoTargets<S: Sequence>(_ history: S, count: Int) -> [String]
    where S.Element == (id: String, entry: Entry) {
        var undone = Set<String>()
        var targets: [String] = []
        guard count > 0 else { return [] }
        for (id, entry) in history {
            switch entry {
            case .undo(let target): undone.insert(target)
            case .unit, .redo:
                guard !undone.contains(id) else { continue }
                targets.append(id)
                if targets.count == count { return targets }
            case .none: continue
            }
        }
        return targets
    }

    /// The undo commits `redo count` takes back, newest first: undos not redone since, above
    /// the newest unit (a new unit clears the redo stack).
    static func redoTargets<S: Sequence>(_ history: S, count: Int) -> [String]
    where S.Element == (id: String, entry: Entry) {
        var redone = Set<String>()
        var targets: [String] = []
        guard count > 0 else { return [] }
        for (id, entry) in history {
            switch entry {
            case .redo(let undo): redone.insert(undo)
            case .undo:
                guard !redone.contains(id) else { continue }
                targets.append(id)
                if targets.count == count { return targets }
            case .unit: return targets
            case .none: continue
            }
        }
        return targets
    }
}
