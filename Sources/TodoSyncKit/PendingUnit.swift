import GitStore
import TodoModel

/// What the working tree holds that the last commit does not: the next undo unit.
public struct PendingUnit {
    /// Item by item, in words.
    public var changes: [Change]
    /// Items that need an id written into their line.
    public var idsToWrite: Int
    /// Ids written for items the last commit already had (adopted from plain git, repaired).
    public var idsAdopted: Int
    /// Warnings about the files (duplicate ids, damaged ids, invalid UTF-8).
    public var diagnostics: [Diagnostic]
    /// List files whose bytes differ from the last commit (ids included).
    public var changedPaths: [String]

    var head: HeadSnapshot
    var working: WorkingSnapshot
    var assigned: IDAssignment.Result

    /// Nothing to commit: every list file holds what the last commit holds.
    public var isEmpty: Bool { changedPaths.isEmpty }

    /// The bytes a list file will hold after ids are written (nil: the file is gone).
    func finalBytes(_ path: String) -> [UInt8]? {
        assigned.lists[path]?.render()
    }
}

extension Workspace {
    /// Reads the last commit and the working tree and works out the next unit, writing nothing.
    public func pending() throws(TodoSyncError) -> PendingUnit {
        let head = try readHead()
        let working = try readWorking(head: head)
        var generator = SystemRandomNumberGenerator()
        let assigned = IDAssignment.assign(working.lists, base: head.base, using: &generator)
        let baseItems = head.base.items
        let changes = ListSet.changes(from: baseItems, to: assigned.lists.items)
        let adopted = assigned.writtenIDs.filter { baseItems[$0] != nil }.count
        var changedPaths: [String] = []
        for path in working.readBytes.keys.sorted() {
            let final = assigned.lists[path]?.render()
            if final != head.files[path]?.bytes { changedPaths.append(path) }
        }
        return PendingUnit(
            changes: changes, idsToWrite: assigned.idsWritten, idsAdopted: adopted,
            diagnostics: working.lists.diagnostics + assigned.diagnostics, changedPaths: changedPaths,
            head: head, working: working, assigned: assigned)
    }
}
