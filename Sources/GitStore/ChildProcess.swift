import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program git would run to reach a remote (ssh, git-upload-pack, git-receive-pack), run
/// with its standard input and output on sockets to this process, so that writing to a program
/// that stopped fails instead of raising SIGPIPE; its standard error is kept in an unlinked
/// temporary file, for the message when it fails. It keeps the terminal, so ssh can ask for a
/// passphrase or about an unknown host on it, as it does for git.
final class ChildProcess {
    let arguments: [String]
    private let pid: pid_t
    private var input: Int32
    private var output: Int32
    private let errors: Int32
    private var status: Int32?
    /// How long the program may neither send nor take anything before it is called stalled;
    /// nil: no limit.
    var silenceLimit: Double?
    /// It stayed silent beyond the limit: stopped at once, not waited for.
    private var isStalled = false

    /// Variables that point git at this repository: a child working on another repository
    /// must not see them (git's `local_repo_env`).
    static let repositoryVariables: Set<String> = [
        "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
        "GIT_OBJECT_DIRECTORY",
        "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE",
        "GIT_NO_REPLACE_OBJECTS",
        "GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR", "GIT_PROTOCOL",
    ]

    /// Starts `arguments` (the first looked up in PATH), with `environment` added to this
    /// process's (less the variables that name this repository).
    init(_ arguments: [String], environment extra: [String: String] = [:]) throws(GitError) {
        self.arguments = arguments
        var inputPair: [Int32] = [-1, -1], outputPair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &inputPair) == 0 else {
            throw Self.failure("socketpair")
        }
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &outputPair) == 0
        else {
            let failure = Self.failure("socketpair")
            close(inputPair[0]); close(inputPair[1])
            throw failure
        }
        var template = Array("\(ProcessEnvironment.temporaryDirectory)/todosync-remote-XXXXXX".utf8CString)
        // NB: a template made from a C string is never empty (it holds at least its NUL), so it has a base address.
        let errorFile = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard errorFile >= 0 else {
            let failure = Self.failure("mkstemp")
            for fd in inputPair + outputPair { close(fd) }
            throw failure
        }
        // NB: the template is never empty (see above).
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(errorFile, F_SETFD, FD_CLOEXEC)
        defer {
            close(inputPair[1])
            close(outputPair[1])
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, outputPair[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorFile, 2)
        let environment = ProcessEnvironment.forChild(adding: extra, removing: Self.repositoryVariables)
        var child: pid_t = 0
        let result = withSpawnAttributes(defaultSignals: [SIGPIPE]) { attributes in
            withCStrings(arguments) { argv in
                withCStrings(environment) { envp in
                    posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
                }
            }
        }
        guard result == 0 else {
            for fd in [inputPair[0], outputPair[0], errorFile] { close(fd) }
            throw GitError(
                code: -1, message: "could not run \(arguments[0]): \(String(cString: strerror(result)))",
                function: "posix_spawnp")
        }
        pid = child
        input = inputPair[0]
        output = outputPair[0]
        errors = errorFile
    }

    deinit {
        _ = finish()
        close(errors)
    }

    /// Writes all of `bytes` to the program's standard input.
    func write(_ bytes: UnsafeRawBufferPointer) throws(GitError) {
        var offset = 0
        while offset < bytes.count {
            try waitUntilReady(input, for: Int16(POLLOUT))
            // NB: the loop runs only while `bytes` is not empty, so it has a base address.
            let written = send(input, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written < 0 {
                if errno == EINTR { continue }
                throw stopped()
            }
            offset += written
        }
    }

    /// Runs `arguments` to the end with `input` on its standard input: its exit status (nil if
    /// it had to be stopped), its standard output and what it said on standard error.
    static func run(
        _ arguments: [String], input: [UInt8], environment: [String: String] = [:]
    ) throws(GitError) -> (status: Int32?, output: [UInt8], errors: String) {
        let child = try ChildProcess(arguments, environment: environment)
        defer { child.finish() }
        let inputBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(input.count, 1), alignment: 1)
        defer { inputBuffer.deallocate() }
        inputBuffer.copyBytes(from: input)
        do {
            try child.write(UnsafeRawBufferPointer(rebasing: inputBuffer[0..<input.count]))
        } catch {
            // It ended without reading all of it (a signer that cannot find its key): its
            // status and message say how.
        }
        child.closeInput()
        return child.collect()
    }

    /// Reads its standard output to the end and waits for it: its exit status (nil if it had
    /// to be stopped), its output and what it said on standard error.
    func collect() -> (status: Int32?, output: [UInt8], errors: String) {
        let child = self
        var output: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { buffer.deallocate() }
        do {
            while true {
                let count = try child.read(into: buffer)
                if count == 0 { break }
                output += buffer[0..<count]
            }
        } catch {
            // It failed: its status and message say how.
        }
        let errors = child.errorText
        return (child.finish(), output, errors)
    }

    /// The descriptor its standard output is read from, to wait on several programs at once.
    var outputDescriptor: Int32 { output }

    /// Closes its standard input: the program reads its end.
    func closeInput() {
        if input >= 0 { close(input); input = -1 }
    }

    /// Reads what the program wrote to its standard output, up to `buffer.count` bytes; 0 at
    /// its end. A program that ended with a failure throws, with what it said.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(GitError) -> Int {
        while true {
            try waitUntilReady(output, for: Int16(POLLIN))
            let count = recv(output, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return count }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw Self.failure("recv") }
            // The end of its output: it ended (or is ending). A failure is its message.
            if let status = waitBriefly(), status != 0 { throw stopped() }
            return 0
        }
    }

    /// Returns once `fd` can be read or written (`events`); throws when the program stays
    /// silent beyond `silenceLimit`.
    private func waitUntilReady(_ fd: Int32, for events: Int16) throws(GitError) {
        guard let silenceLimit else { return }
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let ready = poll(&entry, 1, Int32(min(silenceLimit * 1000, Double(Int32.max))))
            if ready > 0 { return }
            if ready < 0, errno == EINTR { continue }
            if ready < 0 { throw Self.failure("poll") }
            let program =
                arguments.first == "/bin/sh" ? (arguments.dropFirst(3).first ?? "ssh") : (arguments.first ?? "")
            var error = GitError(
                code: -1, errorClass: Int32(GIT_ERROR_NET.rawValue),
                message: "the remote stopped answering: \(program) sent nothing for \(Int(silenceLimit)) s",
                function: "remote program")
            error.isRemoteSilent = true
            isStalled = true
            throw error
        }
    }

    /// Closes its input and output and waits for it (stopping one that does not end); its exit
    /// status, or nil if it had to be stopped.
    @discardableResult
    func finish() -> Int32? {
        if input >= 0 { close(input); input = -1 }
        if output >= 0 { close(output); output = -1 }
        if let status { return status }
        if !isStalled, let status = waitBriefly() { return status }
        kill(pid, SIGTERM)
        if let status = waitBriefly() { return status }
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        status = -1
        return nil
    }

    /// What the program wrote to its standard error (its last few lines).
    var errorText: String {
        let size = lseek(errors, 0, SEEK_END)
        guard size > 0 else { return "" }
        let kept = min(Int(size), 4096)
        var bytes = [UInt8](repeating: 0, count: kept)
        let count = pread(errors, &bytes, kept, off_t(Int(size) - kept))
        let text = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
        return text.split(separator: "\n").suffix(12).joined(separator: "\n")
    }

    /// The error for a program that stopped talking: what it said, else how it ended.
    private func stopped() -> GitError {
        let said = errorText
        let status = waitBriefly()
        let ending = status.map { $0 == 0 ? "it ended" : "it exited with status \($0)" } ?? "it stopped answering"
        let program = arguments.first == "/bin/sh" ? (arguments.dropFirst(3).first ?? "ssh") : (arguments.first ?? "")
        let message = said.isEmpty ? "\(program) failed: \(ending)" : "\(program) failed: \(said)"
        return GitError(
            code: -1, errorClass: Int32(GIT_ERROR_NET.rawValue), message: message, function: "remote program")
    }

    /// The exit status, waiting up to about two seconds for it (a program that closed its
    /// output is most likely exiting: looked at again soon, then less often).
    private func waitBriefly() -> Int32? {
        if let status { return status }
        var pause: UInt32 = 50
        var waited: UInt32 = 0
        while waited < 2_000_000 {
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                // Exited: its code; killed by a signal: 128 + the signal, as a shell says.
                let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
                status = code
                return code
            }
            if result < 0, errno != EINTR { status = -1; return -1 }
            usleep(pause)
            waited += pause
            pause = min(pause * 2, 100_000)
        }
        return nil
    }

    private static func failure(_ function: String) -> GitError {
        GitError(
            code: -1, errorClass: Int32(GIT_ERROR_OS.rawValue), message: String(cString: strerror(errno)),
            function: function)
    }
}

/// Runs `body` with spawn attributes that give the child the default action of `signals`:
/// what this process ignores or catches, a program it starts must not inherit.
func withSpawnAttributes<R>(defaultSignals signals: [Int32], _ body: (inout posix_spawnattr_t) -> R) -> R {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in signals { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
    return body(&attributes)
}

/// Runs `body` with `strings` as a NULL-terminated C array.
func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
