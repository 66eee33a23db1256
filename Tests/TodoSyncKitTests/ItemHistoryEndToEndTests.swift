import Foundation
import Testing
import TestSupport

/// `todosync history <item>` through two clones and a bare remote (docs/HISTORY.md): every
/// unit that changed the item, newest first, with who and what, following the id through
/// renames, moves between files, editor sessions, undo, a sync, plain git and a clash.
@Suite struct ItemHistoryEndToEndTests {

    /// The history as (author, summaries of the item's changes), newest first.
    func history(_ clone: Fixture, _ item: String) throws -> [(author: String, kind: String, changes: [String])] {
        let json = try clone.todosync("history", item, "--json").stdout
        let steps = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        return steps.map { step in
            let changes = (step["changes"] as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String }
            return (step["author"] as? String ?? "", step["kind"] as? String ?? "", changes)
        }
    }

    @Test func anItemsWholeLifeAcrossClonesFilesEditorsUndoAndPlainGit() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": "- [ ] Call Bob\n", "travel.md": "# Travel\n\n- [ ] Book flights\n"])
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "add", "Passport")
        try alice.todosync(as: "Alice", "edit", "Passport", "--title", "Renew passport")
        try alice.todosync(as: "Alice", "done", "passport")
        try alice.todosync(as: "Alice", "undo")
        try alice.todosync(as: "Alice", "add", "Unrelated")
        try alice.todosync(as: "Alice", "mv", "passport", "--file", "travel.md")
        // A due date typed in an editor, committed by plain `todosync`.
        try alice.write("travel.md", try alice.read("travel.md").replacingOccurrences(of: "Renew passport", with: "Renew passport 📅 2026-12-15"))
        try alice.todosync(as: "Alice")
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        try bob.todosync(as: "Bob", "edit", "passport", "--priority", "high")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "sync")
        // A rename made with plain git.
        try alice.write("travel.md", try alice.read("travel.md").replacingOccurrences(of: "Renew passport", with: "Renew my passport"))
        _ = try run("/usr/bin/git", ["commit", "-q", "-am", "Wording"], in: alice.path, environment: ["GIT_AUTHOR_NAME": "Alice"])

        let steps = try history(alice, "passport")
        let summaries = steps.map { $0.changes.joined(separator: "; ") }
        #expect(steps.count == 8, "\(summaries)")
        guard steps.count == 8 else { return }
        #expect(steps[0].kind == "git" && summaries[0].contains("Rename \"Renew passport"), "\(summaries)")
        #expect(steps[1].author == "Bob" && summaries[1].lowercased().contains("priority"), "\(summaries)")
        #expect(steps[2].author == "Alice" && summaries[2].contains("2026-12-15"), "\(summaries)")
        #expect(summaries[3].contains("Move"), "\(summaries)")
        #expect(steps[4].kind == "undo" && summaries[4].contains("Uncheck"), "\(summaries)")
        #expect(summaries[5].contains("Check"), "\(summaries)")
        #expect(summaries[6].contains("Rename \"Passport\" to \"Renew passport\""), "\(summaries)")
        #expect(summaries[7].contains("Add \"Passport\""), "\(summaries)")
        #expect(!summaries.contains { $0.contains("Unrelated") })
        // Bob's clone tells the same story, as it came in (not the plain git commit: not pushed).
        let bobs = try history(bob, "passport")
        #expect(bobs.count == 7, "\(bobs.map(\.changes))")
        let text = try bob.todosync("history", "passport", "-p").stdout
        #expect(text.contains("History of \"Renew passport\""), "\(text)")
        #expect(text.contains("Bob (here)") && text.contains("Alice (came in)"), "\(text)")
        #expect(text.contains("    + - [ ] Renew passport"), "\(text)")
        // Through `log <item>` too.
        let logged = try bob.todosync("log", "passport").stdout
        #expect(logged.split(separator: "\n").count == 7, "\(logged)")
    }

    @Test func aClashIsTheMergesOwnStep() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": "- [ ] Buy milk\n- [ ] Pay rent\n"])
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "edit", "milk", "--title", "Buy oat milk")
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "edit", "milk", "--title", "Buy soy milk")
        try bob.todosync(as: "Bob", "edit", "rent", "--title", "Pay the rent")
        try bob.todosync(as: "Bob", "sync")
        let steps = try history(bob, "milk")
        let kinds = steps.map(\.kind)
        #expect(kinds.first == "sync", "\(kinds) \(steps.map(\.changes))")
        #expect(kinds.filter { $0 == "sync" }.count == 1, "\(kinds)")
        #expect(steps.contains { $0.author == "Alice" && $0.changes.contains("Rename \"Buy milk\" to \"Buy oat milk\"") })
        #expect(steps.contains { $0.author == "Bob" && $0.changes.contains("Rename \"Buy milk\" to \"Buy soy milk\"") })
        // The rent's own history holds no step of the milk's.
        #expect(try history(bob, "rent").allSatisfy { !$0.changes.joined().contains("milk") })
        let missing = try bob.todosync("history", "nothing like it", expectStatus: 1)
        #expect(missing.stderr.contains("no item matches"), "\(missing.stderr)")
    }
}
