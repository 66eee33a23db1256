#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What git's index records of a working file, taken with `fstat` when its bytes were read or
/// written. With it the index trusts the file without hashing it again, as `git add` does.
public struct FileStat: Hashable, Sendable {
    public var ctime: (seconds: Int32, nanoseconds: UInt32)
    public var mtime: (seconds: Int32, nanoseconds: UInt32)
    public var device: UInt32
    public var inode: UInt32
    public var userID: UInt32
    public var groupID: UInt32
    public var size: UInt32

    public init(_ info: stat) {
        #if canImport(Darwin)
        ctime = (Int32(truncatingIfNeeded: info.st_ctimespec.tv_sec), UInt32(truncatingIfNeeded: info.st_ctimespec.tv_nsec))
        mtime = (Int32(truncatingIfNeeded: info.st_mtimespec.tv_sec), UInt32(truncatingIfNeeded: info.st_mtimespec.tv_nsec))
        #else
        ctime = (Int32(truncatingIfNeeded: info.st_ctim.tv_sec), UInt32(truncatingIfNeeded: info.st_ctim.tv_nsec))
        mtime = (Int32(truncatingIfNeeded: info.st_mtim.tv_sec), UInt32(truncatingIfNeeded: info.st_mtim.tv_nsec))
        #endif
        // NB: git's index keeps these fields 32 bits wide and truncates them the same way.
        device = UInt32(truncatingIfNeeded: info.st_dev)
        inode = UInt32(truncatingIfNeeded: info.st_ino)
        userID = UInt32(truncatingIfNeeded: info.st_uid)
        groupID = UInt32(truncatingIfNeeded: info.st_gid)
        size = UInt32(truncatingIfNeeded: info.st_size)
    }

    public static func == (a: FileStat, b: FileStat) -> Bool {
        a.ctime == b.ctime && a.mtime == b.mtime && a.device == b.device && a.inode == b.inode
            && a.userID == b.userID && a.groupID == b.groupID && a.size == b.size
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mtime.seconds)
        hasher.combine(mtime.nanoseconds)
        hasher.combine(inode)
        hasher.combine(size)
    }
}

/// A working file whose blob is known: staged in git's index without being read or hashed again.
public struct StagedFile: Sendable {
    public var path: String
    public var blob: OID
    public var mode: UInt32
    /// nil: not known to match the blob; the entry gets a zero stat, which git checks by content.
    public var stat: FileStat?

    public init(path: String, blob: OID, mode: UInt32, stat: FileStat?) {
        self.path = path
        self.blob = blob
        self.mode = mode
        self.stat = stat
    }
}
