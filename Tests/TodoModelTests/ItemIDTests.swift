import TestSupport
import Testing
@testable import TodoModel

@Suite struct ItemIDTests {
    @Test func sha1MatchesKnownVectors() {
        func hex(_ bytes: [UInt8]) -> String {
            bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined()
        }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test func parsesAndPrintsCanonicalForm() throws {
        let id = try #require(ItemID(parsing: "0f6c2a4e-8d1b-4c39-9e55-3a1b2c3d4e5f"))
        #expect(id.description == "0F6C2A4E-8D1B-4C39-9E55-3A1B2C3D4E5F")
        #expect(ItemID(parsing: id.description) == id)
        #expect(ItemID(parsing: "0f6c2a4e8d1b4c399e553a1b2c3d4e5f") == nil)
        #expect(ItemID(parsing: "0f6c2a4e-8d1b-4c39-9e55-3a1b2c3d4e5g") == nil)
    }

    @Test func everyByteAtEveryDigitIsReadAsAPlainLoopReadsIt() {
        // The parse reads eight digits a word at a time: each of the 32 digit places, set to
        // each of the 256 byte values, must give what a digit-by-digit reading gives.
        let text = Array("0f6c2a4e-8d1b-4c39-9e55-3a1b2c3d4e5f".utf8)
        func plain(_ bytes: [UInt8]) -> ItemID? {
            var high: UInt64 = 0, low: UInt64 = 0
            for (index, byte) in bytes.enumerated() where ![8, 13, 18, 23].contains(index) {
                guard let digit = hexValue(byte) else { return nil }
                // The first 16 digits (before offset 19) are the high word.
                if index < 19 { high = high << 4 | UInt64(digit) } else { low = low << 4 | UInt64(digit) }
            }
            return ItemID(high: high, low: low)
        }
        for place in text.indices where ![8, 13, 18, 23].contains(place) {
            for byte in UInt8.min...UInt8.max {
                var bytes = text
                bytes[place] = byte
                #expect(ItemID(bytes: bytes) == plain(bytes), "byte \(byte) at \(place)")
            }
        }
        #expect(ItemID(bytes: text) == ItemID(high: 0x0F6C_2A4E_8D1B_4C39, low: 0x9E55_3A1B_2C3D_4E5F))
    }

    @Test func namedIDsAreStableVersion5() {
        let a = ItemID.named("commit\nTODO.md\n0")
        #expect(a == ItemID.named("commit\nTODO.md\n0"))
        #expect(a != ItemID.named("commit\nTODO.md\n1"))
        #expect(Array(a.description)[14] == "5")
    }

    @Test func randomIDsAreVersion4AndDiffer() {
        var generator = SeededGenerator(seed: 7)
        let ids = (0..<100).map { _ in ItemID.random(using: &generator) }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy { Array($0.description)[14] == "4" })
    }

    @Test func tableHashesSpreadIdsThatDifferInEitherHalf() {
        // Sets and dictionaries file ids by the low bits of `_rawHashValue`: ids differing only
        // in one half (hand-written, counted) must still land apart, and equal ids alike.
        let highOnly = (0..<4_096).map { ItemID(high: UInt64($0), low: 0x8000_0000_0000_0000) }
        let lowOnly = (0..<4_096).map { ItemID(high: 0x4000, low: UInt64($0)) }
        for ids in [highOnly, lowOnly] {
            let buckets = Set(ids.map { $0._rawHashValue(seed: 12_345) & 0xFFFF })
            #expect(buckets.count > 3_900)
            #expect(Set(ids).count == ids.count)
        }
        let id = ItemID(high: 0x1234, low: 0x5678)
        #expect(id._rawHashValue(seed: 7) == ItemID(high: 0x1234, low: 0x5678)._rawHashValue(seed: 7))
        #expect(id._rawHashValue(seed: 7) != id._rawHashValue(seed: 8))
    }
}
