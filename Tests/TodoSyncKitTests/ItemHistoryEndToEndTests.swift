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
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            "TODO.md": "- [ ] Call Bob\n", "travel.md": "# Travel\n\n- [ ] Book flights\n",
        ])
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "add", "Passport")
        try alice.todosync(as: "Alice", "edit", "Passport", "--title", "Renew passport")
        try alice.todosync(as: "Alice", "done", "passport")
        try alice.todosync(as: "Alice", "undo")
        try alice.todosync(as: "Alice", "add", "Unrelated")
        try alice.todosync(as: "Alice", "mv", "passport", "--file", "travel.md")
        // A due date typed in an editor, committed by plain `todosync`.
        try alice.write(
            "travel.md",
            try alice.read("travel.md").replacingOccurrences(of: "Renew passport", with: "Renew passport 📅 2026-12-15"))
        try alice.todosync(as: "Alice")
        try alice.todosync(as: "Alice", "sync")
        try bob.todosync(as: "Bob", "sync")
        try bob.todosync(as: "Bob", "edit", "passport", "--priority", "high")
        try bob.todosync(as: "Bob", "sync")
        try alice.todosync(as: "Alice", "sync")
        // A rename made with plain git.
        try alice.write(
            "travel.md",
            try alice.read("travel.md").replacingOccurrences(of: "Renew passport", with: "Renew my passport"))
        _ = try run(
            "/usr/bin/git", ["commit", "-q", "-am", "Wording"], in: alice.path,
            environment: ["GIT_AUTHOR_NAME": "Alice"])

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
        #expect(
            steps.contains { $0.author == "Alice" && $0.changes.contains("Rename \"Buy milk\" to \"Buy oat milk\"") })
        #expect(steps.contains { $0.author == "Bob" && $0.changes.contains("Rename \"Buy milk\" to \"Buy soy milk\"") })
        // The rent's own history holds no step of the milk's.
        #expect(try history(bob, "rent").allSatisfy { !$0.changes.joined().contains("milk") })
        let missing = try bob.todosync("history", "nothing like it", expectStatus: 1)
        #expect(missing.stderr.contains("no item matches"), "\(missing.stderr)")
    }

    /// The derived data (what a search found, in .git/todosync/cache) deleted, damaged, stale
    /// or left by a history a reset dropped: the same answers as a search of the whole history.
    @Test func theDerivedDataDeletedDamagedOrStaleGivesTheSameAnswers() throws {
        let f = try Fixture(gitFiles: ["TODO.md": "- [ ] Call Bob\n"])
        try f.todosync()
        try f.todosync("add", "Passport")
        try f.todosync("edit", "passport", "--title", "Renew passport")
        let first = try history(f, "passport").map { $0.changes }
        #expect(first.count == 2, "\(first)")
        let cache = try FileManager.default.contentsOfDirectory(atPath: f.path + "/.git/todosync/cache").filter {
            $0.hasPrefix("history-")
        }
        #expect(cache.count == 1, "\(cache)")
        let file = f.path + "/.git/todosync/cache/" + (cache.first ?? "")
        // Asked again: from the cache.
        #expect(try history(f, "passport").map { $0.changes } == first)
        // Damaged: one byte flipped, then cut short.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes[bytes.count - 3] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: file))
        #expect(try history(f, "passport").map { $0.changes } == first)
        try bytes.prefix(10).write(to: URL(fileURLWithPath: file))
        #expect(try history(f, "passport").map { $0.changes } == first)
        // Deleted.
        try FileManager.default.removeItem(atPath: file)
        #expect(try history(f, "passport").map { $0.changes } == first)
        // Stale: commits made since it was written are searched.
        try f.todosync("done", "passport")
        let checked = try history(f, "passport").map { $0.changes }
        #expect(checked.count == 3 && checked[0] == ["Check \"Renew passport\""], "\(checked)")
        // Its tip dropped by a reset: the whole history is searched again.
        _ = try f.git("reset", "-q", "--hard", "HEAD~2")
        try f.write("TODO.md", try f.read("TODO.md").replacingOccurrences(of: "Passport", with: "Passport and visa"))
        _ = try f.git("commit", "-q", "-am", "Wording")
        let rewritten = try history(f, "passport").map { $0.changes }
        #expect(rewritten == [["Rename \"Passport\" to \"Passport and visa\""], ["Add \"Passport\""]], "\(rewritten)")
    }

    /// An item the lists no longer hold, found by its old title; its history ends with its
    /// removal. Two removed items the words match: an error naming both.
    @Test func aRemovedItemIsFoundByAnOldTitle() throws {
        let f = try Fixture(gitFiles: ["TODO.md": "- [ ] Call Bob\n"])
        try f.todosync()
        try f.todosync("add", "Old plan")
        try f.todosync("edit", "old plan", "--title", "Quarterly plan")
        try f.todosync("rm", "quarterly")
        let missing = try f.todosync("history", "old plan", expectStatus: 1)
        #expect(missing.stderr.contains("no item matches"), "\(missing.stderr)")
        let text = try f.todosync("history", "old plan", "--removed").stdout
        #expect(text.contains("History of \"Quarterly plan\""), "\(text)")
        let steps =
            try JSONSerialization.jsonObject(
                with: Data(try f.todosync("history", "OLD PLAN", "--removed", "--json").stdout.utf8))
            as? [[String: Any]] ?? []
        let changes = steps.map { ($0["changes"] as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String } }
        #expect(
            changes == [
                ["Remove \"Quarterly plan\""], ["Rename \"Old plan\" to \"Quarterly plan\""], ["Add \"Old plan\""],
            ], "\(changes)")
        // An item still in the lists is not a removed one.
        let held = try f.todosync("history", "call bob", "--removed", expectStatus: 1)
        #expect(held.stderr.contains("no item the lists no longer hold matches"), "\(held.stderr)")
        // Two removed items match: both named, with what to type.
        try f.todosync("add", "Old plan B")
        try f.todosync("rm", "plan b")
        let ambiguous = try f.todosync("history", "plan", "--removed", expectStatus: 1)
        #expect(
            ambiguous.stderr.contains("2 removed items match") && ambiguous.stderr.contains("Old plan B")
                && ambiguous.stderr.contains("Quarterly plan"), "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("--removed"), "\(ambiguous.stderr)")
    }

    /// Each occurrence of a recurring item is its own item: the unit that added it names the
    /// one before, the unit that checked it the next.
    @Test func aRecurringOccurrenceNamesTheOccurrencesBeforeAndAfterIt() throws {
        let f = try Fixture(gitFiles: ["TODO.md": "- [ ] Water plants 🔁 every week 📅 2026-11-02\n"])
        let day = ["GIT_AUTHOR_DATE": "2026-11-02T09:00:00+01:00"]
        func todosync(_ arguments: String...) throws {
            let result = try run(todosyncBinary, arguments, in: f.path, environment: day)
            guard result.status == 0 else {
                throw TestFailure("todosync \(arguments) exited \(result.status): \(result.stderr)")
            }
        }
        try todosync()
        try todosync("done", "water")
        try todosync("done", "water")
        // The second occurrence (due 2026-11-09): added by the first one's check, checked itself.
        let list = try f.todosync("list", "--json").stdout
        let items = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]] ?? []
        let second = try #require(items.first { ($0["due"] as? String) == "2026-11-09" }?["id"] as? String)
        let steps =
            try JSONSerialization.jsonObject(
                with: Data(try f.todosync("history", String(second.prefix(8)), "--json").stdout.utf8))
            as? [[String: Any]] ?? []
        #expect(steps.count == 2, "\(steps)")
        guard steps.count == 2 else { return }
        let next = steps[0]["nextOccurrence"] as? [String: Any]
        let previous = steps[1]["previousOccurrence"] as? [String: Any]
        #expect(next?["due"] as? String == "2026-11-16", "\(steps[0])")
        #expect(previous?["due"] as? String == "2026-11-02", "\(steps[1])")
        let summaries = steps.map { ($0["changes"] as? [[String: Any]] ?? []).compactMap { $0["summary"] as? String } }
        #expect(summaries[0].contains("Check \"Water plants\""), "\(summaries)")
        #expect(summaries[1].first?.hasPrefix("Add the next \"Water plants\"") == true, "\(summaries)")
        let text = try f.todosync("history", String(second.prefix(8))).stdout
        #expect(text.contains("The next occurrence: \"Water plants\", due 2026-11-16"), "\(text)")
        #expect(text.contains("The occurrence before: \"Water plants\", due 2026-11-02"), "\(text)")
    }

    /// A long history made with git fast-import (long enough that the search is cut into
    /// pieces searched at once), with a side branch merged in that changed the item: every
    /// change is found, as a commit-by-commit reading of the history finds it.
    @Test func aLongPlainGitHistoryWithAMergeIsSearchedWhole() throws {
        let f = try Fixture()
        let id = "0F6C0000-0000-4000-8000-000000000001"
        var lines = (0..<40).map {
            "- [ ] Task \($0) <!-- id: 0F6C0000-0000-4000-8000-\(String(format: "%012d", $0 + 100)) -->"
        }
        lines.insert("- [ ] Passport <!-- id: \(id) -->", at: 20)
        var stream = ""
        var time = 1_780_000_000
        var mark = 0
        func commit(_ message: String, branch: String = "main", merge: Int? = nil) {
            time += 60
            mark += 1
            let text = lines.joined(separator: "\n") + "\n"
            stream +=
                "commit refs/heads/\(branch)\nmark :\(mark)\ncommitter Plain <plain@example.com> \(time) +0000\ndata \(message.utf8.count)\n\(message)\n"
            if let merge { stream += "merge :\(merge)\n" }
            stream += "M 100644 inline TODO.md\ndata \(text.utf8.count)\n\(text)\n"
        }
        commit("Add the list")
        var expected: [String] = ["Add \"Passport\""]
        for index in 1...2_600 {
            let target = index % 40 < 20 ? index % 40 : index % 40 + 1
            if index == 700 {
                lines[20] = "- [ ] Renew passport <!-- id: \(id) -->"
                expected.append("Rename \"Passport\" to \"Renew passport\"")
            } else if index == 1_300 {
                lines[20] = "- [x] Renew passport <!-- id: \(id) -->"
                expected.append("Check \"Renew passport\"")
            } else if index == 2_200 {
                lines.insert("  Two photos.", at: 21)
                expected.append("Edit notes of \"Renew passport\"")
            } else {
                lines[target] = lines[target].replacingOccurrences(of: " <!--", with: " e <!--")
            }
            commit("Edit \(index)")
        }
        // A side branch from the tip that sets a due date, and a merge of it after another edit.
        let tip = mark
        stream += "reset refs/heads/side\nfrom :\(tip)\n\n"
        let mainLines = lines
        lines[20] = "- [x] Renew passport 📅 2027-01-15 <!-- id: \(id) -->"
        commit("Due date", branch: "side")
        let side = mark
        let sideLines = lines
        lines = mainLines
        lines[0] += " main"
        stream += "reset refs/heads/main\nfrom :\(tip)\n\n"
        commit("Edit on main")
        lines = sideLines
        lines[0] += " main"
        commit("Merge side", merge: side)
        expected.append("Set due date of \"Renew passport\" to 2027-01-15")
        _ = try run("/usr/bin/git", ["fast-import", "--quiet"], in: f.path, input: stream)
        _ = try f.git("reset", "-q", "--hard", "main")
        let found = try history(f, "passport")
        #expect(found.map { $0.changes.joined(separator: "; ") } == expected.reversed(), "\(found.map { $0.changes })")
        // Searched in pieces where the machine has more than one core, with the same answer.
        try FileManager.default.removeItem(atPath: f.path + "/.git/todosync/cache")
        let traced = try run(todosyncBinary, ["history", "passport"], in: f.path, environment: ["TODOSYNC_TRACE": "1"])
        if ProcessInfo.processInfo.activeProcessorCount > 1 {
            #expect(
                traced.stderr.contains("first-parent commits searched in 2 pieces")
                    || traced.stderr.contains("searched in 3 pieces") || traced.stderr.contains("searched in 4 pieces"),
                "\(traced.stderr)")
        }
        #expect(traced.stdout.components(separatedBy: "\n    ").count - 1 == expected.count, "\(traced.stdout)")
    }
}
