import QuickStatus

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `todosync status` and plain `todosync`, when nothing changed since a status or a commit
// found the tree clean, are answered here from file stamps (see CleanState). Everything else
// runs todosync-core, which sits beside this program, with the same arguments.
// NB: argv is looked at in C: building CommandLine.arguments costs more than the rest here.
let argv = CommandLine.unsafeArgv
if let (command, directory) = quickCommand(), let answer = CleanState.answer(command, in: directory) {
    print(answer.joined(separator: "\n"))
    exit(0)
}
let core = coreExecutable(startedAs: String(cString: argv[0]!))
execv(core, argv)
let reason = String(cString: strerror(errno))
let message = """
    todosync: error: cannot run \(core): \(reason)
    hint: build both programs (swift build -c release) and keep todosync-core beside todosync

    """
_ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
exit(127)

/// todosync-core in the folder this program was started from (`command`, argv[0], only if the
/// system cannot say where that is).
func coreExecutable(startedAs command: String) -> String {
    let own = RunningProgram.path ?? command
    let folder = own.contains("/") ? String(own[..<own.lastIndex(of: "/")!]) : "."
    return folder + "/todosync-core"
}

/// The command, and the folder it runs in, when the arguments are one of the forms answered
/// here: `todosync`, `todosync commit`, `todosync status`, each with `-C DIR` after it (the
/// forms todosync-core accepts; `todosync -C DIR status` it rejects, and so goes there).
@MainActor func quickCommand() -> (CleanState.Command, String)? {
    func argument(_ index: Int32) -> UnsafeMutablePointer<CChar> { argv[Int(index)]! }
    var next: Int32 = 1
    var command = CleanState.Command.commit
    if next < CommandLine.argc, strcmp(argument(next), "status") == 0 {
        command = .status
        next += 1
    } else if next < CommandLine.argc, strcmp(argument(next), "commit") == 0 {
        next += 1
    }
    var directory = "."
    if next + 1 < CommandLine.argc, strcmp(argument(next), "-C") == 0 {
        directory = String(cString: argument(next + 1))
        next += 2
    }
    return next == CommandLine.argc ? (command, directory) : nil
}
