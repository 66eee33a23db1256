import Foundation
import Testing
import TestSupport
@testable import TodoSyncKit

/// todosync stopped dead after each step of its one write path (`TODOSYNC_TEST_STOP_AFTER`,
/// as `kill -9` or a power cut would stop it): the next run converges, with nothing lost,
/// `git fsck --strict` clean, git's index in step and no temporary file left behind.
/// docs/RELIABILITY.md holds the table this checks.
@Suite struct CrashTests {
    static let steps = WritePlan.Step.allCases.map(\.rawValue)

    private func stopped(_ fixture: Fixture, after step: String, _ arguments: [String]) throws -> ProcessResult {
        try run(todosyncBinary, arguments, in: fixture.path, environment: ["TODOSYNC_TEST_STOP_AFTER": step])
    }

    private func expectConverged(_ fixture: Fixture) throws {
        try fixture.expectCleanAndSound()
        let scratch = fixture.path + "/.git/todosync"
        #expect(!FileManager.default.fileExists(atPath: scratch + "/journal"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch + "/tmp") == [])
        #expect(try fixture.git("show", "HEAD:TODO.md") == fixture.read("TODO.md"))
    }

    @Test(arguments: steps)
    func anEditingSessionStoppedAtAnyStepIsCommittedByTheNextRun(step: String) throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n")
        try fixture.write("work.md", "- [ ] Write report\n")
        try fixture.todosync()
        let edited =
            try fixture.read("TODO.md").replacingOccurrences(of: "[ ] Buy", with: "[x] Buy") + "- [ ] Pay rent\n"
        try fixture.write("TODO.md", edited)
        try fixture.write("work.md", try fixture.read("work.md") + "- [ ] Book room\n")

        let first = try stopped(fixture, after: step, [])
        #expect([86, 0].contains(first.status), "\(first.stderr)")
        let next = try fixture.todosync()
        #expect(!next.stderr.contains("error"), "\(next.stderr)")
        try expectConverged(fixture)
        let list = try fixture.read("TODO.md"), work = try fixture.read("work.md")
        #expect(list.contains("- [x] Buy milk <!--") && list.contains("- [ ] Pay rent <!--"), "\(list)")
        #expect(work.contains("- [ ] Book room <!--"), "\(work)")
        // One id per item, the same in the file and in the commit.
        #expect(Set(try fixture.ids(in: "TODO.md")).count == 3)
        let history = try fixture.git("log", "-p", "--format=%s")
        #expect(history.contains("Check \"Buy milk\""))
    }

    @Test(arguments: steps)
    func aCommandStoppedAtAnyStepIsDoneOnceOrNotAtAll(step: String) throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        try fixture.todosync()
        let first = try stopped(fixture, after: step, ["add", "Call Bob"])
        #expect([86, 0].contains(first.status), "\(first.stderr)")
        try fixture.todosync()
        try expectConverged(fixture)
        let list = try fixture.read("TODO.md")
        let copies = list.components(separatedBy: "Call Bob").count - 1
        // Stopped before the files were written: not done (the user saw it fail); from the files
        // on, done. (A one-file command has no step between its first and last file: it ran through.)
        let done = first.status == 0 || ["files", "branch", "index", "done"].contains(step)
        #expect(copies == (done ? 1 : 0), "\(list)")
        if done { #expect(try fixture.git("log", "--format=%s").contains("Add \"Call Bob\"")) }
        #expect(list.contains("- [ ] Buy milk <!--"))
    }

    @Test(arguments: steps)
    func aSyncMergeStoppedAtAnyStepIsFinishedByTheNextSync(step: String) throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            "TODO.md": "- [ ] Buy milk\n- [ ] Call Bob\n", "notes.txt": "one\n",
        ])
        try alice.sync()
        try bob.sync()
        try bob.todosync("add", "From Bob")
        try bob.write("notes.txt", "one\ntwo\n")
        _ = try bob.git("commit", "-qam", "Notes")
        try bob.sync()
        try alice.todosync("done", "Buy milk")

        let first = try stopped(alice, after: step, ["sync"])
        #expect([86, 0].contains(first.status), "\(first.stderr)")
        try alice.sync()
        try expectConverged(alice)
        #expect(try alice.read("notes.txt") == "one\ntwo\n")
        let list = try alice.read("TODO.md")
        #expect(list.contains("- [x] Buy milk <!--") && list.contains("- [ ] From Bob <!--"), "\(list)")
        #expect(Set(try alice.ids(in: "TODO.md")).count == 3)
        try bob.sync()
        #expect(try bob.read("TODO.md") == list)
    }
}
