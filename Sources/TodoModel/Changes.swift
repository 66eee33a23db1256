extension ListSet {
    /// What changed from `old` to `new`, item by item, field by field.
    ///
    /// Changes come in the new lists' order, removals last in the old order. An item that only
    /// shifted because others were inserted or removed before it is not "moved": among siblings,
    /// the longest run that kept its relative order stays put and only the rest moved.
    ///
    /// - Complexity: O(n log n) in the number of items.
    public static func changes(from old: ListSet, to new: ListSet) -> [Change] {
        let oldRefs = old.itemRefs()
        let newRefs = new.itemRefs()
        var oldByID: [ItemID: ItemRef] = [:]
        oldByID.reserveCapacity(oldRefs.count)
        for (id, ref) in oldRefs { oldByID[id] = ref }
        var newIDs = Set<ItemID>()
        newIDs.reserveCapacity(newRefs.count)
        let reordered = reorderedItems(oldByID, newRefs)

        var result: [Change] = []
        // The two documents at the current path, looked up once per file rather than per item.
        var documentsPath: String?
        var documents: (old: ListDocument?, new: ListDocument?) = (nil, nil)
        for (id, ref) in newRefs {
            newIDs.insert(id)
            guard let beforeRef = oldByID[id] else {
                if let item = new.item(at: ref) { result.append(Change(.added, item)) }
                continue
            }
            // NB: most items did not change; comparing their bytes avoids building two TodoItems each.
            if beforeRef.path == ref.path, beforeRef.parent == ref.parent, !reordered.contains(id) {
                if ref.path != documentsPath {
                    documentsPath = ref.path
                    documents = (old.documents[ref.path], new.documents[ref.path])
                }
                if let oldDocument = documents.old, let newDocument = documents.new,
                    oldDocument.sameLines(node: beforeRef.node, as: newDocument, node: ref.node)
                {
                    continue
                }
            }
            guard let before = old.item(at: beforeRef), let item = new.item(at: ref) else { continue }
            if before.isDone != item.isDone { result.append(Change(item.isDone ? .checked : .unchecked, item)) }
            if before.title != item.title, before.plainTitle != item.plainTitle { result.append(Change(.retitled(from: before.title), item)) }
            if before.priority != item.priority { result.append(Change(.reprioritized(from: before.priority), item)) }
            if before.due != item.due { result.append(Change(.dueChanged(from: before.due), item)) }
            if before.notes != item.notes { result.append(Change(.notesEdited, item)) }
            if before.file != item.file || before.parent != item.parent || reordered.contains(item.id) {
                result.append(Change(.moved(fromFile: before.file), item))
            }
        }
        for (id, ref) in oldRefs where !newIDs.contains(id) {
            if let item = old.item(at: ref) { result.append(Change(.removed, item)) }
        }
        return result
    }

    /// Items that kept file and parent but changed place among their siblings.
    private static func reorderedItems(_ old: [ItemID: ItemRef], _ new: [(id: ItemID, ref: ItemRef)]) -> Set<ItemID> {
        var moved = Set<ItemID>()
        // `new` comes file by file: sibling groups are keyed by parent within one file's run.
        var groups: [ItemID?: [(id: ItemID, oldPosition: Int)]] = [:]
        var path: String?
        func flush() {
            for members in groups.values where members.count > 1 {
                // Usually nothing moved: positions still increase, and no subsequence search is needed.
                if zip(members, members.dropFirst()).allSatisfy({ $0.oldPosition < $1.oldPosition }) { continue }
                let kept = longestIncreasingRun(members.map(\.oldPosition))
                for (index, member) in members.enumerated() where !kept.contains(index) { moved.insert(member.id) }
            }
            groups.removeAll(keepingCapacity: true)
        }
        for (id, ref) in new {
            if ref.path != path {
                flush()
                path = ref.path
            }
            guard let before = old[id], before.path == ref.path, before.parent == ref.parent else { continue }
            groups[ref.parent, default: []].append((id, before.position))
        }
        flush()
        return moved
    }

    /// Indices of one longest strictly increasing subsequence (patience sorting).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // index into values of the smallest tail for each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result.insert(cursor)
            cursor = previous[cursor]
        }
        return result
    }
}
