import ArgumentParser
import TodoSyncKit

struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the lists in your editor; commit what you changed as one undo unit when it exits.",
        discussion: """
            The editor is the one git runs: GIT_EDITOR, else git config core.editor, else VISUAL (not on a dumb terminal), else EDITOR, else vi. Like git commit, todosync waits for the editor to exit, so an editor that forks into the background needs its wait flag (code --wait, subl -w, gvim -f).

            With no argument it opens every list (TODO.md if there is none yet); with a file, that file; with an item (part of its title or the first digits of its id), the file that holds it, at its line (vi, vim, nvim, nano, emacs, micro, kak: +LINE; VS Code: --goto; subl, hx, zed: FILE:LINE).

            Edits not committed yet are committed first, as their own unit, so the editor session is one unit of its own (todosync undo takes back exactly what you did in the editor). If the editor exits with an error, nothing is committed: what you saved stays in the files, and the next todosync commits it.

            (`todosync edit` is another command: it changes one item's title, priority or due date from the command line.)

            Examples:
              todosync open                 every list
              todosync open work/TODO.md    one file
              todosync open milk            the list holding "milk", at its line
            """)

    @OptionGroup var repository: CommittingOptions

    @Argument(
        help: "A list file, or an item (part of its title or the first digits of its id); default: every list.",
        completion: ItemCompletion.of(.all))
    var target: String?

    func run() throws {
        let workspace = try repository.openWorkspace()
        let session = try runReportingErrors(on: workspace) { try workspace.editorSession(for: target) }
        // What was there before is its own unit: the editor session's unit is only the session.
        let before = try runReportingErrors(on: workspace) { try workspace.commit() }
        Console.warn(before.unit.diagnostics)
        if let commit = before.commit {
            Console.out("[\(commit.short)] \(before.message.summary) (your edits, committed first)")
        }
        guard !session.editor.isNoOp else { return }
        let status = try runReportingErrors { try workspace.run(session) }
        guard status == 0 else {
            Console.fail(
                TodoSyncError(
                    "the editor (\(session.editor.command)) exited with status \(status); nothing was committed",
                    hint: "what you saved is still in the files: run todosync to commit it"))
            throw ExitCode.failure
        }
        try Commit.perform(in: repository.directory, summary: nil, runsHooks: !repository.noVerify)
    }
}
