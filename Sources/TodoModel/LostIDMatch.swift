/// Gives items that lost their id back the id they had (docs/FORMAT.md, "Ids that come back").
///
/// An editor that saves a buffer opened before todosync wrote the ids drops them; a slip of the
/// keyboard damages a comment. Such an item is one of the items of the last version that no line
/// carries any more, matched in this order, each pass over the lost items in file order:
/// 1. a damaged comment whose digits are at most two edits from exactly one missing id;
/// 2. the same title, in the same file (the first such missing item first), then in any file;
/// 3. the same place, in a file where other items came back by title (so an editor evidently
///    dropped ids): between the same two items (or the file's start or end), as many lost items
///    as missing ones, paired in order (lines rewritten in place).
///
/// Pure and deterministic: a local commit and a sync, on any clone, decide alike.
struct LostIDMatch {
    /// An item of the last version whose id no line carries now.
    struct Missing {
        var path: String
        var id: ItemID
        var title: String
    }

    /// An item with no readable id.
    struct Lost {
        var path: String
        var node: Int
        var title: String
        /// The hex digits left in a damaged id comment; nil if there is no comment.
        var damagedDigits: [UInt8]?
    }

    /// The items of `base` whose id `isPresent` denies.
    static func missing(from base: ListSet, isPresent: (ItemID) -> Bool) -> [Missing] {
        var result: [Missing] = []
        for (path, document) in base.documents {
            for node in 0..<document.nodeCount {
                guard let id = document.id(ofNode: node), !isPresent(id) else { continue }
                result.append(Missing(path: path, id: id, title: document.title(ofNode: node)))
            }
        }
        return result
    }

    /// For each lost item (by index into `lost`), the missing item's id it takes back.
    ///
    /// - Parameters:
    ///   - base: the version the missing items come from;
    ///   - working: the lists the lost items stand in.
    static func match(_ lost: [Lost], _ missing: [Missing], base: ListSet, working: ListSet) -> [Int: ItemID] {
        var found: [Int: ItemID] = [:]
        var taken = Set<Int>()  // indices into `missing`
        func take(_ lostIndex: Int, _ missingIndex: Int) {
            found[lostIndex] = missing[missingIndex].id
            taken.insert(missingIndex)
        }

        // 1. What is left of a damaged id, if it points at one missing id only.
        let digits = lost.contains { $0.damagedDigits != nil } ? missing.map { hexDigits($0.id.canonicalBytes) } : []
        for (index, item) in lost.enumerated() {
            guard let damaged = item.damagedDigits else { continue }
            let near = missing.indices.filter { !taken.contains($0) && withinTwoEdits(damaged, digits[$0]) }
            if near.count == 1 { take(index, near[0]) }
        }

        // 2. The title, same file first.
        var byTitle: [String: [Int]] = [:]
        for index in missing.indices where !taken.contains(index) {
            byTitle[missing[index].title, default: []].append(index)
        }
        for sameFileOnly in [true, false] {
            for (index, item) in lost.enumerated() where found[index] == nil {
                guard let candidates = byTitle[item.title],
                    let pick = candidates.firstIndex(where: {
                        !taken.contains($0) && (!sameFileOnly || missing[$0].path == item.path)
                    })
                else { continue }
                take(index, candidates[pick])
            }
        }

        // 3. The place, only in a file where items evidently lost their ids (some came back by
        // title): a run of lost items standing between the same two items (present in that file
        // in both versions; or the file's start or end) as a run of missing ones of the same
        // length: lines rewritten in place. Paired in order. (Elsewhere a new line typed where
        // a removed one stood is a new item.)
        let filesThatLostIDs = Set(
            lost.indices.filter { found[$0] != nil && lost[$0].damagedDigits == nil }.map { lost[$0].path })
        for path in Set(lost.indices.filter { found[$0] == nil }.map { lost[$0].path }).intersection(filesThatLostIDs)
            .sorted()
        {
            guard let before = base[path], let now = working[path] else { continue }
            let lostAt = Dictionary(
                uniqueKeysWithValues: lost.indices.filter { lost[$0].path == path }.map { (lost[$0].node, $0) })
            var missingAt: [ItemID: Int] = [:]
            for index in missing.indices where !taken.contains(index) && missing[index].path == path {
                missingAt[missing[index].id] = index
            }
            // Ids in this file in both versions: the anchors.
            let nowIDs = (0..<now.nodeCount).map { lostAt[$0].map { found[$0] } ?? now.id(ofNode: $0) }
            let anchors = Set(nowIDs.compactMap { $0 }).intersection(before.nodeIDs.compactMap { $0 })
            let lostRuns = runs(nowIDs.indices, anchors: anchors) { node in
                nowIDs[node] == nil ? lostAt[node] : nil
            } anchor: {
                nowIDs[$0]
            }
            let missingRuns = runs(before.nodeIDs.indices, anchors: anchors) { node in
                before.id(ofNode: node).flatMap { missingAt[$0] }
            } anchor: {
                before.id(ofNode: $0)
            }
            for (gap, lostRun) in lostRuns {
                guard let missingRun = missingRuns[gap], missingRun.count == lostRun.count else { continue }
                for (lostIndex, missingIndex) in zip(lostRun, missingRun) { take(lostIndex, missingIndex) }
            }
        }
        return found
    }

    /// Between two anchors (nil: the file's start or end), the members in order.
    private struct Gap: Hashable {
        var after: ItemID?
        var before: ItemID?
    }

    /// The runs of members (`member` gives one for a node, or nil) between consecutive anchors.
    private static func runs(
        _ nodes: Range<Int>, anchors: Set<ItemID>, member: (Int) -> Int?, anchor: (Int) -> ItemID?
    ) -> [Gap: [Int]] {
        var result: [Gap: [Int]] = [:]
        var previous: ItemID?
        var run: [Int] = []
        for node in nodes {
            if let id = anchor(node), anchors.contains(id) {
                if !run.isEmpty { result[Gap(after: previous, before: id)] = run }
                previous = id
                run = []
            } else if let member = member(node) {
                run.append(member)
            }
        }
        if !run.isEmpty { result[Gap(after: previous, before: nil)] = run }
        return result
    }

    /// The lowercase hex digits of `bytes`, dashes and other bytes left out.
    static func hexDigits<S: Sequence<UInt8>>(_ bytes: S) -> [UInt8] {
        bytes.compactMap { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): byte
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte | 0x20
            default: nil
            }
        }
    }

    /// Whether at most two insertions, deletions or substitutions turn `a` into `b`.
    static func withinTwoEdits(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let limit = 2
        guard abs(a.count - b.count) <= limit else { return false }
        // Levenshtein over a band of width 2·limit+1 around the diagonal.
        let unreachable = limit + 1
        var previousRow = Array(0...b.count).map { min($0, unreachable) }
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var row = [Int](repeating: unreachable, count: b.count + 1)
            row[0] = min(i, unreachable)
            let low = max(1, i - limit), high = min(b.count, i + limit)
            if low <= high {
                for j in low...high {
                    let substitution = previousRow[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    row[j] = min(substitution, previousRow[j] + 1, row[j - 1] + 1, unreachable)
                }
            }
            guard row.contains(where: { $0 <= limit }) else { return false }
            previousRow = row
        }
        return previousRow[b.count] <= limit
    }
}
