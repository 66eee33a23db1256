#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says about one path, or that nothing is there: enough to tell, without reading
/// it, that a file or folder was not touched since (as git's index does for its files).
public struct FileStamp: Hashable, Sendable {
    public var path: String
    /// nil: nothing at the path.
    public var status: Status?

    public struct Status: Hashable, Sendable {
        public var size: Int64
        /// Nanoseconds since 1970: last change of the contents (a folder's: an entry added,
        /// removed or renamed), and last change of anything about the file.
        public var modified: Int64
        public var changed: Int64
        public var inode: UInt64
        public var device: UInt64
        public var mode: UInt32

        public init(size: Int64, modified: Int64, changed: Int64, inode: UInt64, device: UInt64, mode: UInt32) {
            (self.size, self.modified, self.changed, self.inode, self.device, self.mode) = (
                size, modified, changed, inode, device, mode
            )
        }
    }

    public init(path: String, status: Status?) {
        self.path = path
        self.status = status
    }

    /// Stats `path` (following symbolic links, as readers of it do); nil when it cannot tell
    /// (a permission error, say): a stamp is only taken of what is known.
    public static func take(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? FileStamp(path: path, status: nil) : nil
        }
        #if canImport(Darwin)
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        return FileStamp(
            path: path,
            status: Status(
                size: Int64(info.st_size), modified: nanoseconds(modified), changed: nanoseconds(changed),
                inode: UInt64(info.st_ino), device: UInt64(info.st_dev), mode: UInt32(info.st_mode)))
    }

    /// The stamp as one line of a note: `none PATH` or `stat SIZE MTIME CTIME INODE DEVICE MODE PATH`.
    public var line: String {
        guard let status else { return "none " + path }
        let fields =
            [status.size, status.modified, status.changed].map(String.init)
            + [String(status.inode), String(status.device), String(status.mode)]
        return "stat " + fields.joined(separator: " ") + " " + path
    }

    /// A stamp read back from `line`'s key and the rest of the line; nil if it is not one.
    public init?(key: Substring, rest: Substring) {
        switch key {
        case "none": self.init(path: String(rest), status: nil)
        case "stat":
            let fields = rest.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
            guard fields.count == 7, let size = Int64(fields[0]), let modified = Int64(fields[1]),
                let changed = Int64(fields[2]), let inode = UInt64(fields[3]), let device = UInt64(fields[4]),
                let mode = UInt32(fields[5])
            else { return nil }
            self.init(
                path: String(fields[6]),
                status: Status(
                    size: size, modified: modified, changed: changed, inode: inode, device: device, mode: mode))
        default: return nil
        }
    }

    /// The same, read from a note's bytes without making strings of the numbers (a note holds
    /// a stamp for every file of a vault, and `status` reads it whole).
    public init?(key: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        if key.elementsEqual("none".utf8) {
            self.init(path: String(decoding: rest, as: UTF8.self), status: nil)
            return
        }
        guard key.elementsEqual("stat".utf8) else { return nil }
        var numbers: [Int64] = []
        numbers.reserveCapacity(6)
        var index = rest.startIndex
        while numbers.count < 6 {
            var value: Int64 = 0, digits = 0, negative = false
            if index < rest.endIndex, rest[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            while index < rest.endIndex, rest[index] >= UInt8(ascii: "0"), rest[index] <= UInt8(ascii: "9") {
                let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) = times.addingReportingOverflow(Int64(rest[index] - UInt8(ascii: "0")))
                guard !overflowTimes, !overflowSum else { return nil }
                value = sum
                digits += 1
                index += 1
            }
            guard digits > 0, index < rest.endIndex, rest[index] == 0x20 else { return nil }
            numbers.append(negative ? -value : value)
            index += 1
        }
        guard numbers[3] >= 0, numbers[4] >= 0, numbers[5] >= 0, numbers[5] <= Int64(UInt32.max) else { return nil }
        self.init(
            path: String(decoding: rest[index...], as: UTF8.self),
            status: Status(
                size: numbers[0], modified: numbers[1], changed: numbers[2], inode: UInt64(numbers[3]),
                device: UInt64(numbers[4]),
                mode: UInt32(numbers[5])))
    }

    /// Whether every time the stamp holds is before `time`: a later change then shows as a
    /// different stamp. A file changed in the same clock tick as the stamp was taken may not.
    public func isSettled(before time: Int64) -> Bool {
        guard let status else { return true }
        return status.modified < time && status.changed < time
    }

    /// The system clock as file times are set from it (coarse on Linux: never ahead of them).
    public static func now() -> Int64 {
        var time = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_REALTIME_COARSE, &time)
        #else
        clock_gettime(CLOCK_REALTIME, &time)
        #endif
        return nanoseconds(time)
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// The lines of a note the engine keeps in the git directory, as slices of its bytes; nil unless
/// the last line is ended (a note cut short by a full disk or a crash is not read).
public func noteLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
    guard bytes.last == 0x0A else { return nil }
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    while let end = bytes[start...].firstIndex(of: 0x0A) {
        lines.append(bytes[start..<end])
        start = end + 1
    }
    return lines
}
