#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibGit2

extension Repository {
    /// Whether git's index tracks `path` (at any stage).
    public func isTracked(_ path: String) throws(GitError) -> Bool {
        try withIndex { index in
            var position = 0
            return git_index_find(&position, index, path) == 0
        }
    }

    /// Whether git's index tracks any file inside `folder` (a path ending in "/").
    public func tracksFiles(inside folder: String) throws(GitError) -> Bool {
        try withIndex { index in
            var position = 0
            return git_index_find_prefix(&position, index, folder) == 0
        }
    }

    /// Which of `paths` git's index marks skip-worktree: outside a sparse checkout, the working
    /// tree does not hold them and git leaves them out of its comparisons.
    public func pathsSkippingWorktree(_ paths: some Sequence<String>) throws(GitError) -> Set<String> {
        try withIndex { index in
            var result = Set<String>()
            for path in paths {
                guard let entry = git_index_get_bypath(index, path, 0)?.pointee else { continue }
                if UInt32(entry.flags_extended) & GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue != 0 { result.insert(path) }
            }
            return result
        }
    }

    /// The repository's index, read again if git changed it on disk.
    /// Every path git's index holds (at any stage), read in one pass: what a walk of the
    /// working tree asks of each file ("is it tracked?") without a lookup per file.
    /// The positions of the paths among `paths` (in `PathOrder`) that git's index does not
    /// hold: one pass over both, both in git's order of paths (no table of every path built).
    public func untrackedPositions(among paths: [String]) throws(GitError) -> [Int] {
        try withIndex { index in
            var result: [Int] = []
            // NB: an index that ignores case (core.ignorecase) sorts its entries by folded
            // case: each path is looked up instead.
            if git_index_caps(index) & Int32(GIT_INDEX_CAPABILITY_IGNORE_CASE.rawValue) != 0 {
                for (position, path) in paths.enumerated() where git_index_get_bypath(index, path, 0) == nil {
                    var found = 0
                    if git_index_find(&found, index, path) != 0 { result.append(position) }
                }
                return result
            }
            let count = git_index_entrycount(index)
            var entry = 0
            for (position, path) in paths.enumerated() {
                var order = -1
                while entry < count {
                    guard let name = git_index_get_byindex(index, entry)?.pointee.path else { break }
                    order =
                        path.utf8.withContiguousStorageIfAvailable { own in
                            PathOrder.compare(
                                UnsafeBufferPointer(
                                    start: UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self),
                                    count: strlen(name)), own)
                        } ?? PathOrder.compare(String(cString: name), path)
                    guard order < 0 else { break }
                    entry += 1
                }
                if order != 0 { result.append(position) }
            }
            return result
        }
    }

    func withIndex<T>(_ body: (OpaquePointer?) throws(GitError) -> T) throws(GitError) -> T {
        var index: OpaquePointer?
        try GitError.check(git_repository_index(&index, pointer), "git_repository_index")
        defer { git_index_free(index) }
        try GitError.check(git_index_read(index, 0), "git_index_read")
        return try body(index)
    }
}
