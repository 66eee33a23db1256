extension ListSet {
    /// What changed from `old` to `new`, item by item, field by field.
    ///
    /// Changes come in the new lists' order, removals last in the old order. An item that only
    /// shifted because others were inserted or removed before it is not "moved": among siblings,
    /// the longest run that kept its relative order stays put and only the rest moved.
    ///
    /// - Complexity: O(n log n) in the number of items.
    ///
    /// `moving`: items an edit moved on purpose. Where keeping either of two runs explains the
    /// change equally well (two siblings swapped), these are the ones called moved.
    public static func changes(from old: ListSet, to new: ListSet, moving: Set<ItemID> = []) -> [Change] {
        changes(from: old, to: new, aligning: true, moving: moving)
    }

    /// `aligning`: when both hold the same items in the same order (an edit of titles, boxes or
    /// notes: the common case), item n of one is item n of the other, found without a table of
    /// ids, and no item changed place among its siblings; tests turn it off to check that.
    static func changes(from old: ListSet, to new: ListSet, aligning: Bool, moving: Set<ItemID> = []) -> [Change] {
        if aligning, let changes = sameItemsChanges(from: old, to: new) { return changes }
        let oldRefs = old.itemRefs()
        let newRefs = new.itemRefs()
        // Each new file's index among the old files (-1: a new file).
        let oldFile = new.documents.keys.map { path in old.documents.index(forKey: path).map(Int32.init) ?? -1 }
        let aligned = aligning && Self.aligned(oldRefs, newRefs)
        // NB: an index into oldRefs, not the ref itself: a quarter of the memory at 100,000 items.
        var oldIndex: [ItemID: Int32] = [:]
        if !aligned {
            oldIndex.reserveCapacity(oldRefs.count)
            for (index, ref) in oldRefs.enumerated() { oldIndex[ref.id] = Int32(index) }
        }
        // nil: none reordered (aligned).
        let reordered = aligned ? nil : reorderedItems(oldRefs, oldIndex, newRefs, oldFile, in: new, moving: moving)
        var kept = [Bool](repeating: false, count: oldRefs.count)

        var result: [Change] = []
        // The two documents of the current file, looked up once per file rather than per item.
        var documentsFile: Int32 = -1
        var documents: (old: ListDocument?, new: ListDocument?) = (nil, nil)
        for (newIndex, ref) in newRefs.enumerated() {
            guard let index = aligned ? newIndex : oldIndex[ref.id].map(Int.init) else {
                if let item = new.item(at: ref) { result.append(Change(.added, item)) }
                continue
            }
            kept[index] = true
            let beforeRef = oldRefs[index]
            let sameFile = beforeRef.file == oldFile[Int(ref.file)]
            // NB: most items did not change; comparing their bytes avoids building two TodoItems each.
            if sameFile, beforeRef.parent == ref.parent, reordered?[newIndex] != true {
                if ref.file != documentsFile {
                    documentsFile = ref.file
                    documents = (old.documents.values[Int(beforeRef.file)], new.documents.values[Int(ref.file)])
                }
                if let oldDocument = documents.old, let newDocument = documents.new,
                    oldDocument.sameLines(node: Int(beforeRef.node), as: newDocument, node: Int(ref.node))
                {
                    continue
                }
            }
            guard let before = old.item(at: beforeRef), let item = new.item(at: ref) else { continue }
            result += Self.changes(
                from: before, to: item, moved: !sameFile || before.parent != item.parent || reordered?[newIndex] == true
            )
        }
        for (index, ref) in oldRefs.enumerated() where !kept[index] {
            if let item = old.item(at: ref) { result.append(Change(.removed, item)) }
        }
        return result
    }

    /// What changed in one item that both sides hold.
    private static func changes(from before: TodoItem, to item: TodoItem, moved: Bool) -> [Change] {
        var result: [Change] = []
        if before.isDone != item.isDone { result.append(Change(item.isDone ? .checked : .unchecked, item)) }
        if before.title != item.title, before.plainTitle != item.plainTitle {
            result.append(Change(.retitled(from: before.title), item))
        }
        if before.priority != item.priority { result.append(Change(.reprioritized(from: before.priority), item)) }
        if before.due != item.due { result.append(Change(.dueChanged(from: before.due), item)) }
        for kind in Self.otherFields {
            // Checking off writes a done date (and unchecking removes it): the check says it.
            if kind == .done, before.isDone != item.isDone { continue }
            let old = before.fieldValue(kind)
            if old != item.fieldValue(kind) { result.append(Change(.fieldChanged(kind, from: old), item)) }
        }
        if before.notes != item.notes { result.append(Change(.notesEdited, item)) }
        if moved { result.append(Change(.moved(fromFile: before.file), item)) }
        return result
    }

    /// The changes where both sides hold the same files and, in each, the same items (ids,
    /// unidentified ones too) in the same order under the same parents: an edit of titles,
    /// boxes, fields or notes, the common case. Only the items whose lines differ are built,
    /// with no table of every item's place (at a million items, building two was most of the
    /// work). nil where the sides differ otherwise, or many items changed: the full comparison
    /// then gives the answer, which this one always equals.
    private static func sameItemsChanges(from old: ListSet, to new: ListSet) -> [Change]? {
        guard old.documents.keys.elementsEqual(new.documents.keys) else { return nil }
        let olds = old.documents.values, news = new.documents.values
        var differing: [(file: Int, node: Int)] = []
        for file in 0..<olds.count {
            let before = olds[file], after = news[file]
            guard before.nodeCount == after.nodeCount else { return nil }
            for node in 0..<before.nodeCount {
                let id = before.id(ofNode: node)
                guard id == after.id(ofNode: node), before.parent(ofNode: node) == after.parent(ofNode: node) else {
                    return nil
                }
                guard id != nil, !before.sameLines(node: node, as: after, node: node) else { continue }
                differing.append((file, node))
                // NB: each is looked for among the items before it (a later copy of an id is
                // left out, as the full comparison leaves it out): few, or the full comparison.
                if differing.count > 16 { return nil }
            }
        }
        var result: [Change] = []
        for (file, node) in differing {
            let before = olds[file], after = news[file]
            let id = before.id(ofNode: node)
            let earlier = olds.prefix(file).contains { document in
                (0..<document.nodeCount).contains { document.id(ofNode: $0) == id }
            }
            if earlier || (0..<node).contains(where: { before.id(ofNode: $0) == id }) { continue }
            // Its place among its siblings (every item with its parent, as `itemRefs` counts).
            let parent = before.parent(ofNode: node)
            let position = (0..<node).count { before.parent(ofNode: $0) == parent }
            guard let was = before.item(node: node, position: position),
                let item = after.item(node: node, position: position)
            else { continue }
            result += changes(from: was, to: item, moved: was.parent != item.parent)
        }
        return result
    }

    /// The fields that have no change kind of their own.
    private static let otherFields = TaskFieldKind.allCases.filter { $0 != .priority && $0 != .due }

    /// Whether ref n of each side is the same item, for every n: then nothing came or went, and
    /// items that kept their file and parent kept their order among their siblings (all items
    /// did), so none of them moved; any other change of place is seen item by item.
    private static func aligned(_ old: [ItemRef], _ new: [ItemRef]) -> Bool {
        old.count == new.count && zip(old, new).allSatisfy { $0.id == $1.id }
    }

    /// For each new ref: whether the item kept file and parent but changed place among its siblings.
    private static func reorderedItems(
        _ old: [ItemRef], _ oldIndex: [ItemID: Int32], _ new: [ItemRef], _ oldFile: [Int32], in lists: ListSet,
        moving: Set<ItemID>
    ) -> [Bool] {
        var moved = [Bool](repeating: false, count: new.count)
        // `new` comes file by file. Within a file, a sibling group is keyed by its parent's node
        // (slot 0: the top level); only a group whose old positions do not increase needs a
        // longest run worked out, which is rare: the first pass only compares neighbours.
        var start = 0
        while start < new.count {
            let file = new[start].file
            var end = start
            while end < new.count, new[end].file == file { end += 1 }
            let document = lists.documents.values[Int(file)]
            var lastPosition = [Int32](repeating: -1, count: document.nodeCount + 1)
            var disordered: Set<Int> = []
            func slot(_ ref: ItemRef) -> Int? {
                guard let index = oldIndex[ref.id] else { return nil }
                let before = old[Int(index)]
                guard before.file == oldFile[Int(file)], before.parent == ref.parent else { return nil }
                return document.parent(ofNode: Int(ref.node)).map { $0 + 1 } ?? 0
            }
            for ref in new[start..<end] {
                guard let slot = slot(ref) else { continue }
                let position = old[Int(oldIndex[ref.id]!)].position  // NB: slot() found it.
                if position <= lastPosition[slot] { disordered.insert(slot) }
                lastPosition[slot] = position
            }
            if !disordered.isEmpty {
                var groups: [Int: [(newIndex: Int, oldPosition: Int)]] = [:]
                for newIndex in start..<end {
                    guard let slot = slot(new[newIndex]), disordered.contains(slot) else { continue }
                    // NB: slot() found the item in the old version, so its index is there.
                    groups[slot, default: []].append((newIndex, Int(old[Int(oldIndex[new[newIndex].id]!)].position)))
                }
                for members in groups.values {
                    var kept = longestIncreasingRun(members.map(\.oldPosition))
                    if !moving.isEmpty {
                        // A run as long without the items moved on purpose explains it as well.
                        let others = members.indices.filter { !moving.contains(new[members[$0].newIndex].id) }
                        let keptOthers = longestIncreasingRun(others.map { members[$0].oldPosition })
                        if keptOthers.filter({ $0 }).count == kept.filter({ $0 }).count {
                            kept = [Bool](repeating: false, count: members.count)
                            for (index, member) in others.enumerated() where keptOthers[index] { kept[member] = true }
                        }
                    }
                    for (index, member) in members.enumerated() where !kept[index] { moved[member.newIndex] = true }
                }
            }
            start = end
        }
        return moved
    }

    /// Which values belong to one longest strictly increasing subsequence (patience sorting),
    /// by index: a mask, not a set (the merge asks this of containers with 100,000 entries).
    static func longestIncreasingRun(_ values: [Int]) -> [Bool] {
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
        var result = [Bool](repeating: false, count: values.count)
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result[cursor] = true
            cursor = previous[cursor]
        }
        return result
    }
}
