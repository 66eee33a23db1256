/// How a user names an item on the command line: a unique part of its title (any case), or the
/// start of its id (at least 4 hex digits).
///
/// ```swift
/// try ItemQuery("milk").resolve(in: lists)   // the one item whose title holds "milk"
/// try ItemQuery("0f6c").resolve(in: lists)   // the one item whose id starts 0F6C
/// ```
public struct ItemQuery: Hashable, Sendable, CustomStringConvertible {
    public let text: String

    public init(_ text: String) { self.text = text }

    public var description: String { text }

    public enum Failure: Error, Hashable, Sendable {
        case noMatch(String)
        case ambiguous(String, candidates: [TodoItem])
    }

    /// The one item the query names. Where several match, those `preferring` accepts are asked
    /// first (`done` looks at open items, `reopen` at done ones, as Taskwarrior's `done` looks
    /// at pending tasks): a recurring chore's open occurrence beside the ones checked before.
    public func resolve(in lists: ListSet, preferring: ((TodoItem) -> Bool)? = nil) throws(Failure) -> TodoItem {
        do {
            return try resolveAll(in: lists)
        } catch {
            guard case .ambiguous(_, let candidates) = error, let preferring else { throw error }
            let preferred = candidates.filter(preferring)
            if preferred.count == 1 { return preferred[0] }
            if preferred.count > 1 { throw .ambiguous(text, candidates: preferred) }
            throw error
        }
    }

    private func resolveAll(in lists: ListSet) throws(Failure) -> TodoItem {
        let items = Array(lists.items.values)
        let needle = text.lowercased()
        let hex = needle.filter { $0 != "-" }
        if hex.count >= 4, hex.allSatisfy({ $0.isHexDigit }) {
            let matches = items.filter { $0.id.description.lowercased().filter { $0 != "-" }.hasPrefix(hex) }
            if matches.count == 1 { return matches[0] }
            if matches.count > 1 { throw .ambiguous(text, candidates: matches) }
        }
        // An exact title wins over titles that merely contain the text.
        let exact = items.filter { $0.plainTitle.lowercased() == needle || $0.title.lowercased() == needle }
        if exact.count == 1 { return exact[0] }
        let containing = exact.count > 1 ? exact : items.filter { $0.title.lowercased().contains(needle) }
        if containing.count == 1 { return containing[0] }
        if containing.isEmpty { throw .noMatch(text) }
        throw .ambiguous(text, candidates: containing)
    }
}
