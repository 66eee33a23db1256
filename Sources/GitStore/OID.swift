import CLibGit2

/// A git object id (SHA-1), as a Swift value.
public struct OID: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    init(_ oid: git_oid) {
        var copy = oid
        bytes = withUnsafeBytes(of: &copy.id) { Array($0) }
    }

    public init?(hex: String) {
        var raw = git_oid()
        guard git_oid_fromstrn(&raw, hex, hex.utf8.count) == 0, hex.utf8.count == 40 else { return nil }
        self.init(raw)
    }

    var raw: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return oid
    }

    /// The 40-character hex form.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(40)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The first seven hex digits, as `git log --oneline` shows them.
    public var short: String { String(description.prefix(7)) }
}
