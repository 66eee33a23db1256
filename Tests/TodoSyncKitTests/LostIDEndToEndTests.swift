import Foundation
import Testing
import TestSupport

/// Items whose id comment an editor dropped get their id back, in a local commit and in a sync
/// (docs/FORMAT.md, "Ids that come back").
@Suite struct LostIDEndToEndTests {
    static let list = "# Home\n- [ ] Renew passport\n- [ ] Water plants\n- [ ] Call Bob\n- [ ] Pay rent\n"
    /// The editor's buffer, opened before todosync wrote the ids: one item checked, one
    /// renamed, one added in it.
    static let staleBuffer =
        "# Home\n- [ ] Renew passport\n- [x] Water plants\n- [ ] Call Alice\n- [ ] Pay rent\n- [ ] Buy stamps\n"

    @Test(arguments: Fixture.Editor.allCases)
    func anEditorSavingABufferFromBeforeTheIdsKeepsEveryItem(editor: Fixture.Editor) throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", Self.list)
        try fixture.todosync()
        let ids = try fixture.ids(in: "TODO.md")
        try fixture.save("TODO.md", Self.staleBuffer, like: editor)

        let result = try fixture.todosync()
        #expect(fixture.lastSubject == "Check \"Water plants\", rename \"Call Bob\" to \"Call Alice\" and 1 more")
        #expect(fixture.lastBody.contains("- Add \"Buy stamps\""))
        #expect(!fixture.lastBody.contains("Remove"), "\(fixture.lastBody)")
        #expect(result.stderr.contains("TODO.md:2: 4 items had lost their id comments"), "\(result.stderr)")
        let now = try fixture.ids(in: "TODO.md")
        #expect(Array(now.prefix(4)) == ids)
        #expect(now.count == 5 && Set(now).count == 5)
        try fixture.expectCleanAndSound()
    }

    /// The issue's case: the stale save on one clone, a check of the same item on the other;
    /// after both sync there is one "Water plants", checked, with its id.
    @Test func aStaleSaveOnOneCloneAndACheckOnTheOtherGiveOneItem() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": Self.list])
        try alice.todosync()
        try alice.sync()
        try bob.sync()
        let ids = try bob.ids(in: "TODO.md")
        try bob.write("TODO.md", try bob.read("TODO.md").replacingOccurrences(of: "[ ] Water", with: "[x] Water"))
        try bob.sync()

        let staleSave = Self.list.replacingOccurrences(of: "Pay rent", with: "Pay the rent")
        try alice.save("TODO.md", staleSave, like: .vim)
        try alice.sync()
        try bob.sync()
        let text = try alice.read("TODO.md")
        #expect(text == (try bob.read("TODO.md")))
        #expect(text.components(separatedBy: "Water plants").count == 2, "\(text)")
        #expect(text.contains("- [x] Water plants"))
        #expect(text.contains("- [ ] Pay the rent"))
        #expect(try alice.ids(in: "TODO.md") == ids)
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    /// The same save committed and pushed with plain git: the merge takes the ids back.
    @Test func aStaleSaveCommittedWithPlainGitMergesAsEdits() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": Self.list])
        try alice.todosync()
        try alice.sync()
        _ = try bob.git("pull", "-q", "origin", "main")
        let ids = try bob.ids(in: "TODO.md")
        try bob.save("TODO.md", Self.staleBuffer, like: .nano)
        try bob.commitAndPushWithGit("Plain save")
        try alice.write("TODO.md", try alice.read("TODO.md").replacingOccurrences(of: "[ ] Renew", with: "[x] Renew"))
        try alice.todosync()
        let merge = try alice.sync()
        #expect(!merge.stdout.contains("Add \"Water plants\""), "\(merge.stdout)")
        let text = try alice.read("TODO.md")
        #expect(
            withoutIDs(text)
                == "# Home\n- [x] Renew passport\n- [x] Water plants\n- [ ] Call Alice\n- [ ] Pay rent\n- [ ] Buy stamps\n"
        )
        #expect(Array(try alice.ids(in: "TODO.md").prefix(4)) == ids)
        try alice.expectCleanAndSound()
    }

    private func withoutIDs(_ text: String) -> String {
        text.replacingOccurrences(of: #" <!-- id: [0-9A-Fa-f-]{36} -->"#, with: "", options: .regularExpression)
    }
}
