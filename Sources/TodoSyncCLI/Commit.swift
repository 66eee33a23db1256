import ArgumentParser
import TodoModel
import TodoSyncKit

struct Commit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commit",
        abstract: "Add ids to new items and commit every list change as one undo unit (the default command).",
        discussion: """
            Reads every list file, writes an id comment on each item that lacks one (only into files that did not change while todosync read them), and makes one commit of everything that changed since the last commit. The message says what changed, item by item. With nothing changed it makes no commit and says so.

            Examples:
              todosync                      commit the edits of this editor session
              todosync -m "Plan the week"   the same, with your own summary line
            """)

    @OptionGroup var repository: CommittingOptions

    @Option(name: .shortAndLong, help: "Use <message> as the summary line; the body still lists every change.")
    var message: String?

    func validate() throws {
        if let message, message.allSatisfy({ $0 == " " || $0 == "\t" }) {
            throw ValidationError("the message given with -m is empty; leave -m out to get a summary written for you")
        }
        if let message, message.contains("\n") {
            throw ValidationError("-m takes the one-line summary; the body is written for you")
        }
    }

    func run() throws {
        try Self.perform(in: repository.directory, summary: message, runsHooks: !repository.noVerify)
    }

    static func perform(in directory: String, summary: String?, runsHooks: Bool = true) throws {
        if summary == nil,
            let answer = Workspace.answerFromStamps(
                status: false, in: directory, configuration: RepositoryOption.workspaceConfiguration)
        {
            answer.forEach(Console.out)
            return
        }
        let workspace = try RepositoryOption.openWorkspace(at: directory)
        workspace.runsHooks = runsHooks
        let outcome = try runReportingErrors(on: workspace) { try workspace.commit(summary: summary) }
        Console.warn(outcome.unit.diagnostics)
        if let warning = outcome.identityWarning { Console.warn(warning) }
        guard let commit = outcome.commit else {
            if let nothingYet = Status.nothingYet(workspace) {
                nothingYet.forEach(Console.out)
                return
            }
            Console.out("Nothing changed since the last commit.")
            // The next `todosync` or `status` with nothing changed is then answered from stamps.
            workspace.recordCleanState(
                outcome.unit,
                report: {
                    Status.header(workspace) + Status.clashLines(outcome.unit.clashes) + [
                        "Nothing changed since the last commit."
                    ]
                })
            return
        }
        Console.committed(commit.short, outcome.message, branch: (try? workspace.branch()) ?? nil)
    }
}

extension Console {
    /// A commit as `git commit` shows it: branch, short id and summary, then the body.
    static func committed(_ shortID: String, _ message: CommitMessage, branch: String?) {
        out("[\(branch ?? "HEAD") \(shortID)] \(message.summary)")
        for line in message.body { out(" " + line) }
    }
}
