#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a line ends. Kept per line so mixed endings survive a round trip.
public enum LineEnding: Hashable, Sendable {
    case lf, crlf, cr, none

    public var bytes: [UInt8] {
        switch self {
        case .lf: [0x0A]
        case .crlf: [0x0D, 0x0A]
        case .cr: [0x0D]
        case .none: []
        }
    }

    /// How many bytes the ending takes.
    var byteCount: Int {
        switch self {
        case .lf, .cr: 1
        case .crlf: 2
        case .none: 0
        }
    }
}

/// One physical line of a list file: its bytes without the ending, and the ending.
public struct ListLine: Hashable, Sendable {
    /// The bytes of the line, without its ending. May hold invalid UTF-8, kept as it is.
    public var content: ArraySlice<UInt8>
    public var ending: LineEnding

    public init(content: ArraySlice<UInt8>, ending: LineEnding) {
        self.content = content
        self.ending = ending
    }

    /// Splits bytes into lines at LF, CRLF and lone CR. Concatenating the lines gives the input back.
    ///
    /// - Complexity: O(n); the lines share the input's storage.
    public static func split(_ bytes: [UInt8]) -> [ListLine] {
        var lines: [ListLine] = []
        bytes.withUnsafeBufferPointer { buffer in
            // Exact capacity (a line is 40 bytes here; a guess from the size overshot by half):
            // one counting pass by memchr, many bytes at a time (a loop over the bytes, which
            // the compiler did not vectorise, was a tenth of a parse).
            var count = 1
            if let base = buffer.baseAddress {
                var next = base
                let end = base + buffer.count
                while next < end, let found = memchr(next, 0x0A, end - next) {
                    count += 1
                    next = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
                }
            }
            lines.reserveCapacity(count)
        }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, memchr(base, 0x0D, buffer.count) == nil else { return }
            // No CR anywhere (the usual file): memchr finds each LF, many bytes at a time.
            var start = 0
            while start < buffer.count, let found = memchr(base + start, 0x0A, buffer.count - start) {
                let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                lines.append(ListLine(content: bytes[start..<end], ending: .lf))
                start = end + 1
            }
            if start < buffer.count { lines.append(ListLine(content: bytes[start..<buffer.count], ending: .none)) }
        }
        if !lines.isEmpty || bytes.isEmpty || !bytes.contains(0x0D) { return lines }
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0, i = 0
            let count = buffer.count
            while i < count {
                let byte = buffer[i]
                if byte > 0x0D {
                    i += 1
                    continue
                }
                if byte == 0x0A {
                    lines.append(ListLine(content: bytes[start..<i], ending: .lf))
                    i += 1
                    start = i
                } else if byte == 0x0D {
                    if i + 1 < count, buffer[i + 1] == 0x0A {
                        lines.append(ListLine(content: bytes[start..<i], ending: .crlf))
                        i += 2
                    } else {
                        lines.append(ListLine(content: bytes[start..<i], ending: .cr))
                        i += 1
                    }
                    start = i
                } else {
                    i += 1
                }
            }
            if start < count { lines.append(ListLine(content: bytes[start..<count], ending: .none)) }
        }
        return lines
    }

    /// Concatenates lines and their endings.
    ///
    /// NB: sized first, then copied line by line with `memcpy`: appending each slice to a
    /// growing array was a large part of a parse and render.
    public static func join(_ lines: [ListLine]) -> [UInt8] {
        var total = 0
        for line in lines { total += line.content.count + line.ending.byteCount }
        // NB: with no capacity the initializer sets the count of the one shared empty array,
        // a write that races with every other thread doing the same (ThreadSanitizer).
        guard total > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard var next = buffer.baseAddress else { return }
            for line in lines {
                line.content.withUnsafeBufferPointer { content in
                    guard let source = content.baseAddress else { return }
                    next.initialize(from: source, count: content.count)
                    next += content.count
                }
                switch line.ending {
                case .lf:
                    next.initialize(to: 0x0A)
                    next += 1
                case .crlf:
                    next.initialize(to: 0x0D)
                    (next + 1).initialize(to: 0x0A)
                    next += 2
                case .cr:
                    next.initialize(to: 0x0D)
                    next += 1
                case .none: break
                }
            }
            initialized = total
        }
    }
}

extension UInt8 {
    @inline(__always) var isSpaceOrTab: Bool { self == 0x20 || self == 0x09 }
}

/// Column width of leading spaces and tabs (tab stops every 4 columns, as in CommonMark),
/// and the offset of the first other byte.
@inline(__always)
func leadingIndent<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, from start: Int) -> (columns: Int, end: Int)
where Bytes.Index == Int {
    var columns = 0, i = start
    while i < bytes.endIndex {
        let byte = bytes[i]
        if byte == 0x20 { columns += 1 } else if byte == 0x09 { columns += 4 - columns % 4 } else { break }
        i += 1
    }
    return (columns, i)
}

/// The end of `bytes[start..<end]` with trailing spaces and tabs removed.
@inline(__always)
func trimmedEnd<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, start: Int, end: Int) -> Int
where Bytes.Index == Int {
    var e = end
    while e > start, bytes[e - 1].isSpaceOrTab { e -= 1 }
    return e
}

extension ListLine {
    /// The ending most of the lines have (LF on a tie with it; none counts for nothing).
    static func dominantEnding(of lines: [ListLine]) -> LineEnding {
        var lf = 0, crlf = 0, cr = 0
        for line in lines {
            switch line.ending {
            case .lf: lf += 1
            case .crlf: crlf += 1
            case .cr: cr += 1
            case .none: break
            }
        }
        if crlf > lf && crlf >= cr { return .crlf }
        if cr > lf && cr > crlf { return .cr }
        return .lf
    }
}
