import OrderedCollections

extension ListSet {
    /// What changed from `old` to `new`, item by item, field by field.
    ///
    /// Changes come in the new lists' order, removals last in the old order. An item that only
    /// shifted because others were inserted or removed before it is not "moved": among siblings,
    /// the longest run that kept its relative order stays put and only the rest moved.
    ///
    /// - Complexity: O(n log n) in the number of items.
    public static func changes(from old: ListSet, to new: ListSet) -> [Change] {
        changes(from: old.items, to: new.items)
    }

    /// The same, from items already taken out of their lists.
    public static func changes(
        from oldItems: OrderedDictionary<ItemID, TodoItem>, to newItems: OrderedDictionary<ItemID, TodoItem>
    ) -> [Change] {
        let reordered = reorderedItems(oldItems, newItems)
        var result: [Change] = []
        for item in newItems.values {
            guard let before = oldItems[item.id] else {
                result.append(Change(.added, item))
                continue
            }
            if before.isDone != item.isDone { result.append(Change(item.isDone ? .checked : .unchecked, item)) }
            if before.title != item.title, before.plainTitle != item.plainTitle { result.append(Change(.retitled(from: before.title), item)) }
            if before.priority != item.priority { result.append(Change(.reprioritized(from: before.priority), item)) }
            if before.due != item.due { result.append(Change(.dueChanged(from: before.due), item)) }
            if before.notes != item.notes { result.append(Change(.notesEdited, item)) }
            if before.file != item.file || before.parent != item.parent || reordered.contains(item.id) {
                result.append(Change(.moved(fromFile: before.file), item))
            }
        }
        for item in oldItems.values where newItems[item.id] == nil {
            result.append(Change(.removed, item))
        }
        return result
    }

    /// Items that kept file and parent but changed place among their siblings.
    private static func reorderedItems(
        _ old: OrderedDictionary<ItemID, TodoItem>, _ new: OrderedDictionary<ItemID, TodoItem>
    ) -> Set<ItemID> {
        struct Group: Hashable { var file: String; var parent: ItemID? }
        var groups: [Group: [(id: ItemID, oldPosition: Int)]] = [:]
        for item in new.values {
            guard let before = old[item.id], before.file == item.file, before.parent == item.parent else { continue }
            groups[Group(file: item.file, parent: item.parent), default: []].append((item.id, before.position))
        }
        var moved = Set<ItemID>()
        for members in groups.values where members.count > 1 {
            let kept = longestIncreasingRun(members.map(\.oldPosition))
            for (index, member) in members.enumerated() where !kept.contains(index) { moved.insert(member.id) }
        }
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
