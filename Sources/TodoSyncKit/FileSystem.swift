#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore

/// The few file operations the engine needs, on POSIX calls directly.
///
/// NB: not Foundation. `Data.write(.atomic)` drops the file's mode and replaces a symbolic
/// link with a file, and `FileManager.replaceItemAt` loses the file on Linux.
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
    ///
    /// A file written to while it is read (an editor saving in place) is read again, so the
    /// bytes are never half of one save and half of another. (A save still under way when the
    /// read ends is caught later: every file is checked again just before it is committed.)
    static func readWithStat(_ path: String) throws(TodoSyncError) -> (bytes: [UInt8], stat: FileStat)? {
        try whileSteady(path) { (fd, before) throws(TodoSyncError) in
            guard let bytes = readAll(fd, sizeHint: Int(before.st_size)) else { throw failure("cannot read \(path)") }
            return (bytes, FileStat(before))
        }
    }

    /// Whether the file holds exactly `expected` (nil: it does not exist), compared a piece at
    /// a time, so a large list checked just before it is replaced or committed is not read into
    /// memory again. As `readWithStat`: a file written to meanwhile is compared again.
    static func holds(_ path: String, _ expected: [UInt8]?) throws(TodoSyncError) -> Bool {
        let piece = 64 << 10
        var buffer = [UInt8](repeating: 0, count: piece)
        let same = try whileSteady(path) { (fd, before) throws(TodoSyncError) -> Bool in
            guard let expected, Int(before.st_size) == expected.count else { return false }
            var offset = 0
            while true {
                // NB: the buffer holds `piece` bytes, and `expected` at least `count` more than `offset`, so both have base addresses.
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, piece) }
                if count < 0, errno == EINTR { continue }
                if count < 0 { throw failure("cannot read \(path)") }
                if count == 0 { return offset == expected.count }
                guard offset + count <= expected.count,
                    expected.withUnsafeBytes({ all in
                        buffer.withUnsafeBytes { memcmp(all.baseAddress! + offset, $0.baseAddress!, count) == 0 }
                    })
                else { return false }
                offset += count
            }
        }
        return same ?? (expected == nil)
    }

    /// `body` on the open file from its start, done again while the file's stat changes under
    /// it (an editor saving in place), so what it finds is never half of one save and half of
    /// another; nil if the file does not exist.
    private static func whileSteady<T>(
        _ path: String, _ body: (Int32, stat) throws(TodoSyncError) -> T
    ) throws(TodoSyncError) -> T? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("cannot read \(path)")
        }
        defer { close(fd) }
        for _ in 0..<100 {
            var before = stat(), after = stat()
            guard fstat(fd, &before) == 0, lseek(fd, 0, SEEK_SET) == 0 else { throw failure("cannot read \(path)") }
            let result = try body(fd, before)
            guard fstat(fd, &after) == 0 else { throw failure("cannot read \(path)") }
            if FileStat(before) == FileStat(after) { return result }
            usleep(10_000)
        }
        throw TodoSyncError(
            "\(path) kept changing while todosync read it; nothing was written or committed",
            hint: "run todosync again once the program writing it has finished")
    }

    /// Everything from the descriptor's offset to its end; nil on a read error.
    private static func readAll(_ fd: Int32, sizeHint: Int) -> [UInt8]? {
        // Read straight into the array, sized from the stat (not zero-filled first: a list can be
        // megabytes); a file that grows meanwhile is read on.
        var bytes: [UInt8] = []
        var capacity = sizeHint + 1
        while true {
            let filled = bytes.count
            var failed = false
            // NB: the capacity is at least 1, so the buffer has a base address.
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
            if failed { return nil }
            swap(&bytes, &grown)
            if bytes.count < capacity { return bytes }
            capacity *= 2
        }
    }

    /// Writes a file that only caches what can be worked out again: a temporary file renamed
    /// over it, not flushed to disk, failures ignored. Its folder is made if missing.
    static func writeCache(_ path: String, _ bytes: [UInt8]) {
        let folder = parentDirectory(of: path)
        if !exists(folder) { try? createDirectory(folder) }
        guard let temporary = try? temporaryFile(in: folder, holding: bytes, mode: 0o644) else { return }
        close(temporary.fd)
        if rename(temporary.path, path) != 0 { unlink(temporary.path) }
    }

    /// Writes a file by renaming a new one over it (not flushed: losing it costs nothing).
    static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(TodoSyncError) {
        let temporary = try temporaryFile(in: parentDirectory(of: path), holding: bytes, mode: 0o644)
        close(temporary.fd)
        guard rename(temporary.path, path) == 0 else {
            let error = failure("cannot write \(path)")
            unlink(temporary.path)
            throw error
        }
    }

    /// A new file in `folder` holding `bytes`, still open: the caller renames it into place
    /// (or removes it) and closes it. `flushed`: on disk before this returns. On failure
    /// nothing is left behind.
    static func temporaryFile(
        in folder: String, holding bytes: [UInt8], mode: mode_t, flushed: Bool = false, for purpose: String? = nil
    ) throws(TodoSyncError) -> (fd: Int32, path: String) {
        // NB: the template is never empty, so its baseAddress exists.
        var template = Array((folder + "/.todosync-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure("cannot create a temporary file in \(folder)") }
        let temporary = decodeCString(template)
        _ = fchmod(fd, mode)
        var written = 0
        // NB: baseAddress! below cannot fail: the loop runs only while bytes is not empty.
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = failure("cannot write \(purpose ?? temporary)")
                close(fd)
                unlink(temporary)
                throw error
            }
            written += count
        }
        if flushed, fsync(fd) != 0 {
            let error = failure("cannot flush \(purpose ?? temporary) to disk")
            close(fd)
            unlink(temporary)
            throw error
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
        guard try !holds(path, expected) else { return }
        var error = TodoSyncError(
            "\(path) changed while todosync was working; nothing was written or committed",
            hint: "run todosync again to take in the new edit")
        error.isChangedMeanwhile = true
        throw error
    }

    /// Removes a folder todosync itself just made (a repository an init could not finish),
    /// with everything in it; symbolic links are removed, never followed. Best effort.
    static func removeTreeItMade(_ path: String) {
        for entry in entries(of: path).entries {
            let child = path + "/" + entry.name
            if entry.kind == .directory { removeTreeItMade(child) } else { unlink(child) }
        }
        rmdir(path)
    }

    /// Names in a folder, without `.` and `..`.
    static func contents(of directory: String) -> [String] {
        listing(of: directory).names
    }

    /// A folder's entries: names that are valid UTF-8, and the raw bytes of those that are not
    /// (a path todosync cannot name as a Swift string, so cannot read as a list).
    static func listing(of directory: String) -> (names: [String], notUTF8: [[UInt8]]) {
        guard let handle = opendir(directory) else { return ([], []) }
        defer { closedir(handle) }
        var names: [String] = [], notUTF8: [[UInt8]] = []
        while let entry = readdir(handle) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                notUTF8.append(bytes)
                continue
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return (names.sorted(), notUTF8)
    }

    /// A folder's entries with their kinds as the folder lists them (no stat per entry, except
    /// where the file system does not say), sorted by name; names that are not UTF-8 apart.
    static func entries(of directory: String) -> (entries: [(name: String, kind: Kind?)], notUTF8: [[UInt8]]) {
        guard let handle = opendir(directory) else { return ([], []) }
        defer { closedir(handle) }
        var entries: [(name: String, kind: Kind?)] = [], notUTF8: [[UInt8]] = []
        while let entry = readdir(handle) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                notUTF8.append(bytes)
                continue
            }
            guard name != ".", name != ".." else { continue }
            let kind: Kind?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = Self.kind(of: directory + "/" + name)
            default: kind = .other
            }
            entries.append((name, kind))
        }
        entries.sort { $0.name < $1.name }
        return (entries, notUTF8)
    }

    /// A path for messages, as git quotes one: bytes that are not printable ASCII as octal escapes.
    static func quoted(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""): text += "\\" + String(UnicodeScalar(byte))
            case 0x20..<0x7F: text.append(Character(UnicodeScalar(byte)))
            default: text += "\\" + String(byte, radix: 8).leftPadded(to: 3)
            }
        }
        return "\"" + text + "\""
    }

    /// Creates the folder and any missing folders above it (as `mkdir -p`).
    static func createDirectory(_ path: String) throws(TodoSyncError) {
        // NB: the folder itself first: where it exists (a file written beside others) one call.
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
        let parent = parentDirectory(of: path)
        guard errno == ENOENT, parent != path, parent != "/", parent != "." else {
            throw failure("cannot create folder \(path)")
        }
        try createDirectory(parent)
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw failure("cannot create folder \(path)") }
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

    static func failure(_ what: String) -> TodoSyncError {
        let code = errno
        let hint: String
        switch code {
        case ENOSPC, EDQUOT, EFBIG: hint = TodoSyncError.outOfSpaceHint
        case EACCES, EPERM:
            hint =
                "check who owns the folder and the file and their permissions (ls -ld FOLDER; ls -l FILE): todosync needs to write where git does"
        case EROFS: hint = "the file system is mounted read-only: run todosync where it can write"
        default: hint = "run the command again; if it fails again, check the file and the folder it is in"
        }
        return TodoSyncError("\(what): \(errorText(code))", hint: hint)
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

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
