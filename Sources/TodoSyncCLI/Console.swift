import TodoModel
import TodoSyncKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the CLI's words go. Only the CLI prints.
enum Console {
    static func out(_ text: String) { write(1, text + "\n") }

    static func warn(_ text: String) { write(2, "todosync: warning: " + text + "\n") }

    static func warn(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { warn(diagnostic.description) }
    }

    /// A progress line on standard error, rewritten in place; nil clears it.
    static func progress(_ text: String?) {
        write(2, text.map { "\r\u{1B}[K" + $0 } ?? "\r\u{1B}[K")
    }

    /// Text that is already a whole message, on standard error.
    static func error(_ text: String) { write(2, text + "\n") }

    static func fail(_ error: TodoSyncError) {
        write(2, "todosync: error: \(error.message)\n")
        if let hint = error.hint { write(2, "hint: \(hint)\n") }
    }

    /// Everything printed goes through here: no URL in it shows a password or token.
    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(Credentials.removed(from: text).utf8)
        var offset = 0
        // NB: baseAddress! below cannot fail: the loop runs only while bytes is not empty.
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Darwin.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if count <= 0 { return }
            offset += count
        }
    }
}
