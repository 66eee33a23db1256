#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The program now running.
public enum RunningProgram {
    /// Its file (on Linux with symbolic links followed); nil if the system cannot say.
    public static var path: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        #if os(Linux)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        #else
        var size = UInt32(buffer.count)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        #endif
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
