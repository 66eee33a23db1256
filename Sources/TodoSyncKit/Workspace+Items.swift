import TodoModel

extension Workspace {
    /// The items of the working files as they are now (edits not yet committed included), in
    /// path and file order. Items without an id of their own yet are there too, with the id
    /// they would get now (`withoutID` names them): the next commit writes other ids.
    /// `done`: only the checked items (true) or the open ones (false); nil: all.
    public func items(done: Bool? = nil) throws(TodoSyncError) -> (items: [TodoItem], withoutID: Set<ItemID>) {
        let lists = ListSet(try listDocuments())
        var generator = SystemRandomNumberGenerator()
        let assigned = IDAssignment.assign(lists, base: .empty, using: &generator)
        return (Array(assigned.lists.items(done: done).values), Set(assigned.writtenIDs))
    }

    /// The list file `given` names (a path as typed, relative to where todosync started, or
    /// from the root), relative to the root; an error naming the lists there are where it is
    /// none of them.
    public func namedList(_ given: String) throws(TodoSyncError) -> String {
        let lists = try listDocuments().map(\.path).sorted()
        if lists.contains(given) { return given }
        let path = try listPath(given)
        guard lists.contains(path) else {
            throw TodoSyncError(
                "\(given) is not a list here",
                hint: lists.isEmpty ? UnbornBranch.firstListHint : "the lists: " + lists.prefix(20).joined(separator: ", ") + (lists.count > 20 ? ", …" : ""))
        }
        return path
    }
}
