#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The repository's write lock: one todosync changes a repository at a time.
///
/// An advisory lock (`flock`) on `.git/todosync/lock`, which the kernel releases when the
/// process ends, however it ends: a lock left by a killed process is simply free, never stale.
/// The file names its holder (process id and command) for the message a waiting run gives.
/// Reads (status, list, log) never take it.
final class WriteLock {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit {
        _ = ftruncate(fd, 0)
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// Takes the lock, waiting up to `timeout` seconds for the process that holds it.
    static func acquire(
        _ scratch: ScratchFolder, repositoryRoot: String, timeout: Double
    ) throws(TodoSyncError) -> WriteLock {
        try FileSystem.createDirectory(scratch.path)
        let fd = open(scratch.lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileSystem.failure("cannot open the lock file \(scratch.lockFile)") }
        let deadline = Trace.now() + timeout
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let error = FileSystem.failure("cannot lock \(scratch.lockFile)")
                close(fd)
                throw error
            }
            if Trace.now() >= deadline {
                let holder = holderDescription(scratch.lockFile)
                close(fd)
                throw TodoSyncError(
                    "another todosync\(holder) is changing the repository in \(repositoryRoot); waited \(Int(timeout)) s, nothing was changed",
                    hint:
                        "run the command again when it has finished (a watch or sync may be running); a killed process holds no lock"
                )
            }
            usleep(20_000)
        }
        let lock = WriteLock(fd: fd)
        lock.recordHolder()
        return lock
    }

    /// Writes this process's id and command line into the lock file.
    private func recordHolder() {
        let command = CommandLine.arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        let text = Array("\(getpid())\n\(command)\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// " (process 123: todosync add x)", from the lock file; empty if it names nobody.
    private static func holderDescription(_ path: String) -> String {
        guard let bytes = try? FileSystem.read(path) else { return "" }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard let pid = lines.first, Int32(pid) != nil else { return "" }
        let command = lines.dropFirst().first.map { ": \($0)" } ?? ""
        return " (process \(pid)\(command))"
    }
}
