#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reference's reflog as git keeps it: a text file under `logs/` in the repository's common
/// directory, one line per move of the reference, oldest first (git-update-ref(1), "Logging
/// updates"):
///
///     <old id> SP <new id> SP <name> SP <<email>> SP <time> SP <zone> TAB <message> LF
///
/// Read in place, and only read: libgit2's `git_reflog_read` builds every entry with its
/// signature and message, and a branch's reflog gains a line per command for as long as git
/// keeps entries (90 days), so undo would slow down with age.
struct ReflogFile {
    private let bytes: [UInt8]

    /// The reflog at `path`; nil when the reference has none.
    init?(atPath path: String) throws(GitError) {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw Self.failure(reading: path)
        }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { throw Self.failure(reading: path) }
        // NB: git appends to a reflog and replaces it whole (expire) by a rename, so the size
        // read now bounds what this open file holds; a line appended meanwhile is not needed.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure(reading: path)
            }
            filled += count
        }
        self.bytes = Array(bytes[..<filled])
    }

    /// The ids the reference moved to with a message starting with one of `prefixes`, newest
    /// first, and how many entries the reflog holds. A last line without its line feed is
    /// being appended by another process and is left out.
    func targets(withMessagesStartingWith prefixes: [String]) -> (targets: [OID], total: Int) {
        let wanted = prefixes.map { Array($0.utf8) }
        var targets: [OID] = []
        var total = 0
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while let end = all.index(of: UInt8(ascii: "\n"), from: start) {
                let line = UnsafeBufferPointer(rebasing: all[start..<end])
                start = end + 1
                // NB: 40 hex digits, a space, 40 more: the new id sits at 41..<81.
                guard line.count > 82, line[40] == UInt8(ascii: " "), line[81] == UInt8(ascii: " "),
                    let target = OID(hexDigits: UnsafeBufferPointer(rebasing: line[41..<81]))
                else { continue }
                total += 1
                guard let tab = line.index(of: UInt8(ascii: "\t"), from: 82) else { continue }
                let message = line[(tab + 1)...]
                if wanted.contains(where: { message.starts(with: $0) }) { targets.append(target) }
            }
        }
        return (targets.reversed(), total)
    }

    private static func failure(reading path: String) -> GitError {
        let systemError = errno
        var error = GitError(code: -1, message: "could not read the reflog '\(path)': \(String(cString: strerror(systemError)))", function: "read")
        error.systemError = systemError
        return error
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The first index at or after `start` holding `byte` (memchr: a reflog is scanned whole).
    fileprivate func index(of byte: UInt8, from start: Int) -> Int? {
        guard let base = baseAddress, start < count, let found = memchr(base + start, Int32(byte), count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
