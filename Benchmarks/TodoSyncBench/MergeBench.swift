import Foundation
import TodoModel

extension Bench {
    /// The three-way merge in process: 1% of the items edited on each side (renames on one,
    /// checks on the other), so the item-by-item path runs, not the unchanged-side shortcut.
    ///
    /// The sizes take turns, as git and todosync do in the command rows: every merge then
    /// starts with the other size's data in the caches, as a merge in a fresh process would,
    /// rather than with its own from the repeat before (which only the small lists fit).
    ///
    /// In a full run, the same lists cut into 1,000-item pieces, each merged as lists of their
    /// own, take the same turns: that is the merge's work with nothing growing with the whole,
    /// so its 100k / 10k ratio is what linear work measures here, in this run: the reference
    /// the merge row's ratio is read against (docs/PERFORMANCE.md, seventeenth session).
    mutating func merge() {
        let sizes = [Mode.smoke: [1_000], .quick: [10_000], .full: [10_000, 100_000]][mode]!
        let texts = sizes.map { Generate.mergeTexts(items: $0) }
        let whole = texts.map { [Generate.mergeInputs($0)] }
        let pieces = mode == .full ? texts.map { Generate.mergePieces($0, pieceItems: 1_000) } : []
        let inputs = whole + pieces
        var samples = [[Double]](repeating: [], count: inputs.count)
        // NB: twice as many turns as runs: each takes a fraction of a second, and the medians of
        // the 100,000-item merges moved by a tenth from run to run with five.
        for _ in 0..<max(3, runs * 2) {
            for (index, input) in inputs.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                for piece in input {
                    precondition(
                        ListMerge.merge(base: piece.base, ours: piece.ours, theirs: piece.theirs).reports.isEmpty)
                }
                samples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
        }
        let times = samples.map(Measure.median)
        /// The median time of `size` items in the group of inputs at `offset` (whole lists, then
        /// pieces), and its ratio to that group's time for a tenth as many items.
        func scaled(_ size: Int, offset: Int) -> (time: Double, scale: Double?) {
            let time = times[offset + sizes.firstIndex(of: size)!]
            return (time, sizes.firstIndex(of: size / 10).map { time / times[offset + $0] })
        }
        func scaleText(_ scale: Double?, _ size: Int) -> String {
            scale.map { String(format: "%.1f× the %dk time", $0, size / 10_000) } ?? ""
        }
        for size in sizes {
            let (time, scale) = scaled(size, offset: 0)
            // NB: the scaling budget is judged by instruction counts (callgrind, docs/PERFORMANCE.md),
            // not by these times: this machine is shared and noisy.
            row(
                "three-way merge, \(size) items, 1% edited per side (in process)", ms(time), "", scaleText(scale, size),
                "< 250 ms", verdict(time < 0.25))
        }
        guard !pieces.isEmpty else { return }
        for size in sizes {
            let (time, scale) = scaled(size, offset: sizes.count)
            row(
                "the same, \(size) items as \(size / 1_000) lists of 1,000 merged one by one (linear work)", ms(time),
                "", scaleText(scale, size), "reference", "")
        }
    }
}
