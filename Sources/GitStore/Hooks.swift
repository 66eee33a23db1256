import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The repository's hooks (githooks(5)), run as git runs them: from `core.hooksPath` or the
/// git directory's `hooks` folder, only when executable, in the working tree's root, with
/// their output on standard error and the variables given added to the environment.
public struct Hooks: Sendable {
    public let directory: String
    let workTree: String

    /// The program for hook `name`, if there is one git would run.
    public func path(_ name: String) -> String? {
        let path = directory + "/" + name
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else { return nil }
        return path
    }

    /// Runs hook `name` with `arguments`, `input` on its standard input: nil when there is
    /// no such hook, else its exit status (128 + the signal that ended it).
    public func run(
        _ name: String, arguments: [String] = [], input: [UInt8] = [], environment extra: [String: String] = [:]
    ) throws(GitError) -> Int32? {
        guard let program = path(name) else { return nil }
        // A socket, not a pipe: writing to a hook that does not read its input must fail
        // (MSG_NOSIGNAL), not raise SIGPIPE.
        var pipeEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipeEnds) == 0 else {
            throw failure("socketpair")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        let environment = ProcessEnvironment.forChild(adding: extra)
        var child: pid_t = 0
        // In the working tree's root: the shell changes folder, then becomes the hook.
        let arguments = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", workTree, program] + arguments
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawn(&child, "/bin/sh", &actions, nil, argv, envp) }
        }
        close(pipeEnds[0])
        guard result == 0 else {
            close(pipeEnds[1])
            throw GitError(
                code: -1, message: "could not run the \(name) hook (\(program)): \(String(cString: strerror(result)))",
                function: "posix_spawn")
        }
        var offset = 0
        // NB: baseAddress! cannot fail: the loop runs only while input is not empty.
        while offset < input.count {
            let written = input.withUnsafeBytes {
                send(pipeEnds[1], $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        close(pipeEnds[1])
        var raw: Int32 = 0
        while waitpid(child, &raw, 0) < 0, errno == EINTR {}
        return (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
    }

    private func failure(_ function: String) -> GitError {
        GitError(
            code: -1, errorClass: Int32(GIT_ERROR_OS.rawValue), message: String(cString: strerror(errno)),
            function: function)
    }
}

extension Repository {
    /// The hooks git would run here (`core.hooksPath`, relative to the working tree's root,
    /// else `hooks` in the git directory shared by all worktrees).
    public func hooks() throws(GitError) -> Hooks {
        var directory = commonDirectory + "hooks"
        if let configured = try configString("core.hooksPath").map(ProcessEnvironment.expandingHome) {
            directory = configured.hasPrefix("/") ? configured : workTreeRoot + "/" + configured
        }
        return Hooks(directory: directory, workTree: workTreeRoot)
    }

    /// Writes an index file at `path` holding `tree`, for hooks that read the commit to be made
    /// (git's own temporary index for `git commit PATH…`).
    public func writeIndex(of tree: OID, to path: String) throws(GitError) {
        var index: OpaquePointer?
        try GitError.check(git_index_open(&index, path), "git_index_open")
        defer { git_index_free(index) }
        var raw = tree.raw
        var treeObject: OpaquePointer?
        try GitError.checkReading("git_tree_lookup", of: "reading tree \(tree.short)") {
            git_tree_lookup(&treeObject, pointer, &raw)
        }
        defer { git_tree_free(treeObject) }
        try GitError.check(git_index_read_tree(index, treeObject), "git_index_read_tree")
        try GitError.check(git_index_write(index), "git_index_write")
    }
}
