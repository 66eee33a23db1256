import Testing
@testable import TodoModel

/// Merges across several list files: files added, removed, and items moved between them.
@Suite struct FileMergeTests {
    let base = [
        "TODO.md": "- [ ] Milk ^milk\n- [ ] Bread ^bread\n",
        "PLAN.md": "# Plan\n\n- [ ] Trip ^trip\n- [ ] Visa ^visa\n",
    ]

    @Test func aFileRemovedOnOneSideAndUntouchedOnTheOtherIsGone() {
        var ours = base
        ours["PLAN.md"] = nil
        let result = mergeTexts(
            base: base, ours: ours, theirs: base.merging(["TODO.md": "- [x] Milk ^milk\n- [ ] Bread ^bread\n"]) { $1 })
        #expect(result.files == ["TODO.md": "- [x] Milk ^milk\n- [ ] Bread ^bread\n"])
        #expect(result.reports.isEmpty)
    }

    @Test func aFileRemovedOnOneSideKeepsWhatTheOtherEditedInIt() {
        var ours = base
        ours["PLAN.md"] = nil
        let theirs = base.merging(["PLAN.md": "# Plan\n\n- [x] Trip ^trip\n- [ ] Visa ^visa\n"]) { $1 }
        let result = mergeTexts(base: base, ours: ours, theirs: theirs)
        // The checked item stays (an edit is never lost) and is reported, with the file's prose;
        // the untouched item goes with the file.
        #expect(result.files["TODO.md"] == base["TODO.md"])
        #expect(result.files["PLAN.md"] == "# Plan\n\n- [x] Trip ^trip\n")
        #expect(result.reports.map { String(describing: $0.kind) } == ["keptRemovedItem"])
    }

    @Test func aFileAddedOnOneSideJoinsTheOthersEdits() {
        let ours = base.merging(["IDEAS.md": "- [ ] Garden ^garden\n"]) { $1 }
        let theirs = base.merging(["TODO.md": "- [ ] Milk ^milk\n- [ ] Bread ^bread\n- [ ] Eggs ^eggs\n"]) { $1 }
        let result = mergeTexts(base: base, ours: ours, theirs: theirs)
        #expect(
            result.files == [
                "TODO.md": "- [ ] Milk ^milk\n- [ ] Bread ^bread\n- [ ] Eggs ^eggs\n",
                "PLAN.md": base["PLAN.md"]!,
                "IDEAS.md": "- [ ] Garden ^garden\n",
            ])
    }

    @Test func anItemMovedToAnotherFileKeepsTheOtherSidesEdit() {
        let ours = [
            "TODO.md": "- [ ] Milk ^milk\n",
            "PLAN.md": "# Plan\n\n- [ ] Trip ^trip\n- [ ] Visa ^visa\n- [ ] Bread ^bread\n",
        ]
        let theirs = base.merging(["TODO.md": "- [ ] Milk ^milk\n- [x] Bread ^bread\n"]) { $1 }
        let result = mergeTexts(base: base, ours: ours, theirs: theirs)
        #expect(
            result.files == [
                "TODO.md": "- [ ] Milk ^milk\n",
                "PLAN.md": "# Plan\n\n- [ ] Trip ^trip\n- [ ] Visa ^visa\n- [x] Bread ^bread\n",
            ])
        #expect(result.reports.isEmpty)
    }
}
