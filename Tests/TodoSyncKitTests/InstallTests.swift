import Foundation
import Testing
import TestSupport

/// `make install PREFIX=…` with the test build of todosync (the release build is the same
/// script; CI installs that one too): the program runs, `man -l` renders the page, bash loads
/// the completions and completes item titles, and the docs' service files are valid.
@Suite struct InstallTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    private var binDirectory: String { URL(fileURLWithPath: todosyncBinary).deletingLastPathComponent().path }

    private func install(into prefix: String, _ target: String = "install") throws -> ProcessResult {
        let manual = binDirectory + "/generate-manual"
        guard FileManager.default.isExecutableFile(atPath: manual) else {
            throw TestFailure(
                "\(manual) is missing: build it first (swift build --product generate-manual; scripts/test.sh does)")
        }
        let result = try run(
            "/usr/bin/make", ["-s", target, "PREFIX=\(prefix)"], in: root,
            environment: ["TODOSYNC_BIN": binDirectory, "GENERATE_MANUAL": manual])
        guard result.status == 0 else {
            throw TestFailure("make \(target) failed:\n\(result.stdout)\n\(result.stderr)")
        }
        return result
    }

    @Test func installsAWorkingProgramManPageAndCompletions() throws {
        let prefix = Scratch()
        let said = try install(into: prefix.path)
        #expect(said.stdout.contains("Installed todosync"))
        let program = prefix.path + "/bin/todosync"

        // The installed program works: a repository, an item committed with an id.
        let lists = try Fixture()
        try lists.write("TODO.md", "- [ ] Buy milk\n- [x] Call Bob\n- [ ] Buy milk and bread\n")
        let commit = try run(program, [], in: lists.path)
        #expect(commit.status == 0, "\(commit.stderr)")
        #expect(lists.commitCount == 1)

        // man -l renders the page, every subcommand in it, with no warning from groff.
        let page = try run(
            "/usr/bin/man", ["-l", prefix.path + "/share/man/man1/todosync.1"], in: prefix.path,
            environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        #expect(page.status == 0)
        #expect(page.stderr.isEmpty, "man warned: \(page.stderr)")
        for word in ["NAME", "todosync", "SYNOPSIS", "watch", "merge-file", "--sync-every", "undo"] {
            #expect(page.stdout.contains(word), "\(word) not in the page")
        }

        // bash loads the completions, completes subcommands, and item titles per command.
        #expect(try complete(["todosync", "wa"], prefix: prefix.path, in: lists.path) == ["watch"])
        #expect(
            try complete(["todosync", "done", ""], prefix: prefix.path, in: lists.path) == [
                "Buy milk", "Buy milk and bread",
            ])
        #expect(try complete(["todosync", "reopen", ""], prefix: prefix.path, in: lists.path) == ["Call Bob"])
        #expect(
            try complete(["todosync", "rm", "Buy"], prefix: prefix.path, in: lists.path) == [
                "Buy milk", "Buy milk and bread",
            ])
        let id = String(try lists.ids(in: "TODO.md")[1].prefix(8)).lowercased()
        #expect(
            try complete(["todosync", "reopen", String(id.prefix(3))], prefix: prefix.path, in: lists.path) == [id])
        for file in ["share/zsh/site-functions/_todosync", "share/fish/vendor_completions.d/todosync.fish"] {
            #expect(try String(contentsOfFile: prefix.path + "/" + file, encoding: .utf8).contains("todosync"))
        }

        _ = try install(into: prefix.path, "uninstall")
        #expect(!FileManager.default.fileExists(atPath: program))
        #expect(!FileManager.default.fileExists(atPath: prefix.path + "/share/man/man1/todosync.1"))
    }

    /// What bash offers for the last of `words` (completed at the end of the line).
    private func complete(_ words: [String], prefix: String, in directory: String) throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let line = words.joined(separator: " ")
        let script = """
            source '\(prefix)/share/bash-completion/completions/todosync'
            COMP_WORDS=(\(quoted.joined(separator: " ")))
            COMP_CWORD=\(words.count - 1)
            COMP_LINE='\(line)'
            COMP_POINT=\(line.utf8.count)
            COMPREPLY=()
            _todosync todosync \(quoted.last!) \(quoted[quoted.count - 2])
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try run(
            "/bin/bash", ["--norc", "-c", script], in: directory, environment: ["PATH": prefix + "/bin:/usr/bin:/bin"])
        guard result.status == 0, result.stderr.isEmpty else {
            throw TestFailure("bash completion failed: \(result.stderr)")
        }
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    /// The systemd user unit verifies (with the installed program and man page), and the
    /// launchd agent is a valid property list.
    @Test func theServiceFilesInTheDocsAreValid() throws {
        let prefix = Scratch()
        _ = try install(into: prefix.path)
        let unit = try String(contentsOfFile: root + "/docs/examples/todosync-watch.service", encoding: .utf8)
            .replacingOccurrences(of: "%h/.local/bin/todosync", with: prefix.path + "/bin/todosync")
            .replacingOccurrences(of: "%h/lists", with: prefix.path)
        try prefix.write("todosync-watch.service", unit)
        try prefix.write("runtime/.keep", "")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            let verify = try run(
                "/usr/bin/systemd-analyze", ["verify", "--user", prefix.path + "/todosync-watch.service"],
                in: prefix.path,
                environment: ["XDG_RUNTIME_DIR": prefix.path + "/runtime", "MANPATH": prefix.path + "/share/man:"])
            #expect(verify.status == 0 && verify.stderr.isEmpty, "systemd-analyze: \(verify.stderr)")
        }
        let plist = root + "/docs/examples/org.todosync.watch.plist"
        let check = try run(
            "/usr/bin/python3",
            [
                "-c",
                "import plistlib,sys; d=plistlib.load(open(sys.argv[1],'rb')); assert d['ProgramArguments'][1]=='watch', d",
                plist,
            ], in: root)
        #expect(check.status == 0, "\(check.stderr)")
    }
}
