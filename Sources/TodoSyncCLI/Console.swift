import TodoModel
import TodoSyncKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the CLI's words go. Only the CLI prints.
enum Console {
    /// Set by `--no-color` (before or after the command).
    nonisolated(unsafe) static var colorTurnedOff = false

    /// Whether output on `fd` may carry escape codes (colours, a progress line rewritten in
    /// place): a terminal, not TERM=dumb, no NO_COLOR (https://no-color.org), no --no-color.
    static func decorates(_ fd: Int32) -> Bool {
        guard !colorTurnedOff, fd == 1 || fd == 2 else { return false }
        return fd == 1 ? stdoutDecorated : stderrDecorated
    }

    // NB: asked once per stream (list paints every line); `colorTurnedOff` is checked each time.
    private static let stdoutDecorated = terminalTakesEscapes(1)
    private static let stderrDecorated = terminalTakesEscapes(2)

    private static func terminalTakesEscapes(_ fd: Int32) -> Bool {
        guard isatty(fd) == 1 else { return false }
        if let term = getenv("TERM").map({ String(cString: $0) }), term == "dumb" || term.isEmpty { return false }
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        return true
    }

    enum Style: String {
        case dim = "2", bold = "1", red = "31", green = "32", yellow = "33"
    }

    /// `text` in `style` where `fd` is decorated; as it is otherwise.
    static func paint(_ text: String, _ style: Style, on fd: Int32 = 1) -> String {
        decorates(fd) ? "\u{1B}[\(style.rawValue)m" + text + "\u{1B}[0m" : text
    }

    static func out(_ text: String) { write(1, text + "\n") }

    /// Text already in UTF-8, as it is (no line break added): a long output written as it
    /// goes. Each piece must end where no URL can be cut (a whole item), for the scrub.
    static func out(bytes: [UInt8]) { write(1, bytes: bytes) }

    static func warn(_ text: String) { write(2, paint("todosync: warning:", .yellow, on: 2) + " " + text + "\n") }

    static func warn(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { warn(diagnostic.description) }
    }

    /// A progress line on standard error, rewritten in place; nil clears it. Shown only where
    /// standard error is decorated (no escape codes into a pipe, a dumb terminal or NO_COLOR).
    static func progress(_ text: String?) {
        guard decorates(2) else { return }
        write(2, text.map { "\r\u{1B}[K" + $0 } ?? "\r\u{1B}[K")
    }

    /// Text that is already a whole message, on standard error.
    static func error(_ text: String) { write(2, text + "\n") }

    static func fail(_ error: TodoSyncError) {
        write(2, paint("todosync: error:", .red, on: 2) + " \(error.message)\n")
        if let hint = error.hint { write(2, "hint: \(hint)\n") }
    }

    /// Everything printed goes through here: no URL in it shows a password or token.
    private static func write(_ fd: Int32, _ text: String) {
        write(fd, bytes: Array(text.utf8))
    }

    private static func write(_ fd: Int32, bytes text: [UInt8]) {
        var bytes = Credentials.removed(fromBytes: text)
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

/// Lines of text written to standard output a megabyte at a time, each piece ending with a
/// whole line (the credentials scrub never sees a URL cut in two).
struct TextWriter {
    private var out: [UInt8] = []

    mutating func line(_ text: String) {
        out += text.utf8
        out.append(0x0A)
        if out.count >= 1 << 20 {
            Console.out(bytes: out)
            out.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish() {
        if !out.isEmpty { Console.out(bytes: out) }
        out.removeAll()
    }
}
