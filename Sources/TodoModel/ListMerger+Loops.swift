/// Breaking loops: both sides moving items under each other (A under B on one, B under A on
/// the other) would make the placement a cycle with no way back to a file's top level.
extension ListMerger {
    /// Both sides moving items under each other can make a loop; the items in it go to the top
    /// of their file instead.
    mutating func breakCycles() {
        guard hasCycle() else { return }
        // Walked from each item in id order, so the item a loop is broken at does not depend on
        // which side is ours.
        let starts = (0..<numbering.count).filter { kept[$0] }.sorted { numbering.ids[$0] < numbering.ids[$1] }
        var done = [Bool](repeating: false, count: numbering.count)
        for start in starts where !done[start] {
            var path: [Int] = []
            var onPath = Set<Int>()
            var current: Int? = start
            while let number = current, !done[number] {
                if onPath.contains(number) {
                    // NB: base's file, so that the result does not depend on which side is ours.
                    let file =
                        version(.base, number)?.path ?? item(.ours, number)?.path ?? item(.theirs, number)?.path ?? ""
                    placement[number] = (.file(file), .base)
                    itemReports[numbering.ids[number], default: []].append(.movedBothWays)
                    break
                }
                path.append(number)
                onPath.insert(number)
                current = parent(of: number)
            }
            for number in path { done[number] = true }
        }
    }

    /// The kept item an item is placed under, if any.
    private func parent(of number: Int) -> Int? {
        placement[number].flatMap { itemNumber($0.container) }
    }

    /// Whether following each kept item's placement up to its parent ever comes back round.
    private func hasCycle() -> Bool {
        // 0: not seen, 1: on the current walk, 2: leads to a file's top level.
        var state = [UInt8](repeating: 0, count: numbering.count)
        for start in 0..<numbering.count where kept[start] && state[start] == 0 {
            var path: [Int] = []
            var current: Int? = start
            while let number = current, state[number] != 2 {
                if state[number] == 1 { return true }
                state[number] = 1
                path.append(number)
                current = parent(of: number)
            }
            for number in path { state[number] = 2 }
        }
        return false
    }
}
