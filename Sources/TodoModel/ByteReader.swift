/// Reading back what `appendNumber` and `appendString` write: the compact binary form of the
/// items cache (`ItemRecords`, and the cache file around them). Every read checks its bounds
/// and answers nil past the end, never a partial value.
public struct ByteReader {
    public let bytes: ArraySlice<UInt8>
    public var index: Int

    public init(bytes: ArraySlice<UInt8>, at index: Int) {
        self.bytes = bytes
        self.index = index
    }

    public mutating func byte() -> UInt8? {
        guard index < bytes.endIndex else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// A number of at most 32 bits, seven bits a byte, lowest first.
    public mutating func number() -> Int? {
        var value: UInt64 = 0, shift: UInt64 = 0
        while let byte = byte() {
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value <= UInt64(UInt32.max) ? Int(value) : nil }
            shift += 7
            guard shift < 35 else { return nil }
        }
        return nil
    }

    /// Where `length` bytes from here end, if the bytes hold them.
    public func end(after length: Int) -> Int? {
        length <= bytes.endIndex - index ? index + length : nil
    }

    public mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard let end = end(after: count) else { return nil }
        defer { index = end }
        return bytes[index..<end]
    }

    public mutating func string() -> String? {
        guard let length = number(), let slice = take(length) else { return nil }
        return String(decoding: slice, as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// A non-negative number of at most 32 bits, seven bits a byte, lowest first.
    public mutating func appendNumber(_ value: Int) {
        var rest = UInt64(value)
        while rest >= 0x80 {
            append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        append(UInt8(rest))
    }

    /// A string as its UTF-8 length, then its bytes.
    public mutating func appendString(_ text: String) {
        appendNumber(text.utf8.count)
        append(contentsOf: text.utf8)
    }
}
