import FuzzDriver
@testable import TodoModel

/// Any three lists (the input cut in three): merging a side with itself gives that side;
/// merging with an unchanged side gives the other; any merge reads back as it is written.
extension ListSet {
    /// Each list's bytes, by path.
    var texts: [String: [UInt8]] { documents.mapValues { $0.render() }.reduce(into: [:]) { $0[$1.key] = $1.value } }
}

@main enum Target {
    static func main() {
        FuzzDriver.run { bytes in
            let (first, rest) = FuzzInput.halves(bytes)
            let (second, third) = FuzzInput.halves(rest)
            func lists(_ bytes: [UInt8], _ name: String) -> ListSet {
                IDAssignment.resolveBase(ListSet([ListDocument(path: "TODO.md", bytes: bytes)]), commit: name).lists
            }
            let base = lists(first, "base"), ours = lists(second, "ours"), theirs = lists(third, "theirs")
            let same = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: ours)
            precondition(same.lists.texts == ours.texts, "merge(base, x, x) is not x")
            let unchanged = ListMerge.mergeItemByItem(base: base, ours: base, theirs: theirs)
            precondition(unchanged.lists.texts == theirs.texts, "merge(base, base, x) is not x")
            let merged = ListMerge.mergeItemByItem(base: base, ours: ours, theirs: theirs)
            for document in merged.lists.documents.values {
                let text = document.render()
                precondition(
                    ListDocument(path: document.path, bytes: text).render() == text, "a merge does not read back")
            }
        }
    }
}
