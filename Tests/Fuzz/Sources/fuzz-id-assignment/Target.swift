import FuzzDriver
@testable import TodoModel

/// Any bytes as a list edited since a commit of the first half: ids are assigned by only
/// adding or mending id comments (every other byte of the list stays, in order; a comment an
/// edit cut short is todosync's to write whole), and no id is given twice.
@main enum Target {
    static func main() {
        FuzzDriver.run { bytes in
            let (before, after) = FuzzInput.halves(bytes)
            let base = IDAssignment.resolveBase(ListSet([ListDocument(path: "TODO.md", bytes: before)]), commit: "base")
            var generator = FuzzInput.Generator(seed: UInt64(bytes.count))
            let working = ListSet([ListDocument(path: "TODO.md", bytes: after)])
            let assigned = IDAssignment.assign(working, base: base, using: &generator).lists
            guard let document = assigned["TODO.md"] else { return }
            let written = document.render()
            let kept = FuzzInput.strippingIDComments(after), now = FuzzInput.strippingIDComments(written)
            precondition(FuzzInput.isSubsequence(kept, of: now), "id assignment took bytes away")
            let ids = document.nodeIDs.compactMap { $0 }
            precondition(Set(ids).count == ids.count, "an id given twice")
            precondition(
                ListDocument(path: "TODO.md", bytes: written).render() == written, "the written list does not read back"
            )
        }
    }
}
