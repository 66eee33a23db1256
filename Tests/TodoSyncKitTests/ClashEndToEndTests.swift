import Foundation
import Testing
import TestSupport

/// Clashes through real clones and a bare remote (docs/MERGE.md, "Clashes"): told by the clone
/// that merges and by the one that fast-forwards, named by whose changes met, listed by
/// `status` and marked by `list` on both until settled, never nested, settled as one unit.
@Suite struct ClashEndToEndTests {
    static let list = "- [ ] Trip\n  leave at 9\n- [ ] Buy milk\n- [ ] Pay rent\n"

    func clones() throws -> (alice: Fixture, bob: Fixture, keep: Remote) {
        try Remote.withTwoSyncedClones(seeding: ["TODO.md": Self.list])
    }

    /// Alice and Bob rewrite the same note of "Trip" differently and sync, alice first: a
    /// clash block in the notes of "Trip" on bob's clone (and alice's once she syncs).
    func clashOnTheTripsNote() throws -> (alice: Fixture, bob: Fixture, keep: Remote) {
        let (alice, bob, remote) = try clones()
        try alice.write(
            "TODO.md", try alice.read("TODO.md").replacingOccurrences(of: "leave at 9", with: "leave at 10"))
        try alice.sync()
        try bob.write("TODO.md", try bob.read("TODO.md").replacingOccurrences(of: "leave at 9", with: "leave at 8"))
        try bob.sync()
        return (alice, bob, remote)
    }

    @Test func aClashIsToldOnBothClonesAndListedUntilSettled() throws {
        let (alice, bob, _) = try clones()
        try alice.write(
            "TODO.md",
            try alice.read("TODO.md").replacingOccurrences(of: "Buy milk", with: "Buy oat milk").replacingOccurrences(
                of: "leave at 9", with: "leave at 10"))
        try alice.todosync(as: "Alice", "sync")
        try bob.write(
            "TODO.md",
            try bob.read("TODO.md").replacingOccurrences(of: "Buy milk", with: "Buy soy milk").replacingOccurrences(
                of: "leave at 9", with: "leave at 8"))
        let merged = try bob.todosync(as: "Bob", "sync")
        #expect(merged.stdout.contains("Needs your eyes"), "\(merged.stdout)")
        #expect(merged.stdout.contains("Changed here by Bob; on origin/main by Alice."), "\(merged.stdout)")
        // Alice fast-forwards to Bob's merge: she is told too, and by whom it was merged.
        let forward = try alice.todosync(as: "Alice", "sync")
        #expect(forward.stdout.contains("Fast-forwarded"), "\(forward.stdout)")
        #expect(forward.stdout.contains("Clashes came in (merged by Bob)"), "\(forward.stdout)")
        #expect(forward.stdout.contains("\"Buy soy milk\" was renamed on both sides"), "\(forward.stdout)")
        #expect(forward.stdout.contains("the notes of \"Trip\" were changed on both sides"), "\(forward.stdout)")
        for clone in [alice, bob] {
            let status = try clone.todosync("status").stdout
            #expect(status.contains("Clashes to settle (2)"), "\(status)")
            #expect(status.contains("TODO.md:2-6: the notes of \"Trip\""), "\(status)")
            #expect(status.contains("todosync settle"), "\(status)")
            // Asked again (the answer now comes from the clean-state note): the same.
            #expect(try clone.todosync("status").stdout == status)
            let listed = try clone.todosync("list").stdout
            #expect(listed.contains("Trip  (clash: todosync status)"), "\(listed)")
            #expect(listed.contains("(2 clashes not settled yet"), "\(listed)")
            let json = try clone.todosync("list", "--json").stdout
            #expect(json.components(separatedBy: "\"clash\":true").count == 3, "\(json)")
            let statusJSON = try clone.todosync("status", "--json").stdout
            #expect(statusJSON.contains("\"kind\":\"title\""), "\(statusJSON)")
        }
        // Alice settles both: the other title, and every version of the notes.
        let title = try alice.todosync("settle", "soy", "--keep", "2").stdout
        #expect(title.contains("Settle the clash of \"Buy oat milk\" (version 2 kept)"), "\(title)")
        try alice.todosync("settle", "trip", "--keep", "all")
        let text = try alice.read("TODO.md")
        #expect(!text.contains("todosync clash"), "\(text)")
        #expect(
            text.contains("  leave at 10\n  leave at 8\n") || text.contains("  leave at 8\n  leave at 10\n"), "\(text)")
        #expect(text.contains("- [ ] Buy oat milk <!-- id:"), "\(text)")
        #expect(!(try alice.todosync("status").stdout.contains("Clashes")))
        // One unit each: undo takes back the last settle only.
        try alice.todosync("undo")
        #expect(try alice.read("TODO.md").contains("todosync clash: end"))
        #expect(try alice.read("TODO.md").contains("- [ ] Buy oat milk <!-- id:"))
        try alice.sync()
        try bob.sync()
        #expect(try bob.read("TODO.md") == (try alice.read("TODO.md")))
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    @Test func aClashOnAnUnsettledClashJoinsItsBlock() throws {
        let (alice, bob, _) = try clashOnTheTripsNote()
        try alice.sync()
        // Both edit the first version again, differently, without settling.
        let first =
            try alice.read("TODO.md").contains("  leave at 10\n  <!-- todosync clash: the other")
            ? "leave at 10" : "leave at 8"
        try alice.write("TODO.md", try alice.read("TODO.md").replacingOccurrences(of: first, with: "leave at 11"))
        try alice.sync()
        try bob.write("TODO.md", try bob.read("TODO.md").replacingOccurrences(of: first, with: "leave at 7"))
        try bob.sync()
        try alice.sync()
        let text = try alice.read("TODO.md")
        #expect(text.components(separatedBy: "todosync clash: one version").count == 2, "\(text)")
        #expect(text.components(separatedBy: "todosync clash: end").count == 2, "\(text)")
        for kept in ["leave at 11", "leave at 7", first == "leave at 10" ? "leave at 8" : "leave at 10"] {
            #expect(text.contains(kept), "\(text)")
        }
        #expect(try alice.todosync("status").stdout.contains("3 versions kept"))
        try alice.todosync("settle", "trip", "--keep", "2")
        #expect(!(try alice.read("TODO.md")).contains("todosync clash"))
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    @Test func itemCommandsWorkBesideAClashBlock() throws {
        let (_, bob, _) = try clashOnTheTripsNote()
        try bob.todosync("add", "Pack bags", "--after", "Trip")
        try bob.todosync("add", "Book seats", "--under", "Trip")
        try bob.todosync("mv", "Pay rent", "--under", "Trip")
        try bob.todosync("mv", "Pay rent", "--after", "Trip")
        try bob.todosync("done", "Book seats")
        let listed = try bob.todosync("list").stdout
        for title in ["Trip", "Book seats", "Pack bags", "Pay rent", "Buy milk"] {
            #expect(listed.contains(title), "\(listed)")
        }
        #expect(try bob.todosync("status").stdout.contains("Clashes to settle (1)"))
        try bob.expectCleanAndSound()
    }

    @Test func settleRefusesWhatItCannotDoAndChangesNothing() throws {
        let (alice, _, _) = try clones()
        let before = try alice.read("TODO.md"), head = alice.head
        let none = try alice.todosync("settle", "milk", "--keep", "1", expectStatus: 1)
        #expect(none.stderr.contains("\"Buy milk\" has no clash to settle"), "\(none.stderr)")
        let bad = try alice.todosync("settle", "milk", "--keep", "mine", expectStatus: 64)
        #expect(bad.stderr.contains("--keep takes a version number"), "\(bad.stderr)")
        #expect(try alice.read("TODO.md") == before)
        #expect(alice.head == head)
    }
}
