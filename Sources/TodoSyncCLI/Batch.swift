import ArgumentParser
import TodoModel
import TodoSyncKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Run many item commands as ONE commit: one undo unit.",
        discussion: """
            Reads one command per line, written as you would type it after `todosync` (add, done, reopen, edit, mv, rm, settle), with shell-style quoting. Blank lines and lines starting with # are skipped. A bad line (unknown command, no such item, several matches) rejects the whole batch before anything is written, and the error names the line.

            Example plan.txt:
              add "Buy milk" --priority high
              add "Call Bob" --under Errands --due 2026-12-01
              done "Pay rent"
              mv "Call Bob" --before "Buy milk"

              todosync batch plan.txt       or: todosync batch < plan.txt
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(help: "The file to read; standard input if none (or -).") var file: String?

    static let itemCommands: Set<String> = ["add", "done", "reopen", "edit", "mv", "rm", "settle"]

    func run() throws {
        let text = try readInput()
        var requests: [ItemRequest] = []
        var lineNumbers: [Int] = []
        // NB: "\r\n" is one Character in Swift: split on each kind of line ending.
        let lines = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        for (index, line) in lines.enumerated() {
            let number = index + 1
            do {
                let words = try ShellWords.split(String(line))
                guard !words.isEmpty else { continue }
                guard Self.itemCommands.contains(words[0]),
                    let command = try TodoSync.parseAsRoot(words) as? ItemCommand
                else {
                    throw ValidationError("\"\(words[0])\" cannot go in a batch: use add, done, reopen, edit, mv or rm")
                }
                if command.repository.location.given != nil {
                    throw ValidationError("-C cannot go in a batch line; give it to batch itself")
                }
                requests.append(try command.request())
                lineNumbers.append(number)
            } catch {
                let why = (error as? ShellWords.Failure)?.description ?? TodoSync.message(for: error)
                Console.fail(
                    TodoSyncError(
                        "\(source) line \(number): \(why); nothing in the batch was applied",
                        hint: "fix that line and run the batch again"))
                throw ExitCode.failure
            }
        }
        guard !requests.isEmpty else {
            Console.out("The batch is empty: nothing to do.")
            return
        }
        let workspace = try repository.openWorkspace()
        let outcome = try runReportingErrors(on: workspace) {
            try workspace.perform(requests, lineNumbers: lineNumbers)
        }
        Console.report(outcome)
    }

    /// The file of commands, nil for standard input (none given, or `-`).
    private var path: String? { file == "-" ? nil : file }

    private var source: String { path ?? "standard input" }

    private func readInput() throws -> String {
        var bytes: [UInt8] = []
        let fd: Int32 = path.map { open($0, O_RDONLY) } ?? 0
        guard fd >= 0 else {
            Console.fail(
                TodoSyncError(
                    "cannot read \(source): \(String(cString: strerror(errno)))",
                    hint: "give the path of a file of commands, or - to read them from standard input"))
            throw ExitCode.failure
        }
        defer { if fd != 0 { close(fd) } }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
