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
enum ReflogFile {
    /// The ids the reflog at `path` moved its reference to with a message starting with one of
    /// `prefixes`, oldest first, and how many entries it holds (none where there is no reflog).
    /// A last line without its line feed is being appended by another process and is left out.
    static func targets(
        atPath path: String, withMessagesStartingWith prefixes: [String]
    ) throws(GitError) -> (oldestFirst: [OID], total: Int) {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return ([], 0) }
            throw failure(reading: path)
        }
        defer { close(file) }
        var found = Found(wanted: prefixes.map { Array($0.utf8) })
        var status = stat()
        if fstat(file, &status) == 0 {
            // NB: room for one id per shortest line, so the list never moves as it grows.
            found.targets.reserveCapacity(Int(status.st_size) / (Found.shortestLine + 1))
        }
        // NB: read a piece at a time, so a long reflog is never held whole: the whole lines of
        // each piece are scanned, and an unfinished one moves to the front to be completed.
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var kept = 0
        while true {
            if kept == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
            // NB: the buffer is never empty (64 KiB, growing), so it has a base address.
            let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress! + kept, $0.count - kept) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(reading: path)
            }
            if count == 0 { break }
            buffer.withUnsafeMutableBufferPointer { buffer in
                let filled = kept + count
                let scanned = found.scanLines(in: UnsafeBufferPointer(rebasing: buffer[..<filled]))
                kept = filled - scanned
                // NB: the buffer is never empty (see above).
                if kept > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + scanned, kept) }
            }
        }
        return (found.targets, found.total)
    }

    private struct Found {
        let wanted: [[UInt8]]
        var targets: [OID] = []
        var total = 0
        /// Two ids, their spaces and a tab.
        static let shortestLine = 83

        /// Takes in each whole line of `text`; returns how many bytes those lines take.
        mutating func scanLines(in text: UnsafeBufferPointer<UInt8>) -> Int {
            var start = 0
            while let end = text.index(of: UInt8(ascii: "\n"), from: start) {
                take(UnsafeBufferPointer(rebasing: text[start..<end]))
                start = end + 1
            }
            return start
        }

        private mutating func take(_ line: UnsafeBufferPointer<UInt8>) {
            // NB: 40 hex digits, a space, 40 more: the new id sits at 41..<81.
            guard line.count >= Self.shortestLine, line[40] == UInt8(ascii: " "), line[81] == UInt8(ascii: " ") else {
                return
            }
            total += 1
            guard let tab = line.index(of: UInt8(ascii: "\t"), from: 82) else { return }
            let message = line[(tab + 1)...]
            guard wanted.contains(where: { message.starts(with: $0) }),
                let target = OID(hexDigits: UnsafeBufferPointer(rebasing: line[41..<81]))
            else { return }
            targets.append(target)
        }
    }

    private static func failure(reading path: String) -> GitError {
        let systemError = errno
        var error = GitError(
            code: -1, message: "could not read the reflog '\(path)': \(String(cString: strerror(systemError)))",
            function: "read")
        error.systemError = systemError
        return error
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The first index at or after `start` holding `byte` (memchr: a reflog is scanned whole).
    fileprivate func index(of byte: UInt8, from start: Int) -> Int? {
        guard let base = baseAddress, start < count, let found = memchr(base + start, Int32(byte), count - start) else {
            return nil
        }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
