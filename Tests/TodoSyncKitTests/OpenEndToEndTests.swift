import Foundation
import Testing
import TestSupport

/// `todosync open`: the user's editor (found as git finds it) on the lists, and one commit of
/// the session when it exits. The editors here are scripts that note their arguments and edit.
@Suite struct OpenEndToEndTests {
    /// An editor script called `name` that writes its arguments to `args.txt` beside it, then
    /// runs `action` (in the folder it was started in) and exits with `status`.
    private func editor(_ name: String, in scratch: Scratch, action: String, status: Int = 0) throws -> String {
        let path = scratch.path + "/bin/" + name
        try scratch.write(
            "bin/" + name, "#!/bin/sh\necho \"$@\" > '\(scratch.path)/bin/args.txt'\n\(action)\nexit \(status)\n")
        chmod(path, 0o755)
        return path
    }

    private func arguments(_ scratch: Scratch) throws -> String {
        try scratch.read("bin/args.txt").trimmingCharacters(in: .newlines)
    }

    private func open(
        _ fixture: Fixture, _ arguments: [String] = [], environment: [String: String?]
    ) throws -> ProcessResult {
        var variables: [String: String?] = ["GIT_EDITOR": nil, "VISUAL": nil, "EDITOR": nil, "TERM": "xterm"]
        variables.merge(environment) { _, new in new }
        return try run(todosyncBinary, ["open"] + arguments, in: fixture.path, environment: variables)
    }

    private func committedFixture() throws -> Fixture {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "# Todo\n\n- [ ] Milk\n- [ ] Bread\n")
        try fixture.write("work/TODO.md", "- [ ] Report\n")
        try fixture.todosync()
        return fixture
    }

    @Test func opensEveryListAndCommitsTheSessionAsOneUnit() throws {
        let fixture = try committedFixture()
        let tools = Scratch()
        let vim = try editor(
            "vim", in: tools,
            action: "printf -- '- [ ] Eggs\\n' >> TODO.md; printf -- '- [ ] Slides\\n' >> work/TODO.md")
        let before = fixture.commitCount
        let result = try open(fixture, environment: ["GIT_EDITOR": vim])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try arguments(tools) == "TODO.md work/TODO.md")
        #expect(fixture.commitCount == before + 1)
        #expect(fixture.lastSubject == "Add \"Eggs\" and add \"Slides\"")
        #expect(result.stdout.contains("Add \"Eggs\" and add \"Slides\""))
        try fixture.expectCleanAndSound()
    }

    @Test func anItemOpensInItsFileAtItsLine() throws {
        let fixture = try committedFixture()
        let tools = Scratch()
        for (name, expected) in [
            ("nvim", "+4 TODO.md"), ("code", "--goto TODO.md:4"), ("hx", "TODO.md:4"), ("mousepad", "TODO.md"),
        ] {
            let program = try editor(name, in: tools, action: ":")
            let result = try open(fixture, ["bread"], environment: ["GIT_EDITOR": program + " --wait"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try arguments(tools) == "--wait " + expected, "\(name)")
        }
        let file = try open(
            fixture, ["work/TODO.md"], environment: ["GIT_EDITOR": try editor("vi", in: tools, action: ":")])
        #expect(file.status == 0)
        #expect(try arguments(tools) == "work/TODO.md")
        let absolute = try open(
            fixture, [fixture.path + "/work/TODO.md"],
            environment: ["GIT_EDITOR": try editor("vi", in: tools, action: ":")])
        #expect(absolute.status == 0, "\(absolute.stderr)")
        #expect(try arguments(tools) == "work/TODO.md")
        let unknown = try open(
            fixture, ["cheese"], environment: ["GIT_EDITOR": try editor("vi", in: tools, action: ":")])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no item matches \"cheese\""))
    }

    /// Edits made before are their own unit: undo after the session takes back only the session.
    @Test func earlierEditsAreCommittedFirstSoUndoTakesBackTheSession() throws {
        let fixture = try committedFixture()
        try fixture.save("TODO.md", try fixture.read("TODO.md") + "- [ ] Tea\n", like: .vim)
        let tools = Scratch()
        let vim = try editor("vim", in: tools, action: "sed -i 's/- \\[ \\] Milk/- [x] Milk/' TODO.md")
        let result = try open(fixture, environment: ["GIT_EDITOR": vim])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.git("log", "-2", "--format=%s") == "Check \"Milk\"\nAdd \"Tea\"\n")
        try fixture.todosync("undo")
        let list = try fixture.read("TODO.md")
        #expect(list.contains("- [ ] Milk <!--") && list.contains("- [ ] Tea <!--"))
    }

    @Test func anEditorThatFailsCommitsNothing() throws {
        let fixture = try committedFixture()
        let tools = Scratch()
        let vim = try editor("vim", in: tools, action: "printf -- '- [ ] Eggs\\n' >> TODO.md", status: 3)
        let before = fixture.commitCount
        let result = try open(fixture, environment: ["GIT_EDITOR": vim])
        #expect(result.status == 1)
        #expect(result.stderr.contains("exited with status 3; nothing was committed"))
        #expect(fixture.commitCount == before)
        #expect(try fixture.read("TODO.md").hasSuffix("- [ ] Eggs\n"))
    }

    /// git's order: GIT_EDITOR, core.editor, VISUAL (not on a dumb terminal), EDITOR.
    @Test func theEditorIsTheOneGitWouldRun() throws {
        let fixture = try committedFixture()
        let tools = Scratch()
        let names = ["first", "second", "third", "fourth"]
        let programs = try names.map { name in
            try editor(name, in: tools, action: "echo \(name) > '\(tools.path)/ran.txt'")
        }
        func ran(_ environment: [String: String?]) throws -> String {
            let result = try open(fixture, environment: environment)
            guard result.status == 0 else { throw TestFailure("open failed: \(result.stderr)") }
            return try tools.read("ran.txt").trimmingCharacters(in: .newlines)
        }
        _ = try fixture.git("config", "core.editor", programs[1])
        #expect(try ran(["GIT_EDITOR": programs[0], "VISUAL": programs[2], "EDITOR": programs[3]]) == "first")
        #expect(try ran(["VISUAL": programs[2], "EDITOR": programs[3]]) == "second")
        _ = try fixture.git("config", "--unset", "core.editor")
        #expect(try ran(["VISUAL": programs[2], "EDITOR": programs[3]]) == "third")
        #expect(try ran(["VISUAL": programs[2], "EDITOR": programs[3], "TERM": "dumb"]) == "fourth")
        let none = try open(fixture, environment: ["VISUAL": programs[2], "TERM": "dumb"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no editor to run"))
    }
}
