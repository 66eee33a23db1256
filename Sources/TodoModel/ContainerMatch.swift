/// Which line of a side's container each base line is, for the merge.
///
/// Lines are matched within their gaps between items: the items both versions hold in the same
/// order (by id, a longest increasing run) split the container, and each gap's lines are
/// diffed on their own. So a blank line one side adds after item 1 is not taken for the blank
/// line before item 9 (which read as a move, and two sides making such a "move" lost one
/// line). Lines left over on both sides are then matched by content alone, so a line that a
/// side moved past items is still one line, moved.
///
/// Items as anchors also keep the cost at the edits: a diff of all entries would cost O(N·D)
/// in the lists' length N, where each gap's diff costs only its own lines.
enum ContainerMatch {
    /// Per base line: the index of the side's line it is, or nil where the side has none.
    static func lines(base: MergeLayout.Container?, side: MergeLayout.Container) -> [Int?] {
        guard let base else { return [] }
        // Containers without items (most notes) need only the line diff.
        guard base.entries.count != base.lines.count || side.entries.count != side.lines.count else {
            return matchSequences(base.lines.map(\.relative), side.lines.map(\.relative))
        }
        var result = [Int?](repeating: nil, count: base.lines.count)
        var sideTaken = [Bool](repeating: false, count: side.lines.count)
        func match(_ baseLines: [Int], _ sideLines: [Int]) {
            guard !baseLines.isEmpty, !sideLines.isEmpty else { return }
            let found = matchSequences(
                baseLines.map { base.lines[$0].relative }, sideLines.map { side.lines[$0].relative })
            for (position, sidePosition) in found.enumerated() {
                guard let sidePosition else { continue }
                result[baseLines[position]] = sideLines[sidePosition]
                sideTaken[sideLines[sidePosition]] = true
            }
        }
        var previous = (base: 0, side: 0)
        for anchor in anchors(base, side) + [(base.entries.count, side.entries.count)] {
            match(
                lineIndices(base.entries[previous.base..<anchor.0]), lineIndices(side.entries[previous.side..<anchor.1])
            )
            previous = (anchor.0 + 1, anchor.1 + 1)
        }
        let left = (
            base: result.indices.filter { result[$0] == nil }, side: sideTaken.indices.filter { !sideTaken[$0] }
        )
        match(left.base, left.side)
        return result
    }

    /// Entry positions (base, side) of the items both hold, in an order both keep.
    private static func anchors(_ base: MergeLayout.Container, _ side: MergeLayout.Container) -> [(Int, Int)] {
        var sidePosition: [ItemID: Int] = [:]
        for (position, entry) in side.entries.enumerated() {
            if case .item(let id) = entry { sidePosition[id] = position }
        }
        var pairs: [(Int, Int)] = []
        for (position, entry) in base.entries.enumerated() {
            if case .item(let id) = entry, let other = sidePosition[id] { pairs.append((position, other)) }
        }
        let kept = ListSet.longestIncreasingRun(pairs.map(\.1))
        return pairs.indices.filter { kept[$0] }.map { pairs[$0] }
    }

    private static func lineIndices(_ entries: ArraySlice<MergeLayout.Entry>) -> [Int] {
        entries.compactMap { entry in
            if case .line(let index) = entry { index } else { nil }
        }
    }
}
