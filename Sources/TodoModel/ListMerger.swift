/// The state of one merge: which items stay, where each goes, and which side decided it.
/// Ordering is in `ListMerger+Order.swift`, writing the files in `ListMerger+Render.swift`.
struct ListMerger {
    /// A thing with a place in a container: an item, a line of one version, or a clash marker.
    enum Token: Hashable {
        case item(ItemID)
        /// A line of `side`'s container, by index. Lines of ours and theirs that match a base
        /// line are `.line(.base, i)`.
        case line(MergeSide, Int)
        case marker(Int)
    }

    /// The tokens of a container in each version, and which base lines each side kept.
    ///
    /// NB: a class whose fields never change once built: the merge asks for a container's
    /// sides per entry, and handing out a struct of nine tables copied them (~15% of a merge).
    final class ContainerSides {
        let base: [Token]
        let ours: [Token]
        let theirs: [Token]
        /// Per base line: the matching line of ours / theirs.
        let oursMatch: [Int?]
        let theirsMatch: [Int?]
        /// Tokens in base order, by position.
        let basePosition: [Token: Int]
        /// Tokens of base that a side holds out of their base order (outside its longest run
        /// that kept the order).
        let oursMoved: Set<Token>
        let theirsMoved: Set<Token>

        init(base: [Token], basePosition: [Token: Int], ours: SideTokens, theirs: SideTokens) {
            self.base = base
            self.basePosition = basePosition
            (self.ours, oursMatch, oursMoved) = (ours.tokens, ours.match, ours.moved)
            (self.theirs, theirsMatch, theirsMoved) = (theirs.tokens, theirs.match, theirs.moved)
        }

        func sequence(_ side: MergeSide) -> [Token] {
            switch side {
            case .base: base
            case .ours: ours
            case .theirs: theirs
            }
        }

        func moved(_ token: Token, on side: MergeSide) -> Bool {
            switch side {
            case .base: false
            case .ours: oursMoved.contains(token)
            case .theirs: theirsMoved.contains(token)
            }
        }
    }

    /// One side's tokens of a container, its matches for base's lines, and what it moved.
    struct SideTokens {
        var tokens: [Token]
        var match: [Int?]
        var moved: Set<Token>
    }

    let layouts: [MergeLayout]
    var kept = Set<ItemID>()
    /// For each kept item: the container it goes to and the side whose place it takes.
    var placement: [ItemID: (container: ContainerKey, side: MergeSide)] = [:]
    var sidesCache: [ContainerKey: ContainerSides] = [:]
    var itemReports: [ItemID: [MergeReport.Kind]] = [:]
    var reports: [MergeReport] = []
    var markers: [[UInt8]] = []
    /// Items whose title clashed: the marker that carries the other title.
    var titleClashNotes: [ItemID: Int] = [:]
    var mergedFiles: [String] = []
    /// Clashes keep ours only (reported, not marked): the policy of undo.
    var keepingOurs = false
    /// An item line alike in all three versions is written as it is, not rebuilt from its
    /// parts (the same bytes; tests turn it off to check that).
    var takingAlikeLines = true
    /// Placeholders of folded runs (`StableRuns`) whose last line no text continues (a blank
    /// line, a heading), unlike the placeholder's own item line.
    var placeholdersEndingClosed = Set<ItemID>()

    init(base: MergeLayout, ours: MergeLayout, theirs: MergeLayout) {
        layouts = [base, ours, theirs]
    }

    func layout(_ side: MergeSide) -> MergeLayout { layouts[side.rawValue] }

    /// A side's version of an item; a side that removed an item the merge keeps shows base's.
    func item(_ side: MergeSide, _ id: ItemID) -> MergeLayout.Item? {
        layout(side).item(id) ?? layout(.base).item(id)
    }

    /// Whether the merge keeps an item of base where base had it.
    func isUnmoved(_ id: ItemID) -> Bool { kept.contains(id) && placement[id]?.side == .base }

    mutating func run() -> ListMerge.Outcome {
        decideItems()
        decideFiles()
        return render()
    }

    // MARK: - Which items stay, and where

    private mutating func decideItems() {
        // In file order (base's items, then each side's new ones): the layouts are arrays in that order.
        var inOrder: [ItemID] = []
        inOrder.reserveCapacity(layout(.base).itemIDs.count)
        for id in layout(.base).itemIDs {
            let inOurs = layout(.ours).holds(id)
            let inTheirs = layout(.theirs).holds(id)
            if inOurs && inTheirs {
                inOrder.append(id)
            } else if inOurs != inTheirs, changed(id, on: inOurs ? .ours : .theirs) {
                inOrder.append(id)
                itemReports[id, default: []].append(.keptRemovedItem)
            }
        }
        inOrder += layout(.ours).itemIDs.filter { !layout(.base).holds($0) }
        inOrder += layout(.theirs).itemIDs.filter { !layout(.base).holds($0) && !layout(.ours).holds($0) }
        kept = Set(inOrder)
        for id in inOrder { placement[id] = place(id) }
        // An item stays where it was put; if that is under an item removed on one side, that item stays too.
        var queue = Array(kept)
        while let id = queue.popLast() {
            guard let found = placement[id], case .item(let parent) = found.container, !kept.contains(parent) else { continue }
            kept.insert(parent)
            placement[parent] = place(parent)
            itemReports[parent, default: []].append(.keptRemovedParent)
            queue.append(parent)
        }
        breakCycles()
    }

    /// Whether a side changed an item: a field, its note lines, or its place.
    private mutating func changed(_ id: ItemID, on side: MergeSide) -> Bool {
        guard let mine = layout(side).item(id), let old = layout(.base).item(id) else { return true }
        if mine.title != old.title || mine.isDone != old.isDone || mine.container != old.container { return true }
        if sides(of: old.container).moved(.item(id), on: side) { return true }
        let mineLines = layout(side).container(.item(id))?.lines.map(\.relative) ?? []
        let oldLines = layout(.base).container(.item(id))?.lines.map(\.relative) ?? []
        return mineLines != oldLines
    }

    /// The container an item goes to and whose place it takes: the side that moved it (ours if
    /// both did), else where base had it. A new item goes where its side put it.
    private mutating func place(_ id: ItemID) -> (container: ContainerKey, side: MergeSide) {
        guard let old = layout(.base).item(id) else {
            if let mine = layout(.ours).item(id) { return (mine.container, .ours) }
            // Kept items exist on some side.
            return (layout(.theirs).item(id)?.container ?? .file(""), .theirs)
        }
        let ours = item(.ours, id)?.container ?? old.container
        let theirs = item(.theirs, id)?.container ?? old.container
        let sides = sides(of: old.container)
        let oursMoved = ours != old.container || sides.moved(.item(id), on: .ours)
        let theirsMoved = theirs != old.container || sides.moved(.item(id), on: .theirs)
        if oursMoved && theirsMoved && ours != theirs { itemReports[id, default: []].append(.movedBothWays) }
        if oursMoved { return (ours, .ours) }
        if theirsMoved { return (theirs, .theirs) }
        return (old.container, .base)
    }

    /// Both sides moving items under each other can make a loop; the items in it go to the top
    /// of their file instead.
    private mutating func breakCycles() {
        var done = Set<ItemID>()
        for start in kept.sorted() where !done.contains(start) {
            var path: [ItemID] = []
            var onPath = Set<ItemID>()
            var current: ItemID? = start
            while let id = current, !done.contains(id) {
                if onPath.contains(id) {
                    let file = item(.ours, id)?.path ?? item(.theirs, id)?.path ?? ""
                    placement[id] = (.file(file), .base)
                    itemReports[id, default: []].append(.movedBothWays)
                    break
                }
                path.append(id)
                onPath.insert(id)
                if case .item(let parent)? = placement[id]?.container { current = parent } else { current = nil }
            }
            done.formUnion(path)
        }
    }

    /// Files that stay: on both sides, new on one side, changed on the side that kept them, or
    /// holding an item that goes there.
    private mutating func decideFiles() {
        var paths = Set(layout(.base).documents.keys)
        paths.formUnion(layout(.ours).documents.keys)
        paths.formUnion(layout(.theirs).documents.keys)
        var result = Set<String>()
        for path in paths {
            let base = layout(.base).documents[path]
            let ours = layout(.ours).documents[path]
            let theirs = layout(.theirs).documents[path]
            if (ours != nil && theirs != nil) || (base == nil && (ours != nil || theirs != nil))
                || (ours != nil && ours != base) || (theirs != nil && theirs != base)
            {
                result.insert(path)
            }
        }
        for id in kept {
            if case .file(let path)? = placement[id]?.container { result.insert(path) }
        }
        mergedFiles = result.sorted()
    }

    // MARK: - Containers

    /// The tokens of a container in the three versions, with line matches and stable runs.
    mutating func sides(of key: ContainerKey) -> ContainerSides {
        if let cached = sidesCache[key] { return cached }
        let base = layout(.base).container(key)
        let baseTokens: [Token] = base?.entries.map { entry in
            switch entry {
            case .line(let index): .line(.base, index)
            case .item(let id): .item(id)
            }
        } ?? []
        var basePosition: [Token: Int] = [:]
        for (position, token) in baseTokens.enumerated() { basePosition[token] = position }
        var bySide: [SideTokens] = []
        for side in [MergeSide.ours, .theirs] {
            var match: [Int?]
            var tokens: [Token]
            if let mine = layout(side).container(key) {
                match = ContainerMatch.lines(base: base, side: mine)
                var baseOf = [Int?](repeating: nil, count: mine.lines.count)
                for (baseIndex, sideIndex) in match.enumerated() { if let sideIndex { baseOf[sideIndex] = baseIndex } }
                tokens = mine.entries.map { entry in
                    switch entry {
                    case .line(let index): baseOf[index].map { .line(.base, $0) } ?? .line(side, index)
                    case .item(let id): .item(id)
                    }
                }
            } else {
                // The side removed the container (an item or a file) that the merge may keep: as in base.
                match = (base?.lines ?? []).indices.map { $0 }
                tokens = baseTokens
            }
            let positions = tokens.compactMap { basePosition[$0] }
            let run = ListSet.longestIncreasingRun(positions)
            var moved = Set<Token>()
            for index in positions.indices where !run[index] { moved.insert(baseTokens[positions[index]]) }
            bySide.append(SideTokens(tokens: tokens, match: match, moved: moved))
        }
        let result = ContainerSides(base: baseTokens, basePosition: basePosition, ours: bySide[0], theirs: bySide[1])
        sidesCache[key] = result
        return result
    }
}
