#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore

/// The few file operations the engine needs, on POSIX calls directly.
///
/// NB: not Foundation. `Data.write(.atomic)` drops the file's mode here, and
/// `FileManager.replaceItemAt` loses the file on this platform (see PLATFORM-NOTES).
enum FileSystem {
    enum Kind { case file, directory, symlink, other }

    static func kind(of path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symlink
        default: return .other
        }
    }

    static func exists(_ path: String) -> Bool { kind(of: path) != nil }

    /// The whole file, or nil if it does not exist.
    static func read(_ path: String) throws(TodoSyncError) -> [UInt8]? {
        try readWithStat(path)?.bytes
    }

    /// The whole file and its stat taken before reading (a later write changes the stat, so git's
    /// index never takes a newer file for these bytes), or nil if it does not exist.
    static func readWithStat(_ path: String) throws(TodoSyncError) -> (bytes: [UInt8], stat: FileStat)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("cannot read \(path)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("cannot read \(path)") }
        // Read straight into the array, sized from the stat (not zero-filled first: a list can be
        // megabytes); a file that grows meanwhile is read on.
        var bytes: [UInt8] = []
        var capacity = Int(info.st_size) + 1
        while true {
            let filled = bytes.count
            var failed = false
            var grown = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                if filled > 0 { buffer.baseAddress!.update(from: bytes, count: filled) }
                count = filled
                while count < capacity {
                    let read = Glibc.read(fd, buffer.baseAddress! + count, capacity - count)
                    if read < 0, errno == EINTR { continue }
                    if read < 0 { failed = true }
                    if read <= 0 { break }
                    count += read
                }
            }
            if failed { throw failure("cannot read \(path)") }
            swap(&bytes, &grown)
            if bytes.count < capacity { break }
            capacity *= 2
        }
        return (bytes, FileStat(info))
    }

    /// Replaces the file with `bytes` atomically (temporary file, fsync, rename), keeping its
    /// permissions, but only if it still holds `expected` (nil: it must not exist). Returns the
    /// new file's stat for git's index, or nil if the file was written to again meanwhile.
    @discardableResult
    static func replace(_ path: String, with bytes: [UInt8], ifStill expected: [UInt8]?) throws(TodoSyncError) -> FileStat? {
        try expect(path, holds: expected)
        var info = stat()
        let mode: mode_t = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o644
        let temporary = try temporaryFile(beside: path, holding: bytes, mode: mode)
        let fd = temporary.fd
        var ok = false
        defer {
            if !ok { unlink(temporary.path) }
        }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("cannot flush \(path) to disk") }
        guard rename(temporary.path, path) == 0 else { throw failure("cannot replace \(path)") }
        ok = true
        // After the rename, which changes the ctime git compares. A write made before this stat
        // would not show in it: the bytes are read back to rule that out.
        var final = stat()
        guard fstat(fd, &final) == 0, try read(path) == bytes else { return nil }
        return FileStat(final)
    }

    /// Writes a file that only caches what can be worked out again: a temporary file renamed
    /// over it, not flushed to disk, failures ignored.
    static func writeCache(_ path: String, _ bytes: [UInt8]) {
        guard let temporary = try? temporaryFile(beside: path, holding: bytes, mode: 0o644) else { return }
        close(temporary.fd)
        if rename(temporary.path, path) != 0 { unlink(temporary.path) }
    }

    /// A new temporary file in `folder` holding `bytes`, not flushed to disk; nil on failure.
    static func writeTemporaryCache(in folder: String, _ bytes: [UInt8]) -> String? {
        guard let temporary = try? temporaryFile(beside: folder + "/cache", holding: bytes, mode: 0o644) else { return nil }
        close(temporary.fd)
        return temporary.path
    }

    /// Gives a cache file its name; failures ignored (the file is removed).
    static func renameCache(_ path: String, to name: String) {
        if rename(path, name) != 0 { unlink(path) }
    }

    /// Removes a file that only caches what can be worked out again; failures ignored.
    static func removeCache(_ path: String) {
        unlink(path)
    }

    /// A new file in `path`'s folder holding `bytes`, still open: the caller renames it over
    /// `path` (or removes it) and closes it. On failure nothing is left behind.
    private static func temporaryFile(
        beside path: String, holding bytes: [UInt8], mode: mode_t
    ) throws(TodoSyncError) -> (fd: Int32, path: String) {
        let directory = parentDirectory(of: path)
        // NB: the template is never empty, so its baseAddress exists.
        var template = Array((directory + "/.todosync-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a temporary file in \(directory)") }
        let temporary = decodeCString(template)
        _ = fchmod(fd, mode)
        var written = 0
        // NB: baseAddress! below cannot fail: the loop runs only while bytes is not empty.
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = failure("cannot write \(path)")
                close(fd)
                unlink(temporary)
                throw error
            }
            written += count
        }
        return (fd, temporary)
    }

    /// The stat of a regular file (not followed through a symbolic link), or nil.
    static func regularFileStat(_ path: String) -> FileStat? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStat(info)
    }

    /// Fails, as `replace` would, unless the file holds `expected` (nil: it must not exist).
    static func expect(_ path: String, holds expected: [UInt8]?) throws(TodoSyncError) {
        guard try read(path) != expected else { return }
        var error = TodoSyncError(
            "\(path) changed while todosync was working; nothing was written or committed",
            hint: "run todosync again to take in the new edit")
        error.isChangedMeanwhile = true
        throw error
    }

    /// Removes the file, but only if it still holds `expected`.
    static func remove(_ path: String, ifStill expected: [UInt8]) throws(TodoSyncError) {
        guard try read(path) == expected else {
            var error = TodoSyncError(
                "\(path) changed while todosync was working; it was not removed",
                hint: "run todosync again to take in the new edit")
            error.isChangedMeanwhile = true
            throw error
        }
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("cannot remove \(path)") }
    }

    /// Names in a folder, without `.` and `..`.
    static func contents(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func createDirectory(_ path: String) throws(TodoSyncError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw failure("cannot create folder \(prefix)") }
        }
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return decodeCString(buffer)
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : path == "." ? currentDirectory() : currentDirectory() + "/" + path
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func failure(_ what: String) -> TodoSyncError {
        TodoSyncError("\(what): \(errorText(errno))")
    }
}

/// Text from a NUL-terminated C buffer; invalid UTF-8 is replaced, never fatal.
func decodeCString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The system's words for an errno value.
func errorText(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
}
