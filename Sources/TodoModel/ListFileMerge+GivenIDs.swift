extension ListFileMerge {
    /// The base's items without an id that a side holds with an id the base never had: todosync
    /// ran on that side since (its adopt commit wrote the ids), so they are the same items. Each
    /// takes the id written, so the merge sees one item on all three versions, not one removed
    /// and another added.
    ///
    /// Matched as an item that lost its id is matched back (`LostIDMatch`), the roles turned
    /// round: the base's items are the ones without ids, the side's new ids the missing ones.
    /// An item two sides gave different ids keeps its stand-in (the merge then shows both).
    static func givenIDs(base: ListDocument, sides: [ListDocument]) -> [(node: Int, id: ItemID)] {
        let lost = base.nodeIDs.indices.filter { base.id(ofNode: $0) == nil }.map { node in
            LostIDMatch.Lost(
                path: base.path, node: node, title: base.title(ofNode: node),
                damagedDigits: base.damagedIDDigits(ofNode: node))
        }
        guard !lost.isEmpty else { return [] }
        let baseIDs = Set(base.nodeIDs.compactMap { $0 })
        let working = ListSet([base])
        var given: [Int: Set<ItemID>] = [:]
        for side in sides {
            let sideLists = ListSet([side])
            let missing = LostIDMatch.missing(from: sideLists, isPresent: baseIDs.contains)
            guard !missing.isEmpty else { continue }
            for (index, id) in LostIDMatch.match(lost, missing, base: sideLists, working: working) {
                given[lost[index].node, default: []].insert(id)
            }
        }
        let unique = given.compactMap { node, ids in ids.count == 1 ? ids.first.map { (node: node, id: $0) } : nil }
        // NB: an id given to two base items (the sides paired them differently) goes to neither.
        let counts = Dictionary(unique.map { ($0.id, 1) }, uniquingKeysWith: +)
        return unique.filter { counts[$0.id] == 1 }.sorted { $0.node < $1.node }
    }
}
