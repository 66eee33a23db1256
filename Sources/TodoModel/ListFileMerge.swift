/// One list file merged from three versions and nothing else, as git's merge driver hands them
/// over (`git merge`, `pull`, `rebase`, `cherry-pick` with the driver set up): the rules of
/// `ListMerge`, the ones sync follows.
///
/// With no history to derive ids from, an item without one gets a stand-in named after its
/// line (so the same line is the same item in all three versions, and one that lost its comment
/// on one side is matched back by title); stand-ins are taken out of the result again, leaving
/// such items for the next `todosync` run to identify as it identifies any plain git edit. An
/// item a side gave an id since (todosync ran there) is that id's item in the base too.
public enum ListFileMerge {
    public struct Outcome: Sendable {
        public var bytes: [UInt8]
        public var reports: [MergeReport]
    }

    public static func merge(path: String, base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> Outcome {
        if ours == theirs || theirs == base { return Outcome(bytes: ours, reports: []) }
        if ours == base { return Outcome(bytes: theirs, reports: []) }
        let documents = [base, ours, theirs].map { ListDocument(path: path, bytes: $0) }
        var written = Set<ItemID>()
        for document in documents { written.formUnion(document.nodeIDs.compactMap { $0 }) }
        let identified = documents.map { IDAssignment.resolveBase(ListSet([$0]), commit: standInSeed) }
        var baseLists = identified[0].lists
        let given = givenIDs(base: documents[0], sides: [documents[1], documents[2]])
        if !given.isEmpty, var document = baseLists[path] {
            document.setIDs(given)
            baseLists[path] = document
        }
        let outcome = ListMerge.merge(
            base: baseLists,
            ours: IDAssignment.recoverLostIDs(identified[1], base: baseLists),
            theirs: IDAssignment.recoverLostIDs(identified[2], base: baseLists))
        guard var merged = outcome.lists[path] else { return Outcome(bytes: [], reports: outcome.reports) }
        merged.removeIDComments(of: Set(merged.nodeIDs.compactMap { $0 }).subtracting(written))
        return Outcome(bytes: merged.render(), reports: outcome.reports)
    }

    /// What stand-in ids are named after, beside the path and the line.
    static let standInSeed = "todosync merge-file"
}
