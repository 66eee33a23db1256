#if os(Linux)
import Glibc

/// Folder watching with Linux's inotify: one watch per folder.
final class InotifyFolderWatcher: FolderWatcher {
    private let root: String
    private let descriptor: Int32
    /// Watch descriptor → folder relative to the root.
    private var folders: [Int32: String] = [:]

    private static let events = UInt32(
        IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB)

    /// At most this many folders are watched (tests: as if the system's limit were reached).
    private let folderLimit: Int?

    init(root: String, folderLimit: Int? = nil) throws(TodoSyncError) {
        self.folderLimit = folderLimit
        self.root = root
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw FileSystem.failure("cannot watch files (inotify)") }
    }

    deinit { close(descriptor) }

    private static func limitReached(_ folder: String) -> TodoSyncError {
        var error = TodoSyncError(
            "cannot watch \(folder): the system's limit of watched folders (fs.inotify.max_user_watches) is reached",
            hint:
                "raise it: sudo sysctl fs.inotify.max_user_watches=524288 (or leave folders of non-list files out with .gitignore)"
        )
        error.isWatchLimitReached = true
        return error
    }

    func watch(folders paths: [String]) throws(TodoSyncError) {
        let watched = Set(folders.values)
        for path in paths where !watched.contains(path) {
            let absolute = path.isEmpty ? root : root + "/" + path
            if let limit = folderLimit, folders.count >= limit {
                throw Self.limitReached(absolute)
            }
            let watch = inotify_add_watch(
                descriptor, absolute, Self.events | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW))
            if watch >= 0 {
                folders[watch] = path
            } else if errno == ENOSPC {
                throw Self.limitReached(absolute)
            } else if errno != ENOENT && errno != ENOTDIR {
                throw FileSystem.failure("cannot watch \(absolute)")
            }
        }
    }

    func wait(until deadline: ContinuousClock.Instant?, stopDescriptor: Int32) throws(TodoSyncError) -> FolderWake {
        let ready = try pollReadable([descriptor, stopDescriptor], until: deadline)
        if ready.contains(1) { return .stopRequested }
        guard ready.contains(0) else { return .timedOut }
        return try readEvents()
    }

    private func readEvents() throws(TodoSyncError) -> FolderWake {
        var paths = Set<String>(), created = Set<String>()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN { break }
                if errno == EINTR { continue }
                throw FileSystem.failure("cannot read file changes (inotify)")
            }
            var offset = 0
            while offset + headerSize <= count {
                let (event, name) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameBytes = raw[(offset + headerSize)..<(offset + headerSize + Int(event.len))].prefix {
                        $0 != 0
                    }
                    return (event, String(decoding: nameBytes, as: UTF8.self))
                }
                offset += headerSize + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { return .overflowed }
                if event.mask & UInt32(IN_IGNORED) != 0 {
                    folders[event.wd] = nil
                    continue
                }
                guard let folder = folders[event.wd], !name.isEmpty else { continue }
                let path = folder.isEmpty ? name : folder + "/" + name
                paths.insert(path)
                if event.mask & UInt32(IN_ISDIR) != 0, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    created.insert(path)
                }
            }
        }
        return .changed(paths: paths, folders: created)
    }
}
#endif
