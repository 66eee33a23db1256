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

/// todosync-core in the folder this program was started from (on Linux with symbolic links
/// followed; `command`, argv[0], only if the system cannot say).
func coreExecutable(startedAs command: String) -> String {
    var path = [CChar](repeating: 0, count: 4096)
    #if os(Linux)
    let length = readlink("/proc/self/exe", &path, path.count - 1)
    let own = length > 0 ? String(decoding: path.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) : command
    #else
    var size = UInt32(path.count)
    let own = _NSGetExecutablePath(&path, &size) == 0
        ? String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : command
    #endif
    let folder = own.contains("/") ? String(own[..<own.lastIndex(of: "/")!]) : "."
    return folder + "/todosync-core"
}
