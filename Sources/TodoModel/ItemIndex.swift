/// Where an item stands in a `ListSet`, found without building a `TodoItem`.
///
/// NB: 48 bytes, no reference: a 100,000-item list makes two arrays of these per comparison.
struct ItemRef: Hashable, Sendable {
    var id: ItemID
    var parent: ItemID?
    /// Index of the file in `ListSet.documents`.
    var file: Int32
    var node: Int32
    /// Index among the items with the same parent in the same file.
    var position: Int32
}

extension ListSet {
    /// Every identified item's place, in path order then file order; a later copy of an id is left out.
    ///
    /// - Complexity: O(n) and no strings built: cheap enough to run on every command.
    func itemRefs() -> [ItemRef] {
        let nodeCount = documents.values.reduce(0) { $0 + $1.nodeCount }
        var result: [ItemRef] = []
        result.reserveCapacity(nodeCount)
        var seen = Set<ItemID>(minimumCapacity: nodeCount)
        for (file, document) in documents.values.enumerated() {
            let ids = document.nodeIDs
            // Positions among siblings: the count so far per parent node (the last slot: top level).
            var siblingCount = [Int32](repeating: 0, count: ids.count + 1)
            for (node, id) in ids.enumerated() {
                let parentNode = document.parent(ofNode: node)
                let slot = parentNode ?? ids.count
                let position = siblingCount[slot]
                siblingCount[slot] = position + 1
                guard let id, seen.insert(id).inserted else { continue }
                result.append(
                    ItemRef(
                        id: id, parent: parentNode.flatMap { ids[$0] }, file: Int32(file), node: Int32(node),
                        position: position))
            }
        }
        return result
    }

    /// Every id carried by an item of these lists.
    public var ids: Set<ItemID> {
        var result = Set<ItemID>(minimumCapacity: documents.values.reduce(0) { $0 + $1.nodeCount })
        for document in documents.values { for id in document.nodeIDs { if let id { result.insert(id) } } }
        return result
    }

    /// The `TodoItem` at a place found by `itemRefs()`.
    func item(at ref: ItemRef) -> TodoItem? {
        documents.values[Int(ref.file)].item(node: Int(ref.node), position: Int(ref.position))
    }
}

extension ListDocument {
    /// Whether two items' first lines and note lines hold the same bytes (then no field differs).
    func sameLines(node: Int, as other: ListDocument, node otherNode: Int) -> Bool {
        guard lines[nodeLine(node)].content.sameBytes(as: other.lines[other.nodeLine(otherNode)].content) else {
            return false
        }
        let mine = noteLines(ofNode: node), theirs = other.noteLines(ofNode: otherNode)
        return mine.count == theirs.count
            && zip(mine, theirs).allSatisfy { lines[$0].content.sameBytes(as: other.lines[$1].content) }
    }
}
