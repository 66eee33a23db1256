import ArgumentParser
import TodoSyncKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct TodoSync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todosync",
        abstract: "Keep Markdown TODO lists in git: stable item ids, one commit per edit session.",
        discussion: """
            Write checklists ("- [ ] Buy milk") in TODO.md or any Markdown file with any editor, then run `todosync`: it gives each new item an id (an invisible HTML comment at the end of its line) and makes one git commit that says in words what changed.

            Start with `todosync init`, or run todosync in any git repository. Which files are lists: Markdown files holding task items, except README.md; change it with `git config --add todosync.include 'lists/*.md'` or `todosync.exclude`.

            Options for every command, before or after it: -C <dir> (run as if started in <dir>), --no-color (colour is used only on a terminal, never with NO_COLOR set or TERM=dumb), --json (status, sync, list and log print JSON; docs/CLI.md has the schemas). `todosync --version` prints the version.

            Exit status: 0 done, 1 an error (the message says what, and what to do), 64 a command line todosync cannot read; `status --exit-code` exits 2 when there is something to commit.
            """,
        subcommands: [
            Commit.self, Status.self, Sync.self, Init.self, Add.self, Done.self, Reopen.self, Edit.self, Move.self,
            Remove.self, Batch.self, List.self, AgendaCommand.self, Undo.self, Redo.self, Log.self, Open.self,
            Watch.self, Settle.self, Show.self, History.self, ICS.self, Resolve.self, MergeFile.self,
        ],
        defaultSubcommand: Commit.self
    )

    static let version = "0.1.0"

    static func main() {
        installProcessHandlers()
        // Not the parser's --version: it would be offered under every command.
        if Array(CommandLine.arguments.dropFirst()) == ["--version"] {
            Console.out(version)
            Self.exit()
        }
        let global: GlobalOptions
        do {
            global = try GlobalOptions(parsing: Array(CommandLine.arguments.dropFirst()))
        } catch {
            Console.fail(
                TodoSyncError(error.message, hint: "todosync -C <dir> <command> runs <command> as if started in <dir>"))
            Self.exit(withError: ExitCode.validationFailure)
        }
        Console.colorTurnedOff = global.noColor
        for directory in global.directories where chdir(directory) != 0 {
            let reason = String(cString: strerror(errno))
            Console.fail(
                TodoSyncError("cannot change to '\(directory)': \(reason)", hint: "check the folder given to -C"))
            Self.exit(withError: ExitCode.failure)
        }
        // Every subcommand names itself in its configuration (`CommandNameTests`).
        let known = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        if let problem = CommandNameCheck.problem(global.arguments, known: known) {
            Console.fail(problem)
            Self.exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = try quickParse(global.arguments) ?? parseAsRoot(global.arguments)
            try command.run()
        } catch {
            exitTelling(error)
        }
    }

    /// The command line parsed straight into the command it names, where it names one and
    /// asks the parser nothing of its own (help, a completion script, a manual): the root's
    /// parse first reads every line as two completion-script requests, each built by
    /// reflection, which costs more than most commands' own work. nil for anything else and
    /// for a line the command cannot read: the root's parse takes it, and says what is wrong.
    static func quickParse(_ arguments: [String]) -> ParsableCommand? {
        let asksTheParser = arguments.contains { argument in
            argument == "help" || argument == "-h" || argument == "--help" || argument == "--version"
                || argument.hasPrefix("--generate-") || argument.hasPrefix("--experimental")
        }
        guard !asksTheParser else { return nil }
        let named = arguments.first.flatMap { first in
            configuration.subcommands.first { $0.configuration.commandName == first }
        }
        guard let command = named ?? (arguments.isEmpty ? configuration.defaultSubcommand : nil) else { return nil }
        return try? command.parse(Array(arguments.dropFirst(named == nil ? 0 : 1)))
    }

    /// Exits as the parser would, in todosync's one voice: help goes to standard output; a
    /// command line todosync cannot read is `todosync: error: …`, the usage, and a hint, exit
    /// 64; errors a command already reported just set the exit status.
    static func exitTelling(_ error: Error) -> Never {
        let code = exitCode(for: error)
        if error is ExitCode || code == .success { Self.exit(withError: error) }
        let lines = fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var message: [String] = [], usage: [String] = [], more: String?
        for line in lines {
            let trimmed = String(line.drop { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix("See '"), let end = trimmed.dropFirst(5).firstIndex(of: "'") {
                more = String(trimmed.dropFirst(5)[..<end])
            } else if trimmed.hasPrefix("Usage: ") || !usage.isEmpty {
                if !trimmed.isEmpty { usage.append(trimmed) }
            } else {
                message.append(line.hasPrefix("Error: ") ? String(line.dropFirst(7)) : line)
            }
        }
        while message.last?.isEmpty == true { message.removeLast() }
        // The usage line under the error, as git prints it; then what to read.
        if let first = usage.first { message.append(first.replacingOccurrences("Usage: ", with: "usage: ")) }
        Console.fail(
            TodoSyncError(
                message.joined(separator: "\n"), hint: "\(more ?? "todosync --help") says what each option takes"))
        Self.exit(withError: ExitCode(code == .failure ? ExitCode.validationFailure.rawValue : code.rawValue))
    }
}

extension TodoSync {
    /// What only a program may decide, the library leaving it to its caller: work stuck inside
    /// libgit2 ends the process with the library's message (nothing is half-written: the next
    /// run finishes or undoes a stopped write), and the crash tests' stop after a write step.
    static func installProcessHandlers() {
        Workspace.stuckWorkHandler = { message in
            _ = message.withCString { write(2, $0, strlen($0)) }
            _exit(1)
        }
        if let step = getenv("TODOSYNC_TEST_STOP_AFTER").map({ String(cString: $0) }) {
            Workspace.afterWriteStep = { done in
                if done == step { _exit(86) }
            }
        }
    }
}
