#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibGit2

/// A time as git's index stores it.
public struct Timestamp: Hashable, Comparable, Sendable {
    public var seconds: Int32
    public var nanoseconds: UInt32

    public init(seconds: Int32, nanoseconds: UInt32) {
        (self.seconds, self.nanoseconds) = (seconds, nanoseconds)
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }
}

/// What git's index records of a working file, taken with `fstat` when its bytes were read or
/// written. With it the index trusts the file without hashing it again, as `git add` does.
/// NB: git's index keeps every field 32 bits wide and truncates the same way.
public struct FileStat: Hashable, Sendable {
    public var ctime: Timestamp
    public var mtime: Timestamp
    public var device: UInt32
    public var inode: UInt32
    public var userID: UInt32
    public var groupID: UInt32
    public var size: UInt32

    public init(
        ctime: Timestamp, mtime: Timestamp, device: UInt32, inode: UInt32, userID: UInt32, groupID: UInt32, size: UInt32
    ) {
        (self.ctime, self.mtime, self.device, self.inode) = (ctime, mtime, device, inode)
        (self.userID, self.groupID, self.size) = (userID, groupID, size)
    }

    /// Whether neither the contents nor anything else about the file changed at or after
    /// `time` (nanoseconds since 1970).
    public func isSettled(before time: Int64) -> Bool {
        func nanoseconds(_ stamp: Timestamp) -> Int64 {
            Int64(stamp.seconds) * 1_000_000_000 + Int64(stamp.nanoseconds)
        }
        return nanoseconds(mtime) < time && nanoseconds(ctime) < time
    }

    public init(_ info: stat) {
        #if canImport(Darwin)
        let (changed, modified) = (info.st_ctimespec, info.st_mtimespec)
        #else
        let (changed, modified) = (info.st_ctim, info.st_mtim)
        #endif
        ctime = Timestamp(
            seconds: Int32(truncatingIfNeeded: changed.tv_sec), nanoseconds: UInt32(truncatingIfNeeded: changed.tv_nsec)
        )
        mtime = Timestamp(
            seconds: Int32(truncatingIfNeeded: modified.tv_sec),
            nanoseconds: UInt32(truncatingIfNeeded: modified.tv_nsec))
        device = UInt32(truncatingIfNeeded: info.st_dev)
        inode = UInt32(truncatingIfNeeded: info.st_ino)
        userID = UInt32(truncatingIfNeeded: info.st_uid)
        groupID = UInt32(truncatingIfNeeded: info.st_gid)
        size = UInt32(truncatingIfNeeded: info.st_size)
    }

    /// The stat an index entry recorded.
    init(_ entry: git_index_entry) {
        ctime = Timestamp(seconds: entry.ctime.seconds, nanoseconds: entry.ctime.nanoseconds)
        mtime = Timestamp(seconds: entry.mtime.seconds, nanoseconds: entry.mtime.nanoseconds)
        device = entry.dev
        inode = entry.ino
        userID = entry.uid
        groupID = entry.gid
        size = entry.file_size
    }

    /// Writes this stat into an index entry.
    func record(in entry: inout git_index_entry) {
        entry.ctime = git_index_time(seconds: ctime.seconds, nanoseconds: ctime.nanoseconds)
        entry.mtime = git_index_time(seconds: mtime.seconds, nanoseconds: mtime.nanoseconds)
        entry.dev = device
        entry.ino = inode
        entry.uid = userID
        entry.gid = groupID
        entry.file_size = size
    }
}

/// A working file whose blob is known: staged in git's index without being read or hashed again.
public struct StagedFile: Sendable {
    public var path: String
    public var blob: OID
    public var mode: UInt32
    /// nil: not known to match the blob; the entry gets a zero stat, which git checks by content.
    public var stat: FileStat?
    /// Outside the sparse checkout: the entry keeps git's skip-worktree bit (no working file).
    public var skipsWorktree: Bool
    /// The conflict git left on the path, which this entry settles (as `git add` would).
    public var settles: IndexConflict?

    public init(
        path: String, blob: OID, mode: UInt32, stat: FileStat?, skipsWorktree: Bool = false,
        settles: IndexConflict? = nil
    ) {
        self.path = path
        self.blob = blob
        self.mode = mode
        self.stat = stat
        self.skipsWorktree = skipsWorktree
        self.settles = settles
    }
}
