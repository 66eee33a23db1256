/// The trailer that marks a commit as todosync's, and what kind of undo unit it is.
/// Later units (undo, redo, sync) add their own kinds; history is the only record.
enum UnitTrailer {
    static let key = "Todosync-Unit"

    enum Kind: String {
        /// Edits made in an editor (or by `git`) since the last commit.
        case edit
        /// The first commit of an adopted repository, or ids written for items added with plain git.
        case adopt
        /// A merge of the remote's changes; as a unit it is the incoming changes.
        case sync
        /// One item command (`todosync add`, `done`, ...).
        case command
        /// Several commands as one unit (`todosync batch`).
        case batch
        /// The inverse of an earlier unit; `Todosync-Undoes` names it.
        case undo
        /// An undone unit applied again; `Todosync-Redoes` names the undo it takes back.
        case redo
    }

    static let undoesKey = "Todosync-Undoes"
    static let redoesKey = "Todosync-Redoes"

    static func line(_ kind: Kind) -> String { "\(key): \(kind.rawValue)" }
}
