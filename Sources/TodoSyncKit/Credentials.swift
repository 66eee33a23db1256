#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Credentials never shown: in every URL of a text, the user part of an `https://` (or other)
/// URL is dropped, as git shows a remote (`https://host/lists.git`; a token is often written
/// as the user name); an ssh URL keeps its user name (not a secret) but loses any password.
public enum Credentials {
    public static func removed(from text: String) -> String {
        let bytes = Array(text.utf8)
        guard separatorStart(in: bytes, from: 0) != nil else { return text }
        return String(decoding: removed(fromBytes: bytes), as: UTF8.self)
    }

    /// `removed(from:)` for UTF-8 bytes.
    public static func removed(fromBytes bytes: [UInt8]) -> [UInt8] {
        // NB: by bytes: everything printed passes here, `list --json` of a vault too, and what
        // is looked for (the scheme, "://", the authority's ends, "@") is ASCII.
        guard var separator = separatorStart(in: bytes, from: 0) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var position = 0
        while true {
            var schemeStart = separator
            while schemeStart > position, isSchemeByte(bytes[schemeStart - 1]) { schemeStart -= 1 }
            let isSSH = String(decoding: bytes[schemeStart..<separator], as: UTF8.self).lowercased().contains("ssh")
            result += bytes[position..<(separator + 3)]
            position = separator + 3
            // The authority ends at the first '/', '?', '#', quote, space or angle bracket; a
            // '@' before that ends the user part.
            var end = position
            while end < bytes.count, !authorityEnders.contains(bytes[end]) { end += 1 }
            if let at = bytes[position..<end].lastIndex(of: UInt8(ascii: "@")) {
                if isSSH {
                    result += bytes[position..<at].prefix { $0 != UInt8(ascii: ":") }
                    result.append(UInt8(ascii: "@"))
                }
                position = at + 1
            }
            guard let next = separatorStart(in: bytes, from: position) else { break }
            separator = next
        }
        result += bytes[position...]
        return result
    }

    private static let authorityEnders = Set("/?#'\" \t\n<>".utf8)

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "+")
    }

    /// Where the first `://` at or after `start` begins.
    private static func separatorStart(in bytes: [UInt8], from start: Int) -> Int? {
        // NB: memchr finds each ':' a word at a time; a listing of a vault is megabytes.
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var index = start
            while index + 2 < buffer.count {
                guard let found = memchr(base + index, Int32(UInt8(ascii: ":")), buffer.count - 2 - index) else {
                    return nil
                }
                index = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                if buffer[index + 1] == UInt8(ascii: "/"), buffer[index + 2] == UInt8(ascii: "/") { return index }
                index += 1
            }
            return nil
        }
    }
}
