/// The three-way merge of two versions of the lists by item id and field (docs/MERGE.md).
///
/// Items are matched by id across all files; each field takes the side that changed it; titles
/// edited on both sides merge word by word; notes, headings and prose merge line by line; the
/// order of each list merges the moves and insertions of both sides. What cannot be settled is
/// kept twice, visibly, and reported: a merge never loses an edit and never fails.
///
/// ```swift
/// let outcome = ListMerge.merge(base: base, ours: ours, theirs: theirs)
/// outcome.lists      // the merged files
/// outcome.reports    // clashes and kept items, in words
/// ```
///
/// All three versions must be identified (`IDAssignment.resolveBase`): every item carries an id.
public enum ListMerge {
    public struct Outcome: Sendable {
        public var lists: ListSet
        public var reports: [MergeReport]
    }

    /// Merges `ours` and `theirs`, two descendants of `base`.
    ///
    /// - Complexity: O(n log n) in the number of lines, plus O(D²) per list for D changed lines.
    ///
    /// `keepingOurs`: where both sides changed the same title or lines differently, ours stays
    /// and theirs is only reported (no clash markers, no note): how undo lets a later edit win.
    public static func merge(base: ListSet, ours: ListSet, theirs: ListSet, keepingOurs: Bool = false) -> Outcome {
        if ours == theirs || theirs == base { return Outcome(lists: ours, reports: []) }
        if ours == base { return Outcome(lists: theirs, reports: []) }
        return mergeItemByItem(base: base, ours: ours, theirs: theirs, keepingOurs: keepingOurs)
    }

    /// The merge without the shortcuts for an unchanged side (tests check the laws on it).
    /// Runs of items no side touched are folded away first (`StableRuns`) unless `folding` is
    /// off; an item line alike in all three is taken as it is unless `takingAlikeLines` is off.
    static func mergeItemByItem(
        base: ListSet, ours: ListSet, theirs: ListSet, folding: Bool = true, keepingOurs: Bool = false,
        takingAlikeLines: Bool = true
    ) -> Outcome {
        if folding,
            let outcome = mergeFolded(
                base: base, ours: ours, theirs: theirs, keepingOurs: keepingOurs, takingAlikeLines: takingAlikeLines)
        {
            return outcome
        }
        var merger = ListMerger(base: MergeLayout(base), ours: MergeLayout(ours), theirs: MergeLayout(theirs))
        merger.keepingOurs = keepingOurs
        merger.takingAlikeLines = takingAlikeLines
        return merger.run()
    }
}

extension ListMerge {
    /// The merge of the lists with runs of untouched items folded away (`StableRuns`) and put
    /// back after; nil where nothing folds or where only the whole merge reads the lists right.
    static func mergeFolded(
        base: ListSet, ours: ListSet, theirs: ListSet, keepingOurs: Bool = false, takingAlikeLines: Bool = true
    ) -> Outcome? {
        guard let runs = StableRuns(base: base, ours: ours, theirs: theirs) else { return nil }
        let merged = mergeItemByItem(
            base: runs.base, ours: runs.ours, theirs: runs.theirs, folding: false, keepingOurs: keepingOurs,
            takingAlikeLines: takingAlikeLines)
        return runs.unfold(merged.lists).map { Outcome(lists: $0, reports: merged.reports) }
    }
}

/// One of the three versions a merge reads.
enum MergeSide: Int, Hashable, Sendable {
    case base, ours, theirs
}
