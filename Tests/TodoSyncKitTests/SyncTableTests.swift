import Foundation
import Testing
import TestSupport

/// Every case of the merge table, through real clones: one clone commits and pushes "theirs",
/// the other commits "ours" and syncs, merging; then the first syncs again and must end up
/// with the same bytes.
@Suite struct SyncTableTests {
    @Test(arguments: mergeCases)
    func concurrentEditsMergeThroughRealClones(_ example: MergeCase) throws {
        let remote = try Remote()
        let ours = try remote.clone(seeding: ["TODO.md": withIDs(example.base)])
        let theirs = try remote.clone()
        try theirs.write("TODO.md", withIDs(example.theirs))
        try theirs.sync()
        try ours.write("TODO.md", withIDs(example.ours))
        try ours.sync()

        #expect(withShortIDs(try ours.read("TODO.md")) == example.merged)
        try theirs.sync()
        #expect(try theirs.read("TODO.md") == ours.read("TODO.md"))
        #expect(theirs.head == ours.head)
        for clone in [ours, theirs] { try clone.expectCleanAndSound() }
        // A merge commit with both parents, unless one side's edit was the other's too.
        let parents = try ours.git("log", "-1", "--format=%P").split(separator: " ").count
        #expect(parents == 2 || example.base == example.ours || example.ours == example.theirs)
    }
}
