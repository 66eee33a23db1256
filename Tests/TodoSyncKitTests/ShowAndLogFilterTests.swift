import Foundation
import Testing
import TestSupport

/// `todosync show <unit>`: any commit's item changes in words (a unit of todosync's, a plain
/// git commit, a merge); `log`'s filters by author, day and file.
@Suite struct ShowAndLogFilterTests {
    static let list = "- [ ] Call Bob\n- [ ] Buy milk\n"

    @Test func showTellsAUnitAPlainGitCommitAndAMergeItemByItem() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": Self.list, "groceries.md": "- [ ] Eggs\n"])
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "add", "Pay rent", "--due", "2026-12-01")
        let unit = try alice.todosync("show").stdout
        #expect(unit.contains("Add \"Pay rent\""), "\(unit)")
        #expect(unit.contains("Alice <author@example.com>"), "\(unit)")
        #expect(unit.contains("a command unit, made here"), "\(unit)")
        #expect(
            unit.contains("Changes (1):\n  Add \"Pay rent\" (due 2026-12-01)  (TODO.md:3)")
                || unit.contains("Changes (1):\n  Add \"Pay rent\""), "\(unit)")
        // A commit made with plain git: its items are told apart by their ids all the same.
        try alice.write(
            "TODO.md",
            try alice.read("TODO.md").replacingOccurrences(of: "Call Bob", with: "Call Bob back").replacingOccurrences(
                of: "[ ] Buy milk", with: "[x] Buy milk"))
        _ = try alice.git("commit", "-q", "-am", "Tidy up")
        let plain = try alice.todosync("show", "--json").stdout
        #expect(plain.contains("\"kind\":\"git\""), "\(plain)")
        #expect(plain.contains("\"summary\":\"Rename \\\"Call Bob\\\" to \\\"Call Bob back\\\"\""), "\(plain)")
        #expect(plain.contains("\"change\":\"checked\""), "\(plain)")
        #expect(plain.contains("\"files\":[\"TODO.md\"]"), "\(plain)")
        let older = try alice.todosync("show", "HEAD~1").stdout
        #expect(older.contains("Add \"Pay rent\""), "\(older)")
        // A merge: what came in to this branch.
        try bob.todosync(as: "Bob", "add", "Flour", "--file", "groceries.md")
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        let merge = try bob.todosync("show").stdout
        #expect(merge.contains("a merge"), "\(merge)")
        for came in ["Add \"Pay rent\"", "Rename \"Call Bob\" to \"Call Bob back\"", "Check \"Buy milk\""] {
            #expect(merge.contains(came), "\(merge)")
        }
        #expect(!merge.contains("Flour"), "\(merge)")
        let refused = try bob.todosync("show", "nosuchcommit", expectStatus: 1)
        #expect(refused.stderr.contains("'nosuchcommit' names no commit here"), "\(refused.stderr)")
        #expect(refused.stderr.contains("hint: todosync log"), "\(refused.stderr)")
    }

    @Test func logFiltersByAuthorDayAndFile() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": Self.list, "groceries.md": "- [ ] Eggs\n"])
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "add", "Pay rent")
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        try bob.todosync(as: "Bob", "add", "Flour", "--file", "groceries.md")
        try bob.todosync(as: "Bob", "done", "milk")
        let byAlice = try bob.todosync("log", "--author", "ALI").stdout
        #expect(byAlice.contains("Add \"Pay rent\""), "\(byAlice)")
        #expect(!byAlice.contains("Flour"), "\(byAlice)")
        let groceries = try bob.todosync("log", "--file", "groceries.md").stdout
        #expect(groceries.contains("Add \"Flour\""), "\(groceries)")
        #expect(!groceries.contains("Check \"Buy milk\""), "\(groceries)")
        #expect(!groceries.contains("Pay rent"), "\(groceries)")
        let all = try bob.todosync("log").stdout.split(separator: "\n").count
        #expect(try bob.todosync("log", "--since", "yesterday").stdout.split(separator: "\n").count == all)
        #expect(
            try bob.todosync("log", "--since", "3 days ago", "--until", "today").stdout.split(separator: "\n").count
                == all)
        #expect(try bob.todosync("log", "--until", "last monday").stdout == "No unit matches.\n")
        let bad = try bob.todosync("log", "--since", "someday", expectStatus: 64)
        #expect(bad.stderr.contains("--since takes a day"), "\(bad.stderr)")
    }
}
