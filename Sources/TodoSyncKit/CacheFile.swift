import TodoModel

/// The frame of todosync's derived-data files (`.git/todosync/cache/`): a format line, a
/// checksum of the rest, then the rest. A file that is missing, truncated, damaged or of another
/// format opens as nothing, and the data is worked out again.
enum CacheFile {
    /// A new file's start: `format` and room for the checksum; the body is appended to it,
    /// then `seal` fills the checksum in (the body is never copied again).
    static func start(_ format: [UInt8], reservingCapacity capacity: Int = 0) -> [UInt8] {
        var bytes = format + [UInt8](repeating: 0, count: 8)
        bytes.reserveCapacity(bytes.count + capacity)
        return bytes
    }

    static func seal(_ bytes: inout [UInt8], format: [UInt8]) {
        let sum = ItemsCache.checksum(bytes[(format.count + 8)...])
        for offset in 0..<8 { bytes[format.count + offset] = UInt8(truncatingIfNeeded: sum >> UInt64(8 * offset)) }
    }

    /// A reader at the body of `bytes`, if they are a whole file of `format`.
    static func open(_ bytes: [UInt8], format: [UInt8]) -> ByteReader? {
        let start = format.count + 8
        guard bytes.count >= start, bytes[..<format.count].elementsEqual(format) else { return nil }
        var sum: UInt64 = 0
        for (offset, byte) in bytes[format.count..<start].enumerated() { sum |= UInt64(byte) << UInt64(8 * offset) }
        guard ItemsCache.checksum(bytes[start...]) == sum else { return nil }
        return ByteReader(bytes: bytes[...], at: start)
    }
}
