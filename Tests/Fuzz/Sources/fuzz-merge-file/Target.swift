import FuzzDriver
import TodoModel

/// The merge driver's merge of a list file (`ListFileMerge`, what `todosync merge-file` does
/// with a list) on any three versions, conflict markers and binary bytes included: it ends,
/// merging a version with itself gives it, merging with an unchanged side gives the other,
/// and what it writes reads back as written.
@main enum Target {
    static func main() {
        FuzzDriver.run { bytes in
            let (first, rest) = FuzzInput.halves(bytes)
            let (second, third) = FuzzInput.halves(rest)
            let same = ListFileMerge.merge(path: "TODO.md", base: first, ours: second, theirs: second)
            precondition(same.bytes == second, "merge(base, x, x) is not x")
            let unchanged = ListFileMerge.merge(path: "TODO.md", base: first, ours: first, theirs: third)
            precondition(unchanged.bytes == third, "merge(base, base, x) is not x")
            let merged = ListFileMerge.merge(path: "TODO.md", base: first, ours: second, theirs: third)
            precondition(
                ListDocument(path: "TODO.md", bytes: merged.bytes).render() == merged.bytes,
                "the merge does not read back")
        }
    }
}
