/// Which of several items carrying one id keeps it (a pasted copy; docs/FORMAT.md, "Which id
/// an item gets"). One rule for a local commit and for a commit read in a sync, so every clone
/// decides alike: the occurrence that stands where the id stood in the parent version, judged
/// in this order: the same file, the same parent item, the same title, the same notes, the same
/// neighbours (the items right before and after); the earliest of equals. Without a parent
/// version, or if the id was not in it, the earliest keeps it.
enum DuplicateKeeper {
    struct Place: Equatable {
        var path: String
        var node: Int
    }

    /// The index into `places` of the one that keeps `id`.
    static func keeper(of id: ItemID, among places: [Place], in lists: ListSet, parentVersion: ListSet?) -> Int {
        guard let parentVersion, let original = place(of: id, in: parentVersion),
            let originalDocument = parentVersion[original.path]
        else { return 0 }
        let was = Features(original.node, in: originalDocument)
        let scores = places.map { score($0, lists, original.path, was) }
        // The first of the best: the earliest wins a tie.
        let best = scores.max()
        return scores.indices.first { scores[$0] == best } ?? 0
    }

    /// The criteria met, as bits, the first criterion the highest: the first that differs decides.
    private static func score(_ place: Place, _ lists: ListSet, _ originalPath: String, _ was: Features) -> Int {
        guard let document = lists[place.path] else { return 0 }
        let now = Features(place.node, in: document)
        let criteria = [
            place.path == originalPath, now.parent == was.parent, now.title == was.title, now.notes == was.notes,
            now.previous == was.previous && now.next == was.next, now.previous == was.previous || now.next == was.next,
        ]
        return criteria.reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
    }

    /// What places an item: compared between its version now and in the parent version.
    private struct Features {
        var parent: ItemID?
        var title: String
        var notes: [ArraySlice<UInt8>]
        var previous: ItemID?
        var next: ItemID?

        init(_ node: Int, in document: ListDocument) {
            parent = document.parent(ofNode: node).flatMap(document.id(ofNode:))
            title = document.title(ofNode: node)
            notes = document.noteLines(ofNode: node).map { document.lines[$0].content }
            previous = node > 0 ? document.id(ofNode: node - 1) : nil
            next = node + 1 < document.nodeCount ? document.id(ofNode: node + 1) : nil
        }
    }

    /// The first place `id` stands in `lists`.
    private static func place(of id: ItemID, in lists: ListSet) -> Place? {
        for (path, document) in lists.documents {
            if let node = document.nodeIDs.firstIndex(of: id) { return Place(path: path, node: node) }
        }
        return nil
    }
}
