#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore

/// The repository's hooks, run where git runs them (githooks(5)): pre-commit (pre-merge-commit
/// for a sync's merge) and commit-msg before a commit is made, post-commit (post-merge) after
/// the branch moved, pre-push before a push. `--no-verify` skips pre-commit, commit-msg and
/// pre-push, as it does for git.
extension Workspace {
    /// Runs the hooks that may refuse a commit of `tree`; the message as commit-msg left it.
    func runCommitHooks(tree: OID, isMerge: Bool, message: String) throws(TodoSyncError) -> String {
        guard runsHooks else { return message }
        let hooks = try git("reading core.hooksPath") { try repository.hooks() }
        let first = isMerge ? "pre-merge-commit" : "pre-commit"
        if hooks.path(first) != nil {
            // The hook reads the commit to be made from git's index, as with `git commit PATH…`.
            let index = scratch.temporary + "/next-index"
            defer { unlink(index) }
            try git("writing the index for the \(first) hook") { try repository.writeIndex(of: tree, to: index) }
            let status = try git("running the \(first) hook") {
                try hooks.run(first, environment: ["GIT_INDEX_FILE": index, "GIT_EDITOR": ":"])
            }
            if let status, status != 0 { throw Self.hookRefusal(first, status, what: "the commit") }
        }
        guard hooks.path("commit-msg") != nil else { return message }
        let file = repository.gitDirectory + "COMMIT_EDITMSG"
        try FileSystem.writeAtomically(file, Array(message.utf8))
        let status = try git("running the commit-msg hook") {
            try hooks.run("commit-msg", arguments: [file], environment: ["GIT_EDITOR": ":"])
        }
        if let status, status != 0 { throw Self.hookRefusal("commit-msg", status, what: "the commit") }
        guard let edited = try FileSystem.read(file) else { return message }
        return String(decoding: edited, as: UTF8.self)
    }

    /// post-commit (post-merge for a merge) once the branch moved; what it says is shown, its
    /// exit status changes nothing (as in git).
    func runPostCommitHook(isMerge: Bool) {
        guard let hooks = try? repository.hooks() else { return }
        _ = try? isMerge ? hooks.run("post-merge", arguments: ["0"]) : hooks.run("post-commit")
    }

    /// pre-push, with git's arguments and input line; a refusal stops the push.
    func runPrePushHook(_ upstream: Upstream, local: OID, remote: OID?) throws(TodoSyncError) {
        guard runsHooks else { return }
        let hooks = try git("reading core.hooksPath") { try repository.hooks() }
        guard hooks.path("pre-push") != nil else { return }
        let zero = String(repeating: "0", count: 40)
        let line = "\(upstream.localBranch) \(local) \(upstream.remoteBranch) \(remote?.description ?? zero)\n"
        let status = try git("running the pre-push hook") {
            try hooks.run(
                "pre-push", arguments: [upstream.remote, Credentials.removed(from: upstream.url)],
                input: Array(line.utf8))
        }
        if let status, status != 0 { throw Self.hookRefusal("pre-push", status, what: "the push") }
    }

    private static func hookRefusal(_ hook: String, _ status: Int32, what: String) -> TodoSyncError {
        let nothing =
            what == "the push"
            ? "nothing was pushed; your commits are safe here" : "nothing was committed; your edits are where they were"
        return TodoSyncError(
            "the \(hook) hook refused \(what) (exit status \(status)); \(nothing)",
            hint: "its output is above: do what it asks, or skip the hooks once with --no-verify, as with git")
    }
}
