extension ListFileMerge {
    /// The base's items without an id that a side holds with an id the base never had: todosync
    /// ran on that side since (its adopt commit wrote the ids), so they are the same items. Each
    /// takes the id written, so the merge sees one item on all three versions, not one removed
    /// and another added.
    ///
    /// A side's item matches by its line without the id comment, then by title, in file order.
    /// An item two sides gave different ids keeps its stand-in (the merge then shows both).
    static func givenIDs(base: ListDocument, sides: [ListDocument]) -> [(node: Int, id: ItemID)] {
        let withoutID = base.nodeIDs.indices.filter { base.id(ofNode: $0) == nil }
        guard !withoutID.isEmpty else { return [] }
        let baseIDs = Set(base.nodeIDs.compactMap { $0 })
        var given: [Int: Set<ItemID>] = [:]
        for side in sides {
            let newIDs = side.nodeIDs.compactMap { $0 }.filter { !baseIDs.contains($0) }
            guard !newIDs.isEmpty else { continue }
            var stripped = side
            stripped.removeIDComments(of: Set(newIDs))
            var baseLeft = withoutID
            var sideLeft = side.nodeIDs.indices.filter { side.id(ofNode: $0).map { !baseIDs.contains($0) } ?? false }
            for key in [Self.lineKey, Self.titleKey] {
                var waiting: [[UInt8]: [Int]] = [:]
                for node in baseLeft { waiting[key(base, node), default: []].append(node) }
                var unmatched: [Int] = []
                for node in sideLeft {
                    let value = key(stripped, node)
                    guard let baseNode = waiting[value]?.first, let id = side.id(ofNode: node) else {
                        unmatched.append(node)
                        continue
                    }
                    waiting[value]?.removeFirst()
                    given[baseNode, default: []].insert(id)
                }
                baseLeft = waiting.values.flatMap { $0 }.sorted()
                sideLeft = unmatched
            }
        }
        let unique = given.compactMap { node, ids in ids.count == 1 ? (node: node, id: ids.first!) : nil }
        // NB: an id given to two base items (the sides paired them differently) goes to neither.
        let counts = Dictionary(unique.map { ($0.id, 1) }, uniquingKeysWith: +)
        return unique.filter { counts[$0.id] == 1 }.sorted { $0.node < $1.node }
    }

    private static func lineKey(_ document: ListDocument, _ node: Int) -> [UInt8] {
        Array(document.lines[document.nodeLine(node)].content)
    }

    private static func titleKey(_ document: ListDocument, _ node: Int) -> [UInt8] {
        Array(document.title(ofNode: node).utf8)
    }
}
