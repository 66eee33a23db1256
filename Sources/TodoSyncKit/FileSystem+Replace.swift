import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CFileSwap
import GitStore

extension FileSystem {
    /// Replaces the file at `path` with `bytes` (nil: removes it), but only if it still holds
    /// `expected` (nil: it must not exist). Returns the new file's stat for git's index, or nil
    /// if that cannot be vouched for.
    ///
    /// The new bytes are written and flushed in the git directory first, then swapped with
    /// the file in one atomic step, and the file swapped out is compared with `expected`: an
    /// editor that saved in the instant before the swap gets its file put back, and the write
    /// fails as "changed meanwhile". The displaced file is kept in `scratch.replaced` until the
    /// next write, so bytes an editor was still writing into it are not lost
    /// (`ScratchFolder.sweep`). The file's permissions are kept.
    /// `prepared`: the new bytes, already written and flushed (`prepare`); taken over (closed
    /// and removed) whatever happens.
    @discardableResult
    static func replace(
        _ path: String, with bytes: [UInt8]?, ifStill expected: [UInt8]?, relativePath: String, scratch: ScratchFolder,
        prepared: PreparedFile? = nil
    ) throws(TodoSyncError) -> FileStat? {
        var prepared = prepared
        defer { prepared?.discard() }
        try expect(path, holds: expected)
        guard let bytes else {
            try removeGuarded(path, expected: expected, relativePath: relativePath, scratch: scratch)
            return nil
        }
        let temporary: (fd: Int32, path: String)
        if let ready = prepared {
            // Opened again for the swap's checks and the stat: thousands wait at once, closed.
            let fd = open(ready.path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw failure("cannot open the new version of \(relativePath) (\(ready.path))") }
            temporary = (fd, ready.path)
            prepared = nil
        } else {
            temporary = try temporaryFile(
                in: scratch.temporary, holding: bytes, mode: currentMode(path), flushed: true,
                for: "the new version of \(relativePath) (in \(scratch.temporary))")
        }
        defer {
            close(temporary.fd)
            unlink(temporary.path)
        }
        if expected == nil {
            // link() never replaces: a file created meanwhile makes it fail.
            guard link(temporary.path, path) == 0 else {
                if errno == EEXIST { throw changedMeanwhile(path) }
                throw failure("cannot create \(path)")
            }
            // NB: before the stat below: dropping the second name changes the file's ctime.
            unlink(temporary.path)
        } else if todosync_exchange_paths(temporary.path, path) == 0 {
            // `temporary.path` now names the file that was at `path` an instant ago.
            try checkDisplaced(
                path, temporaryPath: temporary.path, expected: expected, relativePath: relativePath, scratch: scratch)
        } else if errno == EINVAL || errno == ENOSYS || errno == ENOTSUP || errno == EOPNOTSUPP {
            // A file system that cannot swap: keep the old file by a second name, check, rename.
            try replaceWithoutSwap(
                path, temporaryPath: temporary.path, expected: expected, relativePath: relativePath, scratch: scratch)
        } else {
            throw failure("cannot replace \(path)")
        }
        var final = stat()
        guard fstat(temporary.fd, &final) == 0 else { return nil }
        return FileStat(final)
    }

    /// The permissions a replacement keeps: the file's own, or 0644 for a new file.
    private static func currentMode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o644
    }

    /// A list file's new bytes, written into the git directory and flushed to disk, waiting
    /// for `replace` to swap them in.
    struct PreparedFile {
        var path: String

        /// Removes it (not swapped in).
        func discard() {
            unlink(path)
        }
    }

    /// Writes the new bytes of several files, then flushes them: many on a local disk file
    /// system all at once (syncfs), otherwise a batch at a time, two streams of flushes at once
    /// (a write of thousands of files, as `init` makes in a vault, would otherwise wait for the
    /// disk once a file). Nothing is visible in the working tree until each is swapped in by
    /// `replace`.
    static func prepare(
        _ files: [(path: String, bytes: [UInt8], relativePath: String)], scratch: ScratchFolder
    ) throws(TodoSyncError) -> [String: PreparedFile] {
        var prepared: [String: PreparedFile] = [:]
        // Many files on a local disk: written, then flushed in one step (the file system
        // writes them out together, where flushes one file at a time each wait for the disk).
        let folder = open(scratch.temporary, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if folder >= 0 { close(folder) } }
        let together = files.count >= 64 && folder >= 0 && todosync_flushes_whole_file_system(folder) == 1
        // Otherwise flushed and closed a batch at a time: a vault's thousands of files would
        // run out of file descriptors held open together.
        var open: [(relativePath: String, fd: Int32)] = []
        func flushOpen() throws(TodoSyncError) {
            defer {
                open.forEach { close($0.fd) }
                open.removeAll()
            }
            // NB: two streams of flushes at once: the file system commits flushes that wait
            // together in one journal commit, where one after another each waits for its own.
            let files = open, split = open.count - open.count / 2
            nonisolated(unsafe) var secondFailed: String?
            let group = DispatchGroup()
            if split < files.count {
                DispatchQueue.global(qos: .userInitiated).async(group: group) {
                    secondFailed = files[split...].first { fsync($0.fd) != 0 }?.relativePath
                }
            }
            let firstFailed = files[..<split].first { fsync($0.fd) != 0 }?.relativePath
            group.wait()
            if let failed = firstFailed ?? secondFailed {
                throw failure("cannot flush the new version of \(failed) (in \(scratch.temporary)) to disk")
            }
        }
        do throws(TodoSyncError) {
            for file in files {
                let temporary = try temporaryFile(
                    in: scratch.temporary, holding: file.bytes, mode: currentMode(file.path),
                    for: "the new version of \(file.relativePath) (in \(scratch.temporary))")
                prepared[file.relativePath] = PreparedFile(path: temporary.path)
                if together {
                    close(temporary.fd)
                    continue
                }
                open.append((file.relativePath, temporary.fd))
                if open.count >= 64 { try flushOpen() }
            }
            if !together {
                try flushOpen()
            } else if todosync_flush_file_system(folder) != 0 {
                // NB: the folder was opened before the writes: a failed write since is reported.
                throw failure("cannot flush the new versions of \(files.count) files (in \(scratch.temporary)) to disk")
            }
        } catch {
            open.forEach { close($0.fd) }
            prepared.values.forEach { $0.discard() }
            throw error
        }
        return prepared
    }

    /// After a swap: the file swapped out must hold `expected`; if not, an editor saved in the
    /// instant between the check and the swap, and its file goes back where it was.
    private static func checkDisplaced(
        _ path: String, temporaryPath: String, expected: [UInt8]?, relativePath: String, scratch: ScratchFolder
    ) throws(TodoSyncError) {
        guard expected != nil, try holds(temporaryPath, expected) else {
            if todosync_exchange_paths(temporaryPath, path) != 0 {
                // NB: cannot happen short of the folder vanishing; the save is kept, not lost.
                let kept = scratch.recovered + "/" + relativePath.split(separator: "/").joined(separator: "%2F")
                _ = try? createDirectory(scratch.recovered)
                _ = rename(temporaryPath, kept)
                throw TodoSyncError(
                    "\(path) was saved while todosync replaced it, and could not be put back; the save is kept at \(kept)",
                    hint: "copy it back over \(path)")
            }
            throw changedMeanwhile(path)
        }
        keepDisplaced(temporaryPath, relativePath: relativePath, scratch: scratch)
    }

    /// The replace for a file system without an atomic swap: the old file gets a second name
    /// in `scratch.replaced` (a hard link), is checked, and the new one is renamed over it.
    private static func replaceWithoutSwap(
        _ path: String, temporaryPath: String, expected: [UInt8]?, relativePath: String, scratch: ScratchFolder
    ) throws(TodoSyncError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw changedMeanwhile(path) }
        let kept = scratch.replaced + "/" + ScratchFolder.replacedName(of: relativePath, stamp: info)
        unlink(kept)
        guard link(path, kept) == 0 else { throw failure("cannot keep a copy of \(path) in \(scratch.replaced)") }
        guard expected != nil, try holds(kept, expected) else {
            unlink(kept)
            throw changedMeanwhile(path)
        }
        guard rename(temporaryPath, path) == 0 else { throw failure("cannot replace \(path)") }
    }

    /// Removes the file, but only if it still holds `expected`: it is moved into the git
    /// directory first and checked there, and put back if it changed.
    private static func removeGuarded(
        _ path: String, expected: [UInt8]?, relativePath: String, scratch: ScratchFolder
    ) throws(TodoSyncError) {
        guard expected != nil else { return }
        var template = Array((scratch.temporary + "/.todosync-removed-XXXXXX").utf8CString)
        // NB: a template made from a C string is never empty (it holds at least its NUL), so it has a base address.
        // NB: mkdtemp gives a fresh folder to move the file into, so no name is ever taken over.
        guard let folder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw failure("cannot create a temporary folder in \(scratch.temporary)")
        }
        let holding = String(cString: folder) + "/file"
        defer { rmdir(String(cString: folder)) }
        guard rename(path, holding) == 0 else {
            if errno == ENOENT { throw changedMeanwhile(path) }
            throw failure("cannot remove \(path)")
        }
        guard try holds(holding, expected) else {
            // Put back, never over a file written meanwhile.
            if link(holding, path) == 0 {
                unlink(holding)
            } else {
                keepDisplaced(holding, relativePath: relativePath, scratch: scratch)
            }
            throw changedMeanwhile(path)
        }
        keepDisplaced(holding, relativePath: relativePath, scratch: scratch)
    }

    /// Keeps a displaced file, stamped, until the next write looks at it (`ScratchFolder.sweep`).
    private static func keepDisplaced(_ file: String, relativePath: String, scratch: ScratchFolder) {
        var info = stat()
        guard lstat(file, &info) == 0 else { return }
        if rename(file, scratch.replaced + "/" + ScratchFolder.replacedName(of: relativePath, stamp: info)) != 0 {
            unlink(file)
        }
    }

    static func changedMeanwhile(_ path: String) -> TodoSyncError {
        var error = TodoSyncError(
            "\(path) changed while todosync was working; it was left as it is",
            hint: "run todosync again to take in the new edit")
        error.isChangedMeanwhile = true
        return error
    }
}
