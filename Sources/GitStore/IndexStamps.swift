#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibGit2

/// What git's index says about working files: each entry's blob and the stat recorded with it.
/// A file whose stat still matches its entry holds that blob, without being read (git's rule).
public struct IndexStamps: Sendable {
    var entries: [String: (blob: OID, stat: FileStat)] = [:]
    /// When the index file was written; an entry modified at or after it is "racily clean".
    var written: Timestamp?

    /// The blob the file at `path` holds, if the index vouches for it given the file's `stat`.
    public func blob(at path: String, stat: FileStat) -> OID? {
        guard let entry = entries[path], entry.stat == stat, let written else { return nil }
        // NB: a file changed within the same timestamp tick as the index could still match.
        return entry.stat.mtime >= written ? nil : entry.blob
    }

    /// Whether the file's stat is the one its entry records (vouched for or racily clean);
    /// false where the file was written since git's index last took it in.
    public func statMatches(at path: String, stat: FileStat) -> Bool {
        entries[path]?.stat == stat
    }
}

extension Repository {
    /// The index's entries for `paths` (stage 0 only); empty if there is no index.
    public func indexStamps(for paths: [String]) throws(GitError) -> IndexStamps {
        var info = stat()
        guard stat(gitDirectory + "index", &info) == 0 else { return IndexStamps() }
        var stamps = IndexStamps()
        stamps.written = FileStat(info).mtime
        var index: OpaquePointer?
        try GitError.check(git_repository_index(&index, pointer), "git_repository_index")
        defer { git_index_free(index) }
        for path in paths {
            guard let entry = git_index_get_bypath(index, path, 0)?.pointee else { continue }
            stamps.entries[path] = (OID(entry.id), FileStat(entry))
        }
        return stamps
    }

    /// The size of a stored object, read from its header alone.
    public func objectSize(_ id: OID) throws(GitError) -> Int {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer), "git_repository_odb")
        defer { git_odb_free(odb) }
        var raw = id.raw
        var size = 0
        var type = GIT_OBJECT_ANY
        try GitError.checkReading("git_odb_read_header", of: "reading object \(id.short)") { git_odb_read_header(&size, &type, odb, &raw) }
        return size
    }
}
