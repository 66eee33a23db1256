import Foundation
import Testing
import TestSupport

/// A pasted copy of an id and a damaged id, committed with plain git on one clone while the
/// other clone checks the item: after the sync the check lands on the original, and there is
/// never a second copy of the item (docs/FORMAT.md, "Which id an item gets").
@Suite struct PastedAndDamagedIDTests {
    static let list = "- [ ] Call Bob\n- [ ] Buy milk\n- [ ] Pay rent\n"

    func clones() throws -> (alice: Fixture, bob: Fixture, keep: Remote) {
        try Remote.withTwoSyncedClones(seeding: ["TODO.md": Self.list])
    }

    @Test(arguments: Fixture.Editor.allCases)
    func aCopyPastedAboveTheOriginalAndRetitledDoesNotTakeItsCheck(editor: Fixture.Editor) throws {
        let (alice, bob, _) = try clones()
        let ids = try alice.ids(in: "TODO.md")
        // Alice pastes "Call Bob" above itself, retitles the copy, commits with plain git.
        var lines = try alice.read("TODO.md").split(separator: "\n").map(String.init)
        lines.insert(lines[0].replacingOccurrences(of: "Call Bob", with: "Call Alice"), at: 0)
        try alice.save("TODO.md", lines.joined(separator: "\n") + "\n", like: editor)
        try alice.commitAndPushWithGit("Paste")
        // Bob checks "Call Bob" and syncs.
        try bob.write("TODO.md", try bob.read("TODO.md").replacingOccurrences(of: "[ ] Call Bob", with: "[x] Call Bob"))
        let merge = try bob.sync()
        #expect(merge.stdout.contains("Add \"Call Alice\""), "\(merge.stdout)")
        #expect(!merge.stdout.contains("Rename"), "\(merge.stdout)")
        try alice.sync()
        let text = try bob.read("TODO.md")
        let aliceText = try alice.read("TODO.md"), aliceLog = try alice.git("log", "--format=%s")
        #expect(aliceText == text, "\(aliceText)\n\(text)\n\(aliceLog)")
        #expect(text.contains("- [ ] Call Alice <!-- id: "))
        #expect(text.contains("- [x] Call Bob <!-- id: \(ids[0]) -->"), "\(text)")
        let now = try bob.ids(in: "TODO.md")
        #expect(now.count == 4 && Set(now).count == 4)
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    @Test func aDamagedIdMergedAgainstACheckIsOneItem() throws {
        let (alice, bob, _) = try clones()
        let ids = try alice.ids(in: "TODO.md")
        // One hex digit deleted from "Buy milk"'s id, committed with plain git.
        var damaged = ids[1]
        damaged.remove(at: damaged.index(damaged.startIndex, offsetBy: 5))
        try alice.save("TODO.md", try alice.read("TODO.md").replacingOccurrences(of: ids[1], with: damaged), like: .vim)
        try alice.commitAndPushWithGit("Slip")
        try bob.write("TODO.md", try bob.read("TODO.md").replacingOccurrences(of: "[ ] Buy milk", with: "[x] Buy milk"))
        try bob.sync()
        try alice.sync()
        let text = try bob.read("TODO.md")
        let aliceText = try alice.read("TODO.md"), aliceLog = try alice.git("log", "--format=%s%n%b")
        #expect(aliceText == text, "\(aliceText)\n---\n\(text)\n---\n\(aliceLog)")
        #expect(text.components(separatedBy: "Buy milk").count == 2, "\(text)")
        #expect(text.contains("- [x] Buy milk <!-- id: \(ids[1]) -->"), "\(text)")
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    /// The damage committed with plain git on the clone that syncs (not pushed first): the
    /// sync's first step adopts that commit and gives "Buy milk" back the id its parent commit
    /// held, so the merge pairs it with the other clone's check. Before, it got a fresh id
    /// and the merge kept two "Buy milk" items. An item command adopts alike.
    @Test(arguments: ["sync", "done"])
    func aDamagedIdCommittedWithPlainGitIsAdoptedWithItsId(firstCommand: String) throws {
        let (alice, bob, _) = try clones()
        let ids = try alice.ids(in: "TODO.md")
        var damaged = ids[1]
        damaged.remove(at: damaged.index(damaged.startIndex, offsetBy: 5))
        try alice.save("TODO.md", try alice.read("TODO.md").replacingOccurrences(of: ids[1], with: damaged), like: .vim)
        _ = try alice.git("commit", "-q", "-am", "Slip")
        try bob.write("TODO.md", try bob.read("TODO.md").replacingOccurrences(of: "[ ] Buy milk", with: "[x] Buy milk"))
        try bob.sync()
        if firstCommand == "done" {
            try alice.todosync("done", "rent")
            #expect(try alice.read("TODO.md").contains("- [ ] Buy milk <!-- id: \(ids[1]) -->"))
        }
        try alice.sync()
        try bob.sync()
        let text = try alice.read("TODO.md")
        #expect(try bob.read("TODO.md") == text)
        #expect(text.components(separatedBy: "Buy milk").count == 2, "\(text)")
        #expect(text.contains("- [x] Buy milk <!-- id: \(ids[1]) -->"), "\(text)")
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }
}
