import TestSupport
import Testing
@testable import TodoModel

@Suite struct MergeTests {
    @Test(arguments: mergeCases)
    func mergesConcurrentEdits(_ example: MergeCase) {
        let result = mergeTexts(base: example.base, ours: example.ours, theirs: example.theirs)
        #expect(result.text == example.merged)
        let kinds = result.reports.map { report in
            String(describing: report.kind).prefix { $0 != "(" }
        }
        #expect(kinds.sorted() == example.reports.map { Substring($0) }.sorted())
    }

    @Test(arguments: mergeCases)
    func theItemSetDoesNotDependOnWhichSideIsOurs(_ example: MergeCase) {
        let forward = ListMerge.merge(
            base: lists(["TODO.md": example.base]), ours: lists(["TODO.md": example.ours]),
            theirs: lists(["TODO.md": example.theirs]))
        let backward = ListMerge.merge(
            base: lists(["TODO.md": example.base]), ours: lists(["TODO.md": example.theirs]),
            theirs: lists(["TODO.md": example.ours]))
        #expect(Set(forward.lists.items.keys) == Set(backward.lists.items.keys))
        #expect(
            forward.lists.items.values.map(\.isDone) == backward.lists.items.values.map(\.isDone)
                || !example.reports.isEmpty)
    }
}
