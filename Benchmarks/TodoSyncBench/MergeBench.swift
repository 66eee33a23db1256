import Foundation
import TodoModel

extension Bench {
    /// The three-way merge in process: 1% of the items edited on each side (renames on one,
    /// checks on the other), so the item-by-item path runs, not the unchanged-side shortcut.
    ///
    /// The sizes take turns, as git and todosync do in the command rows: every merge then
    /// starts with the other size's data in the caches, as a merge in a fresh process would,
    /// rather than with its own from the repeat before (which only the small lists fit).
    mutating func merge() {
        let sizes = [Mode.smoke: [1_000], .quick: [10_000], .full: [10_000, 100_000]][mode]!
        let inputs = sizes.map { Generate.mergeInputs(items: $0) }
        var samples = [[Double]](repeating: [], count: sizes.count)
        for _ in 0..<max(3, runs / 2) {
            for (index, input) in inputs.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                precondition(ListMerge.merge(base: input.base, ours: input.ours, theirs: input.theirs).reports.isEmpty)
                samples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        for (index, size) in sizes.enumerated() {
            let time = Measure.median(samples[index])
            let smaller = sizes.firstIndex(of: size / 10).map { Measure.median(samples[$0]) }
            let scale = smaller.map { String(format: "%.1f× the %dk time", time / $0, size / 10_000) } ?? ""
            let ok = time < 1 && (smaller.map { time / $0 <= 10 } ?? true)
            row("three-way merge, \(size) items, 1% edited per side (in process)", ms(time), "", scale, "≤ 10× the 10k time; < 1 s", verdict(ok))
        }
    }
}
