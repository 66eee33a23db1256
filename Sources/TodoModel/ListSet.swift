import OrderedCollections

/// Every list file of a repository at one moment (a commit, or the working tree), keyed by path.
///
/// Items are keyed by id across all files: an item moved to another file is the same item.
public struct ListSet: Sendable, Equatable {
    public private(set) var documents: OrderedDictionary<String, ListDocument>

    public init(_ documents: [ListDocument] = []) {
        self.documents = OrderedDictionary(
            uniqueKeysWithValues: documents.sorted { $0.path < $1.path }.map { ($0.path, $0) })
    }

    public subscript(path: String) -> ListDocument? {
        get { documents[path] }
        set {
            guard let newValue else {
                documents.removeValue(forKey: path)
                return
            }
            if let index = documents.index(forKey: path) {
                documents.values[index] = newValue
                return
            }
            // Kept in path order: a new path goes where it sorts (a set holds thousands of files).
            var low = 0, high = documents.count
            while low < high {
                let middle = (low + high) / 2
                if documents.keys[middle] < path { low = middle + 1 } else { high = middle }
            }
            documents.updateValue(newValue, forKey: path, insertingAt: low)
        }
    }

    /// All items that carry an id, in path order then file order. A later duplicate of an id is left out.
    public var items: OrderedDictionary<ItemID, TodoItem> { items(done: nil) }

    /// `items`, only the checked ones (`done` true) or the open ones (false).
    public func items(done wanted: Bool?) -> OrderedDictionary<ItemID, TodoItem> {
        var result = OrderedDictionary<ItemID, TodoItem>()
        for document in documents.values {
            for item in document.items(done: wanted) where result[item.id] == nil { result[item.id] = item }
        }
        return result
    }

    /// Warnings from every file (bytes that are not UTF-8).
    public var diagnostics: [Diagnostic] { documents.values.flatMap(\.diagnostics) }
}
