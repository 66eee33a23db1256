import TodoModel

extension Bench {
    /// The three-way merge in process: 1% of the items edited on each side (renames on one,
    /// checks on the other), so the item-by-item path runs, not the unchanged-side shortcut.
    mutating func merge() {
        var seconds: [Int: Double] = [:]
        for size in [Mode.smoke: [1_000], .quick: [10_000], .full: [10_000, 100_000]][mode]! {
            let (base, ours, theirs) = Generate.mergeInputs(items: size)
            let time = Measure.inProcess(repeats: max(3, runs / 2)) {
                precondition(ListMerge.merge(base: base, ours: ours, theirs: theirs).reports.isEmpty)
            }
            seconds[size] = time
            let smaller = seconds[size / 10]
            let scale = smaller.map { String(format: "%.1f× the %dk time", time / $0, size / 10_000) } ?? ""
            let ok = time < 1 && (smaller.map { time / $0 <= 10 } ?? true)
            row("three-way merge, \(size) items, 1% edited per side (in process)", ms(time), "", scale, "≤ 10× the 10k time; < 1 s", verdict(ok))
        }
    }
}
