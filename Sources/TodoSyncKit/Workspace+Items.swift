import TodoModel

extension Workspace {
    /// The items of the working files as they are now (edits not yet committed included), in
    /// path and file order. Items without an id of their own yet are there too, with the id
    /// they would get now (`withoutID` names them): the next commit writes other ids.
    public func items() throws(TodoSyncError) -> (items: [TodoItem], withoutID: Set<ItemID>) {
        let lists = ListSet(try listDocuments())
        var generator = SystemRandomNumberGenerator()
        let assigned = IDAssignment.assign(lists, base: .empty, using: &generator)
        return (Array(assigned.lists.items.values), Set(assigned.writtenIDs))
    }
}
