import Testing
import TestSupport
@testable import TodoSyncKit

/// A list saved while sync merges: sync must not overwrite it, must commit it as its own unit,
/// and must merge again with it.
@Suite struct SaveDuringSyncTests {
    /// Two clones of `seed`'s TODO.md: alice's version synced, bob's written and not yet
    /// committed; a workspace on bob's clone.
    static func bobToSync(
        seed: String, alice aliceText: String, bob bobText: String
    ) throws -> (bob: Fixture, workspace: Workspace) {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs(seed)])
        try alice.write("TODO.md", withIDs(aliceText))
        try alice.sync()
        try bob.write("TODO.md", withIDs(bobText))
        return (bob, try Workspace.open(at: bob.path))
    }

    @Test func aSaveDuringTheMergeIsCommittedFirstAndMergedAgain() throws {
        let (bob, workspace) = try Self.bobToSync(
            seed: "- [ ] A ^a\n- [ ] B ^b\n- [ ] C ^c\n", alice: "- [x] A ^a\n- [ ] B ^b\n- [ ] C ^c\n",
            bob: "- [ ] A ^a\n- [x] B ^b\n- [ ] C ^c\n")
        let before = bob.commitCount
        var merges = 0
        workspace.willWriteMerge = {
            merges += 1
            // The first time only: the user saves in their editor at just this moment.
            if merges == 1 { try? bob.write("TODO.md", withIDs("- [ ] A ^a\n- [x] B ^b\n- [x] C ^c\n")) }
        }
        let outcome = try workspace.sync(push: false)

        #expect(merges == 2)
        #expect(withShortIDs(try bob.read("TODO.md")) == "- [x] A ^a\n- [x] B ^b\n- [x] C ^c\n")
        // Bob's edit, his save, and the merge: three commits, the save its own unit.
        #expect(bob.commitCount == before + 1 + 1 + 1 + 1)  // + alice's commit, which came in
        let subjects = try bob.git("log", "--first-parent", "--format=%s", "-3").split(separator: "\n")
        #expect(subjects == ["Sync with origin/main: check \"A\"", "Check \"C\"", "Check \"B\""])
        #expect(outcome.mergeCommit != nil)
        #expect(try bob.git("log", "-1", "--format=%P").split(separator: " ").count == 2)
        try bob.expectCleanAndSound()
    }

    @Test func aSaveThatKeepsComingGivesUpWithNothingOverwritten() throws {
        let (bob, workspace) = try Self.bobToSync(
            seed: "- [ ] A ^a\n- [ ] B ^b\n", alice: "- [x] A ^a\n- [ ] B ^b\n", bob: "- [ ] A ^a\n- [x] B ^b\n")
        var saves = 0
        workspace.willWriteMerge = {
            saves += 1
            try? bob.write("TODO.md", withIDs("- [ ] A ^a\n- [x] B ^b\n- [ ] Save \(saves)\n"))
        }
        #expect(throws: TodoSyncError.self) { try workspace.sync(push: false) }
        // The last save is on disk as the user wrote it; git holds every earlier one.
        #expect(withShortIDs(try bob.read("TODO.md")).hasPrefix("- [ ] A ^a\n- [x] B ^b\n- [ ] Save \(saves)"))
        #expect(saves == Workspace.rereadAttempts)
        let history = try bob.git("log", "-p", "--format=%s")
        #expect(history.contains("+- [ ] Save 1") && history.contains("+- [ ] Save 2"))
        #expect(try bob.git("log", "--format=%P", "-1").split(separator: " ").count == 1)
        _ = try bob.git("fsck", "--strict")
    }

    /// The merge takes the lists the sync's own commit read as ours, but only while they hold
    /// still: a save during the fetch is read, committed as its own unit and merged, never
    /// written over with the version read before it.
    @Test func aSaveDuringTheFetchIsCommittedAndMerged() throws {
        let (bob, workspace) = try Self.bobToSync(
            seed: "- [ ] A ^a\n- [ ] B ^b\n- [ ] C ^c\n", alice: "- [ ] A ^a\n- [ ] B ^b\n- [x] C ^c\n",
            bob: "- [x] A ^a\n- [ ] B ^b\n- [ ] C ^c\n")
        workspace.didCommitLocalEdits = { try? bob.write("TODO.md", withIDs("- [x] A ^a\n- [x] B ^b\n- [ ] C ^c\n")) }
        let outcome = try workspace.sync(push: false)

        #expect(outcome.mergeCommit != nil)
        #expect(withShortIDs(try bob.read("TODO.md")) == "- [x] A ^a\n- [x] B ^b\n- [x] C ^c\n")
        let subjects = try bob.git("log", "--first-parent", "--format=%s", "-3").split(separator: "\n")
        #expect(subjects == ["Sync with origin/main: check \"C\"", "Check \"B\"", "Check \"A\""])
        try bob.expectCleanAndSound()
    }
}
