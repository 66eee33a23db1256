#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user's editor, found and run as git finds and runs it (`git var GIT_EDITOR`,
/// `launch_editor`): `GIT_EDITOR`, then `core.editor`, then `VISUAL` (not on a dumb
/// terminal), then `EDITOR`, then `vi`. The value is a shell command: `code --wait`,
/// `emacsclient -t`, a path with spaces quoted.
public struct GitEditor: Sendable, Equatable {
    public let command: String

    /// The editor git would run; nil on a dumb terminal with neither `GIT_EDITOR`,
    /// `core.editor` nor `EDITOR` set (git refuses then too).
    public static func resolve(environment: [String: String], coreEditor: String?) -> GitEditor? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let isDumb = value("TERM") == nil || value("TERM") == "dumb"
        if let editor = value("GIT_EDITOR") ?? coreEditor.flatMap({ $0.isEmpty ? nil : $0 }) {
            return GitEditor(command: editor)
        }
        if !isDumb, let visual = value("VISUAL") { return GitEditor(command: visual) }
        if let editor = value("EDITOR") { return GitEditor(command: editor) }
        return isDumb ? nil : GitEditor(command: "vi")
    }

    /// `:` (what scripts set to skip the editor) opens nothing.
    public var isNoOp: Bool { command == ":" }

    /// The program's name without folder or arguments (`/usr/bin/nvim -p` → `nvim`), to know
    /// how it takes a line number.
    public var programName: String {
        let first = command.split(separator: " ").first.map(String.init) ?? command
        return String(first.split(separator: "/").last ?? Substring(first))
    }

    /// Runs the editor on `arguments` in `directory`, on this terminal, and waits for it: its
    /// exit status (128 + the signal that ended it). Ctrl-C meanwhile goes to the editor, not
    /// to this process, as with git.
    public func run(_ arguments: [String], in directory: String) throws(GitError) -> Int32 {
        // As git: the command through the shell, the files as its arguments.
        let argv = ["/bin/sh", "-c", "cd \"$1\" && shift && \(command) \"$@\"", command, directory] + arguments
        let environment = ProcessEnvironment.forChild()
        let savedInterrupt = signal(SIGINT, SIG_IGN), savedQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, savedInterrupt)
            signal(SIGQUIT, savedQuit)
        }
        // The editor gets the signals' defaults back.
        var child: pid_t = 0
        let result = withSpawnAttributes(defaultSignals: [SIGINT, SIGQUIT]) { attributes in
            withCStrings(argv) { argv in
                withCStrings(environment) { envp in posix_spawn(&child, "/bin/sh", nil, &attributes, argv, envp) }
            }
        }
        guard result == 0 else {
            throw GitError(
                code: -1, message: "could not run the editor (\(command)): \(String(cString: strerror(result)))",
                function: "posix_spawn")
        }
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0, errno == EINTR {}
        return (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }
}

extension Repository {
    /// The editor git would run here.
    public func editor() throws(GitError) -> GitEditor? {
        GitEditor.resolve(environment: ProcessEnvironment.all(), coreEditor: try configString("core.editor"))
    }
}
