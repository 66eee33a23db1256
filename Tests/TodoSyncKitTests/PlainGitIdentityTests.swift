import Foundation
import Testing
import TestSupport

/// Items added with plain git get the same ids on every clone, however many plain commits and
/// git merge commits stacked on top before each clone's todosync adopted them (docs/FORMAT.md,
/// "Which id an item gets").
@Suite struct PlainGitIdentityTests {
    @Test func threeClonesAdoptingAtDifferentCommitsDeriveTheSameIds() throws {
        let remote = try Remote()
        let plain = try remote.clone(seeding: ["TODO.md": "- [ ] Buy milk\n"])
        let alice = try remote.clone(), bob = try remote.clone(), carol = try remote.clone()

        // A plain-git user adds an item; Alice adopts it right away.
        try plain.write("TODO.md", "- [ ] Buy milk\n- [ ] Water plants\n")
        try plain.commitAndPushWithGit("Add water plants")
        _ = try alice.git("pull", "-q", "origin", "main")
        try alice.todosync()

        // More plain history: an edit, and a side branch merged with a merge commit.
        try plain.write("TODO.md", "- [ ] Buy oat milk\n- [ ] Water plants\n")
        _ = try plain.git("commit", "-qam", "Oat milk")
        _ = try plain.git("checkout", "-q", "-b", "side", "HEAD~1")
        try plain.write("TODO.md", "- [ ] Buy milk\n- [ ] Water plants\n- [ ] Call Bob\n")
        _ = try plain.git("commit", "-qam", "Call Bob")
        _ = try plain.git("checkout", "-q", "main")
        _ = try plain.git("merge", "-q", "--no-ff", "-m", "Merge side", "side")
        _ = try plain.git("push", "-q", "origin", "HEAD:main")
        _ = try bob.git("pull", "-q", "origin", "main")
        try bob.todosync()

        // And one more plain commit before Carol adopts.
        try plain.write("notes.txt", "not a list\n")
        _ = try plain.git("add", "notes.txt")
        try plain.commitAndPushWithGit("Notes")
        _ = try carol.git("pull", "-q", "origin", "main")
        try carol.todosync()

        // Each clone derived the same id for the same item.
        let water = try [alice, bob, carol].map { try id(of: "Water plants", in: $0) }
        #expect(Set(water).count == 1, "\(water)")
        #expect(try id(of: "Call Bob", in: bob) == id(of: "Call Bob", in: carol))

        for clone in [alice, bob, carol, alice, bob] { try clone.sync() }
        let text = try alice.read("TODO.md")
        for clone in [bob, carol] { #expect(try clone.read("TODO.md") == text) }
        #expect(withoutIDs(text) == "- [ ] Buy oat milk\n- [ ] Water plants\n- [ ] Call Bob\n", "\(text)")

        // A delete on one clone stays deleted everywhere.
        try bob.write(
            "TODO.md",
            text.split(separator: "\n").filter { !$0.contains("Water plants") }.joined(separator: "\n") + "\n")
        try bob.sync()
        try alice.sync()
        try carol.sync()
        for clone in [alice, carol] { #expect(!(try clone.read("TODO.md")).contains("Water plants")) }
        for clone in [alice, bob, carol] { try clone.expectCleanAndSound() }
    }

    private func id(of title: String, in clone: Fixture) throws -> String {
        let line = try #require(try clone.read("TODO.md").split(separator: "\n").first { $0.contains(title) })
        return String(try #require(line.range(of: "<!-- id: ").map { line[$0.upperBound...].prefix(36) }))
    }

    private func withoutIDs(_ text: String) -> String {
        text.replacingOccurrences(of: #" <!-- id: [0-9A-Fa-f-]{36} -->"#, with: "", options: .regularExpression)
    }
}
