import Foundation
import Testing
import TestSupport

/// Two todosync commands started together, as a script, a watch process or a second terminal
/// does: the write lock makes them take turns, so nothing is lost and nothing corrupted.
@Suite struct ConcurrencyTests {
    /// Starts todosync without waiting for it.
    private func start(_ arguments: [String], in directory: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: todosyncBinary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_AUTHOR_NAME"] = "Test"
        environment["GIT_AUTHOR_EMAIL"] = "test@example.com"
        environment["GIT_COMMITTER_NAME"] = "Test"
        environment["GIT_COMMITTER_EMAIL"] = "test@example.com"
        environment["TODOSYNC_LOCK_TIMEOUT"] = "60"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func together(_ commands: [[String]], in fixture: Fixture) throws {
        let processes = try commands.map { try start($0, in: fixture.path) }
        for (process, command) in zip(processes, commands) {
            process.waitUntilExit()
            #expect(
                process.terminationStatus == 0,
                "todosync \(command.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }

    private func committedList(_ fixture: Fixture) throws -> String { try fixture.git("show", "HEAD:TODO.md") }

    /// Every item is committed with an id, the file is as committed, no commit removed an item,
    /// and git finds the repository clean and sound.
    private func expectNothingLost(_ fixture: Fixture, items: [String]) throws {
        let list = try committedList(fixture)
        for item in items { #expect(list.contains("- [ ] \(item) <!--"), "\(item) lost") }
        #expect(try fixture.read("TODO.md") == list)
        #expect(!(try fixture.git("log", "--format=%s")).contains("remove"))
        try fixture.expectCleanAndSound()
    }

    @Test func twoAddsAtOnceKeepBothItems() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "# Todo\n\n- [ ] Start\n")
        try fixture.todosync()
        for round in 1...20 {
            try together([["add", "A\(round)"], ["add", "B\(round)"]], in: fixture)
        }
        try expectNothingLost(fixture, items: (1...20).flatMap { ["A\($0)", "B\($0)"] })
        #expect(Set(try fixture.ids(in: "TODO.md")).count == 41)
    }

    @Test func anAddBesideAnUndoIsEitherKeptOrUndoneNeverLost() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Start\n")
        try fixture.todosync()
        // Units enough that every undo finds one.
        for seed in 1...25 { try fixture.todosync("add", "Own unit \(seed)") }
        for round in 1...20 {
            try together([["add", "Item \(round)"], ["undo"]], in: fixture)
        }
        let list = try committedList(fixture)
        let log = try fixture.git("log", "--format=%s")
        for round in 1...20 {
            let kept = list.contains("Item \(round) <!--")
            let undone = log.contains("Undo: Add \"Item \(round)\"")
            #expect(kept != undone, "Item \(round): kept \(kept), undone \(undone)")
        }
        #expect(try fixture.read("TODO.md") == list)
        try fixture.expectCleanAndSound()
    }

    @Test func aCommitBesideASyncKeepsEveryEditOnBothClones() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": "- [ ] Start\n"])
        try alice.sync()
        try bob.sync()
        for round in 1...20 {
            // Bob's item reaches the remote first, so alice's sync merges.
            try bob.todosync("add", "Bob \(round)")
            try bob.sync()
            try alice.write("TODO.md", try alice.read("TODO.md") + "- [ ] Alice \(round)\n")
            try together([[], ["sync"]], in: alice)
        }
        try alice.sync()
        try bob.sync()
        for clone in [alice, bob] {
            try expectNothingLost(clone, items: (1...20).flatMap { ["Alice \($0)", "Bob \($0)"] })
        }
        #expect(try alice.read("TODO.md") == (try bob.read("TODO.md")))
    }

    @Test func anAddBesideAnEditorsSaveKeepsTheSaveAndTheAddInHistory() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Start\n")
        try fixture.todosync()
        var generator = SeededGenerator(seed: 3)
        for round in 1...20 {
            // The editor's buffer: the file as it was opened, plus a line typed in it.
            let buffer = try fixture.read("TODO.md") + "- [ ] Typed \(round)\n"
            let add = try start(["add", "Added \(round)"], in: fixture.path)
            usleep(UInt32.random(in: 0...30_000, using: &generator))
            try fixture.write(".TODO.md.new", buffer)
            #expect(rename(fixture.path + "/.TODO.md.new", fixture.path + "/TODO.md") == 0)
            add.waitUntilExit()
            #expect(add.terminationStatus == 0)
            // The save is in the file: the add either came after it (and took it in first) or
            // before it (an editor that does not reload then drops the added item, which stays
            // in history).
            #expect(withoutIDs(try fixture.read("TODO.md")).contains("- [ ] Typed \(round)\n"))
            try fixture.todosync()
        }
        let list = try committedList(fixture)
        let log = try fixture.git("log", "--format=%s")
        for round in 1...20 {
            #expect(list.contains("- [ ] Typed \(round) <!--"), "the save of round \(round) lost")
            #expect(log.contains("Add \"Added \(round)\""), "the add of round \(round) is not in history")
        }
        #expect(try fixture.read("TODO.md") == list)
        try fixture.expectCleanAndSound()
    }

    /// The text with every id comment taken out.
    private func withoutIDs(_ text: String) -> String {
        text.replacingOccurrences(of: #" <!-- id: [0-9A-Fa-f-]{36} -->"#, with: "", options: .regularExpression)
    }

    /// An editor saving its buffer again and again while todosync commits: the file always ends
    /// as the editor's last save (with ids written into it at most), whether the editor saves by
    /// renaming a new file over the list (vim, most editors) or by rewriting it in place (nano).
    @Test(arguments: ["rename", "in place"])
    func anEditorSavingBesideTodosyncAlwaysKeepsItsLastSave(saving: String) throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Start\n")
        try fixture.todosync()
        var generator = SeededGenerator(seed: saving == "rename" ? 1 : 2)
        for trial in 1...60 {
            let save = (1...trial % 7 + 1).map { "- [ ] Trial \(trial) item \($0)\n" }.joined()
            let commit = try start([], in: fixture.path)
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            if saving == "rename" {
                try fixture.write(".TODO.md.new", save)
                #expect(rename(fixture.path + "/.TODO.md.new", fixture.path + "/TODO.md") == 0)
            } else {
                let handle = try #require(FileHandle(forWritingAtPath: fixture.path + "/TODO.md"))
                try handle.truncate(atOffset: 0)
                // As nano saves: truncate, then write the buffer.
                handle.write(Data(save.utf8))
                try handle.close()
            }
            commit.waitUntilExit()
            let file = try fixture.read("TODO.md")
            #expect(withoutIDs(file) == save, "trial \(trial): the file holds \(file)")
        }
        try fixture.todosync()
        try fixture.expectCleanAndSound()
    }
}
