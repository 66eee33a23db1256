#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore

/// Why a wait for file changes ended.
enum FolderWake: Equatable {
    /// Paths (relative to the root) that changed; `folders` among them were created or moved in.
    case changed(paths: Set<String>, folders: Set<String>)
    /// Events were dropped (the kernel's queue overflowed): anything may have changed.
    case overflowed
    /// The stop descriptor became readable (SIGINT or SIGTERM).
    case stopRequested
    case timedOut
}

/// Tells when entries of the watched folders change. Editors save by writing a new file and
/// renaming it over the old one, so folders are watched, not files.
protocol FolderWatcher: AnyObject {
    /// Starts watching these folders (relative to the root; "" is the root itself). Folders
    /// already watched are left as they are.
    func watch(folders: [String]) throws(TodoSyncError)

    /// Waits until something changed, `stopDescriptor` became readable, or `deadline` passed.
    func wait(until deadline: ContinuousClock.Instant?, stopDescriptor: Int32) throws(TodoSyncError) -> FolderWake
}

/// The best watcher this system has: inotify on Linux (or, when inotify is unavailable, a
/// watcher that compares file stamps a few times a second).
func makeFolderWatcher(root: String, folderLimit: Int? = nil) -> (watcher: FolderWatcher, notice: String?) {
    #if os(Linux)
    do throws(TodoSyncError) {
        return (try InotifyFolderWatcher(root: root, folderLimit: folderLimit), nil)
    } catch {
        return (
            PollingFolderWatcher(root: root),
            "\(error.message); watching by looking at the files a few times a second instead"
        )
    }
    #else
    return (PollingFolderWatcher(root: root), nil)
    #endif
}

/// Waits for `descriptors` (the first ones event sources, the last the stop pipe) until
/// `deadline`; returns the indexes that became readable.
func pollReadable(_ descriptors: [Int32], until deadline: ContinuousClock.Instant?) throws(TodoSyncError) -> [Int] {
    var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    while true {
        let timeout: Int32
        if let deadline {
            let left = deadline - .now
            timeout =
                left <= .zero
                ? 0
                : Int32(
                    clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
        } else {
            timeout = -1
        }
        let count = poll(&entries, nfds_t(entries.count), timeout)
        if count >= 0 {
            return entries.indices.filter { entries[$0].revents != 0 }
        }
        if errno != EINTR { throw FileSystem.failure("cannot wait for file changes") }
        // A signal arrived: its byte is in the stop pipe, seen on the next round.
    }
}
