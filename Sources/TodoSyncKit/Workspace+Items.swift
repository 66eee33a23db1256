import TodoModel

extension Workspace {
    /// The items of the working files as they are now (edits not yet committed included), in
    /// path and file order, and how many items have no id yet.
    public func items() throws(TodoSyncError) -> (items: [TodoItem], withoutID: Int) {
        let lists = ListSet(try listDocuments())
        let items = Array(lists.items.values)
        let nodes = lists.documents.values.reduce(0) { $0 + $1.nodeCount }
        return (items, max(0, nodes - items.count))
    }
}
