#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// todosync's own folder in the git directory (`.git/todosync/`): the write lock, the journal
/// of the write under way, temporary files, and the files it replaced. Nothing of it is ever
/// in the working tree.
struct ScratchFolder: Sendable {
    let path: String

    init(gitDirectory: String) {
        path = (gitDirectory.hasSuffix("/") ? gitDirectory : gitDirectory + "/") + "todosync"
    }

    /// New files are written here, then renamed into the working tree.
    var temporary: String { path + "/tmp" }
    /// The file each list write displaced, kept until the next write looks at it: an editor
    /// that was writing into it in the last instant left its bytes there.
    var replaced: String { path + "/replaced" }
    /// Saves found in `replaced` (written after todosync replaced the file): kept for the user.
    var recovered: String { path + "/recovered" }
    var lockFile: String { path + "/lock" }
    /// Derived data, all of it worked out again when missing: the parsed items of list files
    /// (`ItemsCache`), the clean-state and checked-head notes. Safe to delete at any time.
    var cache: String { path + "/cache" }
    var itemsCache: String { cache + "/items" }
    var journal: String { path + "/journal" }

    func create() throws(TodoSyncError) {
        for folder in [temporary, replaced] { try FileSystem.createDirectory(folder) }
    }

    /// The name a displaced file is kept under: its path in the working tree, made one file
    /// name, and its size and modification time as it was displaced (not its change time,
    /// which the renames that displace and keep it change).
    static func replacedName(of path: String, stamp: stat) -> String {
        stamped(path.replacingSlashes(), stamp)
    }

    private static func stamped(_ flat: String, _ stamp: stat) -> String {
        #if canImport(Darwin)
        let modified = stamp.st_mtimespec
        #else
        let modified = stamp.st_mtim
        #endif
        return "\(flat).\(stamp.st_size).\(modified.tv_sec).\(modified.tv_nsec)"
    }

    /// Clears what a run stopped mid-write left (temporary files), and looks at the files the
    /// last writes displaced: one written to since (an editor saving in the very instant
    /// todosync replaced it) moves to `recovered` and is reported; the rest are removed.
    /// Only under the write lock: no other todosync is writing here.
    func sweep() -> [String] {
        for name in FileSystem.contents(of: temporary) { unlink(temporary + "/" + name) }
        // A cache file a process stopped writing (a reader's write, renamed into place).
        for name in FileSystem.contents(of: cache) where name.hasPrefix(".todosync-") { unlink(cache + "/" + name) }
        // Where earlier versions kept the clean-state and checked-head notes.
        for name in ["todosync-clean-state", "todosync-checked-head"] { unlink(path + "/../" + name) }
        var kept: [String] = []
        for name in FileSystem.contents(of: replaced) {
            let file = replaced + "/" + name
            var info = stat()
            guard lstat(file, &info) == 0 else { continue }
            let flat = String(
                name.split(separator: ".", omittingEmptySubsequences: false).dropLast(3).joined(separator: "."))
            if Self.stamped(flat, info) == name {
                unlink(file)
                continue
            }
            guard (try? FileSystem.createDirectory(recovered)) != nil else { continue }
            let target = recovered + "/" + flat + "." + String(time(nil))
            if rename(file, target) == 0 { kept.append(target) }
        }
        return kept
    }
}

extension String {
    /// A working-tree path as one file name: `/` becomes `%2F` and `%` becomes `%25`.
    fileprivate func replacingSlashes() -> String {
        var result = ""
        for character in self {
            switch character {
            case "%": result += "%25"
            case "/": result += "%2F"
            default: result.append(character)
            }
        }
        return result
    }
}
