import QuickStatus

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `todosync status`, when nothing changed since a status said so, is answered here from file
// stamps (see CleanState). Everything else runs todosync-core, which sits beside this program,
// with the same arguments.
// NB: argv is looked at in C: building CommandLine.arguments costs more than the rest here.
let argv = CommandLine.unsafeArgv
if CommandLine.argc == 2, strcmp(argv[1]!, "status") == 0, let report = CleanState.reportForCurrentDirectory() {
    print(report.joined(separator: "\n"))
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
