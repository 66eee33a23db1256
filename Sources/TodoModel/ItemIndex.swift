/// Where an item stands in a `ListSet`, found without building a `TodoItem`.
struct ItemRef: Hashable, Sendable {
    var path: String
    var node: Int
    var parent: ItemID?
    /// Index among the items with the same parent in the same file.
    var position: Int
}

extension ListSet {
    /// Every identified item's place, in path order then file order; a later copy of an id is left out.
    ///
    /// - Complexity: O(n) and no strings built: cheap enough to run on every command.
    func itemRefs() -> [(id: ItemID, ref: ItemRef)] {
        var result: [(id: ItemID, ref: ItemRef)] = []
        var seen = Set<ItemID>()
        for (path, document) in documents {
            let ids = document.nodeIDs
            result.reserveCapacity(result.count + ids.count)
            var siblingCount: [Int: Int] = [:]
            var topLevel = 0
            for (node, id) in ids.enumerated() {
                let parentNode = document.parent(ofNode: node)
                let position: Int
                if let parentNode {
                    position = siblingCount[parentNode, default: 0]
                    siblingCount[parentNode] = position + 1
                } else {
                    position = topLevel
                    topLevel += 1
                }
                guard let id, seen.insert(id).inserted else { continue }
                result.append((id, ItemRef(path: path, node: node, parent: parentNode.flatMap { ids[$0] }, position: position)))
            }
        }
        return result
    }

    /// Every id carried by an item of these lists.
    public var ids: Set<ItemID> {
        var result = Set<ItemID>()
        for document in documents.values { for id in document.nodeIDs { if let id { result.insert(id) } } }
        return result
    }

    /// The `TodoItem` at a place found by `itemRefs()`.
    func item(at ref: ItemRef) -> TodoItem? {
        documents[ref.path]?.item(node: ref.node, position: ref.position)
    }
}

extension ListDocument {
    /// Whether two items' first lines and note lines hold the same bytes (then no field differs).
    func sameLines(node: Int, as other: ListDocument, node otherNode: Int) -> Bool {
        guard lines[nodeLine(node)].content.sameBytes(as: other.lines[other.nodeLine(otherNode)].content) else { return false }
        let mine = noteLines(ofNode: node), theirs = other.noteLines(ofNode: otherNode)
        return mine.count == theirs.count
            && zip(mine, theirs).allSatisfy { lines[$0].content.sameBytes(as: other.lines[$1].content) }
    }
}
