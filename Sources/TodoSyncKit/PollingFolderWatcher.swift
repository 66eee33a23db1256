#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore

/// Folder watching without kernel help: the stamps of every entry in the watched folders,
/// compared a few times a second. Used where inotify is unavailable.
final class PollingFolderWatcher: FolderWatcher {
    private let root: String
    private var folders: Set<String> = []
    /// Path relative to the root → its stamp, for every entry of a watched folder.
    private var stamps: [String: FileStat] = [:]

    static let interval: Duration = .milliseconds(250)

    init(root: String) { self.root = root }

    func watch(folders paths: [String]) throws(TodoSyncError) {
        for path in paths where !folders.contains(path) {
            folders.insert(path)
            stamps.merge(Self.entries(of: path, under: root)) { _, new in new }
        }
    }

    func wait(until deadline: ContinuousClock.Instant?, stopDescriptor: Int32) throws(TodoSyncError) -> FolderWake {
        while true {
            let round = ContinuousClock.now + Self.interval
            let until = deadline.map { min($0, round) } ?? round
            if try pollReadable([stopDescriptor], until: until).contains(0) { return .stopRequested }
            let wake = look()
            if wake != .changed(paths: [], folders: []) { return wake }
            if let deadline, ContinuousClock.now >= deadline { return .timedOut }
        }
    }

    private func look() -> FolderWake {
        var now: [String: FileStat] = [:]
        for folder in folders where FileSystem.kind(of: folder.isEmpty ? root : root + "/" + folder) == .directory {
            now.merge(Self.entries(of: folder, under: root)) { _, new in new }
        }
        folders = folders.filter { $0.isEmpty || now[$0] != nil }
        let paths = Set(now.keys.filter { now[$0] != stamps[$0] }).union(stamps.keys.filter { now[$0] == nil })
        let created = Set(paths.filter { stamps[$0] == nil && FileSystem.kind(of: root + "/" + $0) == .directory })
        stamps = now
        return .changed(paths: paths, folders: created)
    }

    private static func entries(of folder: String, under root: String) -> [String: FileStat] {
        let absolute = folder.isEmpty ? root : root + "/" + folder
        var result: [String: FileStat] = [:]
        for name in FileSystem.contents(of: absolute) {
            let path = folder.isEmpty ? name : folder + "/" + name
            var info = stat()
            if lstat(root + "/" + path, &info) == 0 { result[path] = FileStat(info) }
        }
        return result
    }
}
