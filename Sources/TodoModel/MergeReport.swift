/// Something a merge could not settle silently. Nothing was lost; this says where to look.
public struct MergeReport: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Both sides renamed the item (its words before or after the id comment) differently:
        /// the merged title is one side's, the other title is kept in the item's notes.
        case titleClash(kept: String, other: String)
        /// Both sides rewrote the same lines (prose, or an item's notes): both versions are kept
        /// between `todosync clash` comments.
        case linesClash
        /// Removed on one side and changed on the other: kept, with the changes.
        case keptRemovedItem
        /// Removed on one side, and the other side added or changed an item under it: kept.
        case keptRemovedParent
        /// Moved to different places on both sides: one side's place was taken.
        case movedBothWays
        /// Both sides changed one field of the item (its due date, priority, …) differently: the
        /// field has the `kept` value (nil: none), the `other` is in the item's notes.
        case fieldClash(field: String, kept: String?, other: String?)
    }

    public var kind: Kind
    public var file: String
    /// The item concerned (its merged title), if the report is about an item.
    public var item: String?

    public init(_ kind: Kind, file: String, item: String? = nil) {
        self.kind = kind
        self.file = file
        self.item = item
    }

    public var description: String {
        let name = item.map { Change.quoted(TitleFields(title: $0).plainTitle) } ?? ""
        switch kind {
        case .titleClash(_, let other):
            return
                "\(file): \(name) was renamed on both sides; kept this title, the other (\(Change.quoted(other))) is in its notes"
        case .linesClash:
            return item == nil
                ? "\(file): the same lines were changed on both sides; both versions are kept between 'todosync clash' comments"
                : "\(file): the notes of \(name) were changed on both sides; both versions are kept between 'todosync clash' comments"
        case .keptRemovedItem:
            return "\(file): \(name) was removed on one side and changed on the other; kept it"
        case .keptRemovedParent:
            return
                "\(file): \(name) was removed on one side, but the other side added or changed an item under it; kept it"
        case .movedBothWays:
            return "\(file): \(name) was moved to different places on both sides; it is where this side put it"
        case .fieldClash(let field, let kept, let other):
            let keptText = kept.map { "kept \($0)" } ?? "kept it removed"
            let otherText = other.map { "the other value (\($0)) is in its notes" } ?? "the other side removed it"
            return "\(file): the \(field) of \(name) was changed on both sides; \(keptText), \(otherText)"
        }
    }
}
