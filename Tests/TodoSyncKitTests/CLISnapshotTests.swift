import Foundation
import Testing
import TestSupport

/// What a user reads, kept as files: help, errors, and the output of status, sync, list and
/// log, plain, coloured (on a terminal, through `script`) and as JSON. Every date is fixed, so
/// commit ids are too. `TODOSYNC_UPDATE_SNAPSHOTS=1 swift test --filter CLISnapshotTests`
/// writes the files again; review the diff before committing it.
@Suite(.serialized) struct CLISnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
        .path
    static let fixed: [String: String?] = [
        "GIT_AUTHOR_DATE": "2026-11-24T09:00:00+01:00", "GIT_COMMITTER_DATE": "2026-11-24T09:00:00+01:00",
        "NO_COLOR": nil, "TERM": "xterm", "COLUMNS": "100",
    ]
    static let list = withIDs(
        """
        # Home
        - [ ] Buy milk ^milk ⏫ 📅 2026-11-20
        - [x] Call Bob ^bob ✅ 2026-11-19
        - [ ] Water plants ^water 🔁 every 3 days 📅 2026-11-27
          - [ ] Fern ^fern

        """)

    func check(_ name: String, _ text: String) throws {
        let path = Self.folder + "/" + name + ".txt"
        if ProcessInfo.processInfo.environment["TODOSYNC_UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let kept = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == kept, "\(name) differs from Snapshots/\(name).txt")
    }

    /// Standard output, then standard error (marked), then the exit status if it is not 0.
    func output(
        _ directory: String, _ arguments: [String], name: String? = nil, environment: [String: String?] = [:]
    ) throws -> String {
        let result = try run(
            todosyncBinary, arguments, in: directory, environment: Self.fixed.merging(environment) { $1 })
        var text = result.stdout
        if !result.stderr.isEmpty { text += "--- stderr\n" + result.stderr }
        if result.status != 0 { text += "--- exit \(result.status)\n" }
        return text
    }

    /// Output as a terminal shows it: run under `script`, which gives it a pseudo-terminal.
    func onTerminal(_ directory: String, _ arguments: [String], environment: [String: String?] = [:]) throws -> String {
        let command = ([todosyncBinary] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let result = try run(
            "/usr/bin/script", ["-qec", command, "/dev/null"], in: directory,
            environment: Self.fixed.merging(environment) { $1 })
        return result.stdout.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\u{1B}", with: "⎋")
    }

    /// A repository whose first commit, made with plain git, is dated like the rest.
    func fixture() throws -> Fixture {
        let fixture = try Fixture()
        try seed(fixture)
        return fixture
    }

    func seed(_ fixture: Fixture) throws {
        try fixture.write("TODO.md", Self.list)
        for arguments in [["add", "-A"], ["commit", "-q", "-m", "Seed the lists"]] {
            #expect(try run("/usr/bin/git", arguments, in: fixture.path, environment: Self.fixed).status == 0)
        }
    }

    /// Lines a text editor adds, with ids written out (so no random id changes the commits).
    func append(_ lines: String, to fixture: Fixture) throws {
        try fixture.write("TODO.md", try fixture.read("TODO.md") + withIDs(lines))
    }

    /// The progress line of a sync, rewritten in place: its count of updates varies.
    func withoutProgress(_ text: String) -> String {
        let progress = /(⎋\[K(Transferring: [^⎋\n]*)?)+/
        return text.replacing(progress, with: "").replacingOccurrences(of: "\n\n", with: "\n")
    }

    @Test func help() throws {
        let f = try fixture()
        try check("help", try output(f.path, ["--help"]))
        try check("help-sync", try output(f.path, ["sync", "--help"]))
        try check("help-list", try output(f.path, ["help", "list"]))
        try check("help-undo", try output(f.path, ["undo", "--help"]))
    }

    @Test func errors() throws {
        let f = try fixture()
        var text = ""
        for arguments in [
            ["stauts"], ["help", "bogus"], ["done", "nosuch"], ["done", "l"],
            ["edit", "milk", "--recurrence", "every fortnight"],
            ["list", "--due-before", "soon"], ["undo", "nosuchunit"], ["-C"], ["-C", "/nonexistent", "status"],
        ] {
            text += "$ todosync " + arguments.joined(separator: " ") + "\n" + (try output(f.path, arguments)) + "\n"
        }
        try check("errors", text)
    }

    @Test func listStatusAndLog() throws {
        let f = try fixture()
        try f.write(
            "TODO.md",
            try f.read("TODO.md").replacingOccurrences(of: "- [ ] Buy milk", with: "- [x] Buy milk")
                + "- [ ] Pay rent 🛫 2026-11-25\n")
        try check("status", try output(f.path, ["status"]))
        try check("status-json", try output(f.path, ["--json", "status"]))
        try check("status-exit-code", try output(f.path, ["status", "--exit-code"]))
        try check("list", try output(f.path, ["list"]))
        try check("list-json", try output(f.path, ["list", "--json"]))
        try check("list-colour", try onTerminal(f.path, ["list"]))
        try check(
            "list-no-colour",
            try onTerminal(f.path, ["--no-color", "list"])
                + (try onTerminal(f.path, ["list"], environment: ["NO_COLOR": "1"]))
                + (try onTerminal(f.path, ["list"], environment: ["TERM": "dumb"])))
        try check(
            "list-filtered",
            try output(f.path, ["list", "--open", "--sort", "due"]) + (try output(f.path, ["list", "milk"]))
                + (try output(f.path, ["list", "--overdue"]))
                + (try output(f.path, ["list", "--recurring", "--priority", "high"])))
        try f.write(
            "TODO.md",
            try f.read("TODO.md").replacingOccurrences(
                of: "- [ ] Pay rent 🛫 2026-11-25\n", with: withIDs("- [ ] Pay rent ^rent 🛫 2026-11-25\n")))
        _ = try output(f.path, [])
        _ = try output(f.path, ["done", "water"])
        try check("log", try output(f.path, ["log"]))
        try check("log-json", try output(f.path, ["log", "--json", "-n", "2"]))
        try check("log-none", try output(f.path, ["log", "-n", "0"]))
    }

    /// The agenda on the fixed day (2026-11-24): overdue, today, the next days; plain, coloured,
    /// as JSON, filtered, with done items, and with nothing in the window.
    @Test func agenda() throws {
        let f = try fixture()
        try append(
            """
            # Work
            - [ ] Send the report ^report 🔺 📅 2026-11-24
            - [ ] Plan the trip ^trip ⏳ 2026-11-22
            - [ ] Tax return ^tax 🛫 2026-11-26 📅 2026-12-31
            - [x] Book the venue ^venue 📅 2026-11-25 ✅ 2026-11-23
            - [ ] Someday ^someday

            """, to: f)
        try check("agenda", try output(f.path, ["agenda"]))
        try check("agenda-colour", try onTerminal(f.path, ["agenda"]))
        try check("agenda-json", try output(f.path, ["agenda", "--json", "--days", "3"]))
        try check(
            "agenda-filtered",
            try output(f.path, ["agenda", "--priority", "high"])
                + (try output(f.path, ["agenda", "--done", "--days", "2"]))
                + (try output(f.path, ["agenda", "--file", "TODO.md", "trip"]))
                + (try output(f.path, ["agenda", "nothing like it"]))
                + (try output(f.path, ["agenda", "--days", "0"])))
    }

    @Test func sync() throws {
        let remote = try Remote()
        let alice = try remote.clone()
        try seed(alice)
        _ = try alice.git("push", "-q", "origin", "HEAD:main")
        let bob = try remote.clone()
        for clone in [alice, bob] { _ = try output(clone.path, ["init"]) }
        _ = try output(alice.path, ["edit", "milk", "--title", "Buy oat milk"])
        _ = try output(alice.path, ["sync"])
        _ = try output(bob.path, ["edit", "milk", "--title", "Buy soy milk"])
        _ = try output(bob.path, ["done", "fern"])
        try check("sync-colour", withoutProgress(try onTerminal(bob.path, ["sync", "--no-push"])))
        try append("- [ ] Bread ^bread\n", to: alice)
        _ = try output(alice.path, ["sync"])
        try check("sync-json", try output(bob.path, ["--json", "sync"]))
        try check("sync", try output(alice.path, ["sync"]))
    }
}
