import CLibGit2

/// A git object id (SHA-1), as a Swift value.
public struct OID: Hashable, Sendable, CustomStringConvertible {
    // NB: the 20 bytes held inline, in memory order, not in a heap array: histories and
    // reflogs hand back ids by the thousand.
    private var leading: UInt64
    private var middle: UInt64
    private var trailing: UInt32

    init(_ oid: git_oid) {
        var copy = oid
        (leading, middle, trailing) = withUnsafeBytes(of: &copy.id) { bytes in
            (
                bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
            )
        }
    }

    public init?(hex: String) {
        // NB: checked here first: libgit2 records a failure in its error state, which needs
        // libgit2 set up (this parses journals and notes before a repository is opened).
        guard hex.utf8.count == 40, hex.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
        var raw = git_oid()
        guard git_oid_fromstrn(&raw, hex, 40) == 0 else { return nil }
        self.init(raw)
    }

    /// The id 40 hex digits spell (either case), as read from a file; nil for anything else.
    public init?(hexDigits digits: UnsafeBufferPointer<UInt8>) {
        guard digits.count == 40 else { return nil }
        var raw = git_oid()
        let valid = withUnsafeMutableBytes(of: &raw.id) { bytes in
            for index in 0..<20 {
                guard let high = digits[2 * index].hexValue, let low = digits[2 * index + 1].hexValue else {
                    return false
                }
                bytes[index] = high << 4 | low
            }
            return true
        }
        guard valid else { return nil }
        self.init(raw)
    }

    /// The id of these 20 bytes, as `bytes` gives them; nil for any other count.
    public init?(rawBytes: ArraySlice<UInt8>) {
        guard rawBytes.count == 20 else { return nil }
        var raw = git_oid()
        withUnsafeMutableBytes(of: &raw.id) { bytes in
            for (offset, byte) in rawBytes.enumerated() { bytes[offset] = byte }
        }
        self.init(raw)
    }

    /// The 20 bytes of the id.
    public var bytes: [UInt8] {
        var raw = raw
        return withUnsafeBytes(of: &raw.id) { Array($0) }
    }

    var raw: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { bytes in
            bytes.storeBytes(of: leading, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: middle, toByteOffset: 8, as: UInt64.self)
            bytes.storeBytes(of: trailing, toByteOffset: 16, as: UInt32.self)
        }
        return oid
    }

    /// The 40-character hex form.
    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(40)
        appendHex(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the 40 hex digits to `bytes` (a file of thousands of ids is written so).
    public func appendHex(to out: inout [UInt8]) {
        for byte in bytes {
            out.append(Self.hexDigits[Int(byte >> 4)])
            out.append(Self.hexDigits[Int(byte & 0xF)])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The first seven hex digits, as `git log --oneline` shows them.
    public var short: String { String(description.prefix(7)) }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool { hexValue != nil }

    fileprivate var hexValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
