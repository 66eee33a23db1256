/// The state of one merge: which items stay, where each goes, and which side decided it.
/// Ordering is in `ListMerger+Order.swift`, writing the files in `ListMerger+Render.swift`,
/// breaking loops of moves in `ListMerger+Loops.swift`.
struct ListMerger {
    /// A thing with a place in a container: an item, a line of one version, or a clash marker.
    enum Token: Hashable {
        /// An item, by its number (`MergeNumbering`).
        case item(Int)
        /// A line of `side`'s container, by index. Lines of ours and theirs that match a base
        /// line are `.line(.base, i)`.
        case line(MergeSide, Int)
        case marker(Int)
    }

    /// The tokens of a container in each version, and which base lines each side kept.
    ///
    /// NB: a class whose fields never change once built: the merge asks for a container's
    /// sides per entry, and handing out a struct of nine tables copied them each time.
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

    /// Where an item goes: the container, and the side whose place it takes.
    typealias Placement = (container: ContainerKey, side: MergeSide)

    let layouts: [MergeLayout]
    let numbering: MergeNumbering
    /// By item number: whether the merge keeps it, and (once decided) where it goes.
    var kept: [Bool]
    var placement: [Placement?]
    var sidesCache: [ContainerKey: ContainerSides] = [:]
    /// The container asked for last: items asked in file order mostly share one (no hashing).
    var lastSides: (key: ContainerKey, sides: ContainerSides)?
    var itemReports: [ItemID: [MergeReport.Kind]] = [:]
    var reports: [MergeReport] = []
    var markers: [[UInt8]] = []
    /// Items whose title or fields clashed: the markers that carry the other side's values.
    var clashNotes: [ItemID: [Int]] = [:]
    var mergedFiles: [String] = []
    /// Clashes keep ours only (reported, not marked): the policy of undo.
    var keepingOurs = false
    /// An item line alike in all three versions is written as it is, not rebuilt from its
    /// parts (the same bytes; tests turn it off to check that).
    var takingAlikeLines = true

    init(base: MergeLayout, ours: MergeLayout, theirs: MergeLayout) {
        layouts = [base, ours, theirs]
        numbering = MergeNumbering(base: base, ours: ours, theirs: theirs)
        kept = Array(repeating: false, count: numbering.count)
        placement = Array(repeating: nil, count: numbering.count)
    }

    func layout(_ side: MergeSide) -> MergeLayout { layouts[side.rawValue] }

    /// A version's own copy of an item, if it holds it.
    func version(_ side: MergeSide, _ number: Int) -> MergeLayout.Item? {
        numbering.slots[number][side].map { layout(side).item(atSlot: $0) }
    }

    /// A side's version of an item; a side that removed an item the merge keeps shows base's.
    func item(_ side: MergeSide, _ number: Int) -> MergeLayout.Item? {
        version(side, number) ?? version(.base, number)
    }

    /// An item's body (notes and children) in a version that holds the item.
    func body(_ side: MergeSide, _ number: Int) -> MergeLayout.Container? {
        numbering.slots[number][side].map { layout(side).body(atSlot: $0) }
    }

    /// The number of the item a container key names, if any version holds it.
    func itemNumber(_ key: ContainerKey) -> Int? {
        if case .item(let id) = key { numbering.number(of: id) } else { nil }
    }

    mutating func run() -> ListMerge.Outcome {
        decideItems()
        decideFiles()
        let files = renderFiles()
        // A clash inside an unsettled clash's version joins that block (blocks never nest).
        return ListMerge.Outcome(
            lists: ListSet(
                files.map { ListDocument(path: $0.path, lines: ClashMarker.joiningNested($0.lines) ?? $0.lines) }),
            reports: reports)
    }

    // MARK: - Which items stay, and where

    private mutating func decideItems() {
        // In number order (base's items in file order, then each side's new ones).
        var inOrder: [Int] = []
        inOrder.reserveCapacity(numbering.count)
        for number in 0..<numbering.baseCount {
            let inOurs = numbering.holds(number, on: .ours)
            let inTheirs = numbering.holds(number, on: .theirs)
            if inOurs && inTheirs {
                inOrder.append(number)
            } else if inOurs != inTheirs, changed(number, on: inOurs ? .ours : .theirs) {
                inOrder.append(number)
                itemReports[numbering.ids[number], default: []].append(.keptRemovedItem)
            }
        }
        inOrder += numbering.baseCount..<numbering.count
        for number in inOrder { kept[number] = true }
        for number in inOrder { placement[number] = place(number) }
        // An item stays where it was put; if that is under an item removed on one side, that item stays too.
        var queue = inOrder
        while let number = queue.popLast() {
            guard let parent = placement[number].flatMap({ itemNumber($0.container) }), !kept[parent] else { continue }
            kept[parent] = true
            placement[parent] = place(parent)
            itemReports[numbering.ids[parent], default: []].append(.keptRemovedParent)
            queue.append(parent)
        }
        breakCycles()
    }

    /// Whether a side changed an item: a field, its note lines, or its place.
    private mutating func changed(_ number: Int, on side: MergeSide) -> Bool {
        guard let mine = version(side, number), let old = version(.base, number) else { return true }
        if mine.title != old.title || mine.after != old.after || mine.isDone != old.isDone
            || mine.container != old.container
        {
            return true
        }
        if sides(of: old.container).moved(.item(number), on: side) { return true }
        let mineLines = body(side, number)?.lines.map(\.relative) ?? []
        let oldLines = body(.base, number)?.lines.map(\.relative) ?? []
        return mineLines != oldLines
    }

    /// The container an item goes to and whose place it takes: the side that moved it, else
    /// where base had it. A new item goes where its side put it. Moved to two containers, it
    /// goes to the one that sorts first, so that the merge does not depend on which side is
    /// ours (the other may be an item that side removed, which the move would keep); undo
    /// (`keepingOurs`) keeps ours'. Moved within one container on both sides: ours' place.
    private mutating func place(_ number: Int) -> Placement {
        guard let old = version(.base, number) else {
            if let mine = version(.ours, number) { return (mine.container, .ours) }
            // Kept items exist on some side.
            return (version(.theirs, number)?.container ?? .file(""), .theirs)
        }
        let ours = version(.ours, number)?.container ?? old.container
        let theirs = version(.theirs, number)?.container ?? old.container
        let sides = sides(of: old.container)
        let oursMoved = ours != old.container || sides.moved(.item(number), on: .ours)
        let theirsMoved = theirs != old.container || sides.moved(.item(number), on: .theirs)
        if oursMoved && theirsMoved && ours != theirs {
            itemReports[numbering.ids[number], default: []].append(.movedBothWays)
            if !keepingOurs, theirs.sortsBefore(ours) { return (theirs, .theirs) }
        }
        if oursMoved { return (ours, .ours) }
        if theirsMoved { return (theirs, .theirs) }
        return (old.container, .base)
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
        var last: String?
        for number in 0..<numbering.count where kept[number] {
            guard case .file(let path)? = placement[number]?.container, path != last else { continue }
            result.insert(path)
            last = path
        }
        mergedFiles = result.sorted()
    }

    // MARK: - Containers

    /// The tokens of a container in the three versions, with line matches and stable runs.
    mutating func sides(of key: ContainerKey) -> ContainerSides {
        if let lastSides, lastSides.key == key { return lastSides.sides }
        if let cached = sidesCache[key] {
            lastSides = (key, cached)
            return cached
        }
        let base = layout(.base).container(key)
        let baseTokens: [Token] =
            base?.entries.map { entry in
                switch entry {
                case .line(let index): .line(.base, index)
                case .item(let id): .item(numbering.number(of: id)!)  // NB: every item of a layout is numbered.
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
                    // NB: every item of a layout is numbered.
                    case .item(let id): .item(numbering.number(of: id)!)
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
        lastSides = (key, result)
        return result
    }
}
