/// The stable identity of a TODO item: a UUID, written in the file as `<!-- id: UUID -->`.
///
/// An index or a title is not an identity: items are renamed, reordered and moved between
/// files, and `ItemID` survives all of that.
///
/// ```swift
/// let id = ItemID(parsing: "0f6c2a4e-8d1b-4c39-9e55-3a1b2c3d4e5f")!
/// id.description   // "0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F"
/// ```
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 16 bytes of the UUID, most significant first.
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses the canonical 8-4-4-4-12 form, in either case.
    public init?(parsing text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Parses the canonical 8-4-4-4-12 form from ASCII bytes, in either case.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard
            let id = bytes.withContiguousStorageIfAvailable(Self.parse)
                ?? Array(bytes).withUnsafeBufferPointer(Self.parse)
        else { return nil }
        self = id
    }

    /// Parses the canonical form from 36 bytes in memory (the parser's hot path).
    init?(uuid buffer: UnsafeBufferPointer<UInt8>) {
        guard let id = Self.parse(buffer) else { return nil }
        self = id
    }

    // NB: eight digits at a time in one 64-bit word (SWAR): this runs once per item line of
    // every file read (a lookup per digit in a lazily made global table: ~245 instructions an
    // id with the global's guard; this: ~212).
    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> ItemID? {
        guard buffer.count == 36, let text = buffer.baseAddress else { return nil }
        guard text[8] == 0x2D, text[13] == 0x2D, text[18] == 0x2D, text[23] == 0x2D else { return nil }
        let raw = UnsafeRawPointer(text)
        func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func half(_ offset: Int) -> UInt64 {
            UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        // The 32 digits as four words of eight, in text order (the first digit in the low byte).
        guard let first = hexWord(word(0)), let second = hexWord(half(9) | (half(14) << 32)),
            let third = hexWord(half(19) | (half(24) << 32)), let fourth = hexWord(word(28))
        else { return nil }
        return ItemID(high: (first << 32) | second, low: (third << 32) | fourth)
    }

    /// The value of eight ASCII hex digits in one little-endian word (the first digit in the
    /// low byte, the most significant); nil unless every byte is a hex digit, in either case.
    @inline(__always)
    static func hexWord(_ word: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits = ones &* 0x80
        // With every byte below 0x80, adding (0x80 - lo) sets a byte's top bit iff it is >= lo,
        // and (0x80 + hi) minus it keeps the top bit iff it is <= hi; no carry crosses bytes.
        func atLeast(_ value: UInt64, _ low: UInt64) -> UInt64 { (value &+ (ones &* (0x80 - low))) & highBits }
        func atMost(_ value: UInt64, _ high: UInt64) -> UInt64 { ((ones &* (0x80 + high)) &- value) & highBits }
        let lower = word | (ones &* 0x20)
        let digit = atLeast(word, 0x30) & atMost(word, 0x39)
        let letter = atLeast(lower, 0x61) & atMost(lower, 0x66)
        guard word & highBits == 0, (digit | letter) == highBits else { return nil }
        // A digit's value is its low nibble; a letter's (bit 6 set) its low nibble + 9.
        var value = (word & (ones &* 0x0F)) &+ ((word >> 6) & ones) &* 9
        // Pack the eight nibbles, the first byte's most significant: pairs, quads, then all.
        value = (value & 0x000F_000F_000F_000F) << 4 | ((value >> 8) & 0x000F_000F_000F_000F)
        value = (value & 0x0000_00FF_0000_00FF) << 8 | ((value >> 16) & 0x0000_00FF_0000_00FF)
        return (value & 0xFFFF) << 16 | ((value >> 32) & 0xFFFF)
    }

    /// A random (version 4) id.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> ItemID {
        let high = (generator.next() & ~0xF000) | 0x4000
        let low = (generator.next() & ~(0xC000_0000_0000_0000 as UInt64)) | 0x8000_0000_0000_0000
        return ItemID(high: high, low: low)
    }

    /// A name-based (version 5, SHA-1) id: the same name always gives the same id, on every machine.
    public static func named(_ name: String) -> ItemID {
        let digest = SHA1.digest(namespaceBytes + Array(name.utf8))
        var high: UInt64 = 0, low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(digest[i]) }
        for i in 8..<16 { low = low << 8 | UInt64(digest[i]) }
        high = (high & ~0xF000) | 0x5000
        low = (low & ~(0xC000_0000_0000_0000 as UInt64)) | 0x8000_0000_0000_0000
        return ItemID(high: high, low: low)
    }

    /// The canonical upper-case form, as todosync writes it.
    public var description: String { String(decoding: canonicalBytes, as: UTF8.self) }

    /// The canonical upper-case form as ASCII bytes.
    public var canonicalBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(36)
        appendCanonical(to: &out)
        return out
    }

    /// Appends the canonical upper-case form (a listing writes a million of them).
    public func appendCanonical(to out: inout [UInt8]) {
        for nibble in 0..<32 {
            if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { out.append(UInt8(ascii: "-")) }
            let word = nibble < 16 ? high : low
            let value = UInt8(truncatingIfNeeded: word >> UInt64(60 - (nibble % 16) * 4)) & 0xF
            out.append(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10)
        }
    }

    /// The hash a `Set` or `Dictionary` files an id under (see `mixedHash`).
    ///
    /// NB: underscored, as nothing public replaces it: `_rawHashValue(seed:)` is the
    /// customization point `Hashable` reserves for a cheaper hash than the standard `Hasher`
    /// (SipHash), which weighed on large merges that look ids up in large tables.
    public func _rawHashValue(seed: Int) -> Int { mixedHash(high, low, seed: seed) }

    public static func < (lhs: ItemID, rhs: ItemID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// todosync's own namespace for name-based ids (a fixed random UUID).
    private static let namespaceBytes: [UInt8] = [
        0x7D, 0x2B, 0x4C, 0x61, 0x1E, 0x93, 0x4F, 0x0A, 0xB5, 0x58, 0x2C, 0x6E, 0x90, 0x17, 0xD3, 0x4A,
    ]
}

/// A table hash of two words: two rounds of SplitMix64's finalizer over both and the table's
/// seed. For keys looked up in bulk (ids, merge tokens), where `Hasher` costs more than the lookup.
@inline(__always)
func mixedHash(_ first: UInt64, _ second: UInt64, seed: Int) -> Int {
    @inline(__always) func mix(_ value: UInt64) -> UInt64 {
        var x = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }
    return Int(truncatingIfNeeded: mix(mix(first ^ UInt64(UInt(bitPattern: seed))) ^ second))
}

@inline(__always)
func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
