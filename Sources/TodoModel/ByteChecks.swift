#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level checks on line contents, on the hot paths of comparing and checking lists.
extension ArraySlice<UInt8> {
    /// Whether the bytes are well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF). A hand loop, as the standard library's check
    /// weighed on `todosync status` where most lines hold an emoji. Runs of ASCII (most of a
    /// list: ids, dates, words) are stepped over eight bytes at a time.
    var isValidUTF8: Bool {
        withUnsafeBufferPointer { bytes in
            var index = 0
            let count = bytes.count
            let raw = UnsafeRawBufferPointer(bytes)
            while index < count {
                if index + 8 <= count,
                    raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                    continue
                }
                let lead = bytes[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                var low: UInt8 = 0x80, high: UInt8 = 0xBF
                let trailing: Int
                switch lead {
                case 0xC2...0xDF: trailing = 1
                case 0xE0: trailing = 2; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
                case 0xED: trailing = 2; high = 0x9F
                case 0xF0: trailing = 3; low = 0x90
                case 0xF1...0xF3: trailing = 3
                case 0xF4: trailing = 3; high = 0x8F
                default: return false
                }
                guard index + trailing < count, (low...high).contains(bytes[index + 1]) else { return false }
                for offset in stride(from: 2, through: trailing, by: 1) where bytes[index + offset] & 0xC0 != 0x80 {
                    return false
                }
                index += trailing + 1
            }
            return true
        }
    }

    /// Whether every byte is below 0x80, checked eight bytes at a time.
    var isASCII: Bool {
        withUnsafeBytes { raw in
            var offset = 0
            var high: UInt64 = 0
            while offset + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            while offset < raw.count {
                high |= UInt64(raw[offset])
                offset += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
    }

    /// Byte equality by `memcmp`: several times faster than `==`, which compares element by element.
    public func sameBytes(as other: ArraySlice<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return withUnsafeBufferPointer { mine in
            // NB: both hold `count` > 0 bytes (the guard above), so both have base addresses.
            other.withUnsafeBufferPointer { theirs in memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0 }
        }
    }
}

extension [UInt8] {
    /// Byte equality by `memcmp` (see the slice's).
    public func sameBytes(as other: [UInt8]) -> Bool { self[...].sameBytes(as: other[...]) }
}

/// A run of bytes (a line) as a dictionary key, hashed in one call and compared by `memcmp`
/// (`ArraySlice`'s own hashing feeds the hasher a byte at a time: most of the time where
/// every line of a file is counted).
public struct LineKey: Hashable, Sendable {
    public let bytes: ArraySlice<UInt8>

    public init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    public static func == (a: LineKey, b: LineKey) -> Bool { a.bytes.sameBytes(as: b.bytes) }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

/// The byte classes CommonMark names.
extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
    /// CommonMark's white space: space, tab, line feed, vertical tab, form feed, carriage return.
    var isWhiteSpace: Bool { self == 0x20 || (self >= 0x09 && self <= 0x0D) }
    /// White space that ends no line: space, tab, vertical tab, form feed (cmark-gfm's `spacechar`).
    var isInlineSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0B || self == 0x0C }
}
