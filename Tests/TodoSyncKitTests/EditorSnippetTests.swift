import Foundation
import Testing
import TestSupport

/// The snippets of docs/EDITORS.md that hide the id comments, checked the way a user sees
/// them: Vim and Emacs run in a real terminal (tmux), and the screen is read back.
@Suite struct EditorSnippetTests {
    private let examples =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/docs/examples"

    private static let list = """
        # Todo

        - [ ] Milk <!-- id: 26A1F262-2266-4EB7-9A36-D3CB9C690D16 -->
        - [x] Bread <!-- id: D20F57F3-3218-4E9F-986B-EDB0F4FDFC87 --> 📅 2026-12-01

        """

    /// The screen of `command` run in a 100×12 terminal, once `ready` shows on it.
    private func screen(of command: String, in folder: Scratch, ready: String) throws -> String {
        let socket = "todosync-test-\(UUID().uuidString.prefix(8))"
        // NB: the server and the editor are stopped by their pids: kill-server leaves this
        // machine's tmux server running.
        defer {
            let pids =
                (try? run(
                    "/usr/bin/tmux", ["-L", socket, "display-message", "-p", "#{pane_pid} #{pid}"], in: folder.path))?
                .stdout
            for pid in (pids ?? "").split(whereSeparator: \.isWhitespace).compactMap({ Int32($0) }) {
                kill(pid, SIGKILL)
            }
            unlink("/tmp/tmux-\(getuid())/\(socket)")
        }
        // Through start-stop-daemon, as the test servers: the tmux server must hold none of
        // this process's pipes.
        let started = try run(
            "/usr/sbin/start-stop-daemon",
            [
                "--start", "--background", "--chdir", folder.path, "--make-pidfile", "--pidfile",
                folder.path + "/tmux.pid", "--exec", "/usr/bin/tmux", "--",
                "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "12", command,
            ], in: folder.path, environment: ["TERM": "xterm-256color", "LC_ALL": "C.UTF-8"])
        guard started.status == 0 else { throw TestFailure("tmux: \(started.stderr)") }
        var text = ""
        try waitUntil("\(ready) on the screen", timeout: 20) {
            text = (try? run("/usr/bin/tmux", ["-L", socket, "capture-pane", "-p"], in: folder.path))?.stdout ?? ""
            return text.contains(ready)
        }
        // One more look once the editor has settled (highlighting runs after the first paint).
        usleep(300_000)
        return try run("/usr/bin/tmux", ["-L", socket, "capture-pane", "-p"], in: folder.path).stdout
    }

    private func expectIDsHidden(_ screen: String) {
        #expect(
            screen.contains("- [ ] Milk\n") || screen.contains("- [ ] Milk \n") || screen.contains("- [ ] Milk  "),
            "\(screen)")
        #expect(screen.contains("- [x] Bread 📅 2026-12-01"), "\(screen)")
        #expect(!screen.contains("<!--"), "\(screen)")
    }

    @Test func vimHidesTheIDs() throws {
        let folder = Scratch()
        try folder.write("TODO.md", Self.list)
        let plain = try screen(of: "vim -Nu NONE -i NONE -n TODO.md", in: folder, ready: "Bread")
        #expect(plain.contains("<!-- id: 26A1F262"), "the ids show without the snippet:\n\(plain)")
        let hidden = try screen(
            of: "vim -Nu NONE -i NONE -n --cmd 'source \(examples)/todosync-conceal.vim' TODO.md", in: folder,
            ready: "Bread")
        expectIDsHidden(hidden)
        #expect(try folder.read("TODO.md") == Self.list)
    }

    @Test func emacsHidesTheIDs() throws {
        let folder = Scratch()
        try folder.write("TODO.md", Self.list)
        let emacs = "emacs -nw -Q -l \(examples)/todosync-hide-ids.el TODO.md --eval '(todosync-hide-ids-mode 1)'"
        let hidden = try screen(of: emacs, in: folder, ready: "Bread")
        expectIDsHidden(hidden)
    }

    /// VS Code is not on this machine: its settings parse, and their pattern (JavaScript's
    /// syntax, which these parts share with Swift's) folds exactly the comments.
    @Test func theVSCodeSettingsFoldExactlyTheComments() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: examples + "/vscode-settings.json"))
        let settings = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pattern = try #require(settings["inlineFold.regex"] as? String)
        let regex = try NSRegularExpression(pattern: pattern)
        let text = Self.list
        let folded = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
        #expect(
            folded == [
                " <!-- id: 26A1F262-2266-4EB7-9A36-D3CB9C690D16 -->",
                " <!-- id: D20F57F3-3218-4E9F-986B-EDB0F4FDFC87 -->",
            ])
        #expect(settings["inlineFold.supportedLanguages"] as? [String] == ["markdown"])
    }
}
