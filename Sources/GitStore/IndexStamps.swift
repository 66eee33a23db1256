#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibGit2

/// What git's index says about working files: each entry's blob and the stat recorded with it.
/// A file whose stat still matches its entry holds that blob, without being read (git's rule).
/// Kept beside the paths asked for, position by position: a vault asks for tens of thousands.
public struct IndexStamps: Sendable {
    /// The paths asked for, and for each (same position) its entry, if the index has one.
    public private(set) var paths: [String] = []
    var entries: [(blob: OID, stat: FileStat)?] = []
    /// When the index file was written; an entry modified at or after it is "racily clean".
    var written: Timestamp?
    /// Where each path is, when `paths` are not in `PathOrder` (else found by bisection).
    private var positions: [String: Int]?

    init(paths: [String], entries: [(blob: OID, stat: FileStat)?], written: Timestamp?) {
        self.paths = paths
        self.entries = entries
        self.written = written
        if !PathOrder.isStrictlySorted(paths) {
            var positions: [String: Int] = [:]
            for (position, path) in paths.enumerated() { positions[path] = position }
            self.positions = positions
        }
    }

    /// The blob the file at `path` holds, if the index vouches for it given the file's `stat`.
    public func blob(at path: String, stat: FileStat) -> OID? {
        position(of: path).flatMap { blob(at: $0, stat: stat) }
    }

    /// The blob the file at `paths[position]` holds, if the index vouches for it.
    public func blob(at position: Int, stat: FileStat) -> OID? {
        guard let entry = entries[position], entry.stat == stat, let written else { return nil }
        // NB: a file changed within the same timestamp tick as the index could still match.
        return entry.stat.mtime >= written ? nil : entry.blob
    }

    /// Whether the file's size and modification time are the ones its entry records: vouched
    /// for, racily clean, or the same file copied or restored (another inode, a later ctime),
    /// so most likely the same bytes; false where the file was written since git's index last
    /// took it in.
    public func sizeAndMTimeMatch(at path: String, stat: FileStat) -> Bool {
        guard let entry = position(of: path).flatMap({ entries[$0] }) else { return false }
        return entry.stat.size == stat.size && entry.stat.mtime == stat.mtime
    }

    public func position(of path: String) -> Int? {
        if let positions { return positions[path] }
        return PathOrder.position(of: path, in: paths)
    }
}

extension Repository {
    /// The index's entries for `paths` (stage 0 only); empty if there is no index.
    public func indexStamps(for paths: [String]) throws(GitError) -> IndexStamps {
        var info = stat()
        guard stat(gitDirectory + "index", &info) == 0 else {
            return IndexStamps(paths: paths, entries: Array(repeating: nil, count: paths.count), written: nil)
        }
        var index: OpaquePointer?
        try GitError.check(git_repository_index(&index, pointer), "git_repository_index")
        defer { git_index_free(index) }
        let entries = paths.map { path -> (blob: OID, stat: FileStat)? in
            guard let entry = git_index_get_bypath(index, path, 0)?.pointee else { return nil }
            return (OID(entry.id), FileStat(entry))
        }
        return IndexStamps(paths: paths, entries: entries, written: FileStat(info).mtime)
    }
}
