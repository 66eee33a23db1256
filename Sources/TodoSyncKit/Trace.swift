#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Phase timings on standard error, as GIT_TRACE_PERFORMANCE gives them for git: for finding
/// where a slow command spends its time on the user's own machine
/// (`WorkspaceConfiguration.traces`; the todosync command sets it from `TODOSYNC_TRACE`).
enum Trace {
    /// Set with the workspace's configuration (one switch for the process: phases are timed
    /// before any workspace is open).
    nonisolated(unsafe) static var isOn = false

    static func phase<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard isOn else { return try body() }
        let start = now()
        defer {
            let line =
                "todosync trace: \(name): \(String(Double(Int((now() - start) * 10_000)) / 10)) ms (memory \(currentMegabytes().map { "now \($0) MB, " } ?? "")peak so far \(peakMegabytes()) MB)\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        }
        return try body()
    }

    /// A line of the trace that is not a phase: how much a step took in (files read, merged).
    static func note(_ text: @autoclosure () -> String) {
        guard isOn else { return }
        let line = "todosync trace: \(text())\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    /// The process's largest resident size so far (`getrusage`), for where a command's memory peaks.
    static func peakMegabytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss / 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss / (1024 * 1024)  // bytes on macOS
        #endif
    }

    /// The process's resident size now, where the system tells it (Linux's /proc/self/statm):
    /// with the peak, it shows whether a phase's memory was given back.
    static func currentMegabytes() -> Int? {
        #if os(Linux)
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / (1024 * 1024)
        #else
        return nil
        #endif
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
