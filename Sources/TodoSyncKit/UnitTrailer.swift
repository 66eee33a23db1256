/// The trailer that marks a commit as todosync's, and what kind of undo unit it is.
/// Later units (undo, redo, sync) add their own kinds; history is the only record.
enum UnitTrailer {
    static let key = "Todosync-Unit"

    enum Kind: String {
        /// Edits made in an editor (or by `git`) since the last commit.
        case edit
        /// The first commit of an adopted repository.
        case adopt
    }

    static func line(_ kind: Kind) -> String { "\(key): \(kind.rawValue)" }
}
