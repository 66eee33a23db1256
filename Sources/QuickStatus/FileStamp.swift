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
        return FileStamp(path: path, status: Status(
            size: Int64(info.st_size), modified: nanoseconds(modified), changed: nanoseconds(changed),
            inode: UInt64(info.st_ino), device: UInt64(info.st_dev), mode: UInt32(info.st_mode)))
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
