import Foundation
import Testing
import TestSupport
@testable import GitStore

/// Blobs written in reusable compressed pieces: git reads them as the blobs it would have
/// written, an edit recompresses only the pieces it touches, and pieces that do not fit are
/// never stored.
@Suite struct DeflatePiecesTests {
    /// Text-like bytes (lines of words), so that compression behaves as on a list.
    static func text(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        let words = ["- [ ] ", "buy", " milk", " café", " 日本", "\n", "  note", " <!-- id: 7d2b -->\n", "x"].map { Array($0.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 32)
        while bytes.count < count { bytes += words[Int(random.next() % UInt64(words.count))] }
        return Array(bytes.prefix(count))
    }

    /// `bytes` with one random edit: a replacement, an insertion or a removal, anywhere.
    static func edited(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var result = bytes
        let at = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
        let length = Int(random.next() % 200)
        let removed = min(Int(random.next() % 3 == 0 ? 0 : random.next() % 200), bytes.count - at)
        result.replaceSubrange(at..<(at + removed), with: text(length, seed: random.next()))
        return result
    }

    static func pieces(_ bytes: [UInt8], reusing previous: DeflatePieces? = nil, madeFrom source: [UInt8]? = nil) throws -> DeflatePieces {
        try bytes.withUnsafeBytes { content in
            guard let source else { return try DeflatePieces(content, reusing: previous) }
            return try source.withUnsafeBytes { try DeflatePieces(content, reusing: previous, madeFrom: $0) }
        }
    }

    static func inflates(_ pieces: DeflatePieces, to bytes: [UInt8]) throws -> Bool {
        let header = Array("blob \(bytes.count)\0".utf8)
        let stream = try pieces.looseObject(header: header)
        return bytes.withUnsafeBytes { DeflatePieces.inflates(stream, to: header, $0) }
    }

    @Test func editedVersionsInflateToTheirBytesAndReuseTheUntouchedPieces() throws {
        var random = SeededGenerator(seed: 7)
        var bytes = Self.text(900_000, seed: 1)
        var pieces = try Self.pieces(bytes)
        #expect(pieces.pieces.count == 14)
        #expect(try Self.inflates(pieces, to: bytes))
        for _ in 0..<40 {
            let next = Self.edited(bytes, &random)
            let reused = try Self.pieces(next, reusing: pieces)
            #expect(try Self.inflates(reused, to: next))
            // One edit touches one or two pieces; every other one is taken as it was.
            let kept = reused.pieces.filter { piece in pieces.pieces.contains { $0.compressed == piece.compressed } }.count
            #expect(kept >= pieces.pieces.count - 2)
            #expect(reused.pieces.allSatisfy { $0.length <= DeflatePieces.pieceSize })
            (bytes, pieces) = (next, reused)
        }
    }

    /// Compared with the bytes they were made from, pieces are taken exactly where the sums
    /// took them (no false match among real edits), and the stream needs no inflating to trust.
    @Test func piecesComparedWithTheirBytesAreTakenAsTheSumsTakeThemAndNeedNoCheck() throws {
        var random = SeededGenerator(seed: 17)
        var bytes = Self.text(700_000, seed: 2)
        var pieces = try Self.pieces(bytes)
        for _ in 0..<30 {
            let next = Self.edited(bytes, &random)
            let exact = try Self.pieces(next, reusing: pieces, madeFrom: bytes)
            let bySums = try Self.pieces(next, reusing: pieces)
            #expect(exact.reusedExactly)
            #expect(!bySums.reusedExactly)
            #expect(exact == bySums)
            #expect(try Self.inflates(exact, to: next))
            (bytes, pieces) = (next, exact)
        }
        // Bytes of another length than the pieces hold are not theirs: the sums decide.
        let next = Self.edited(bytes, &random)
        #expect(try !Self.pieces(next, reusing: pieces, madeFrom: bytes + [0x0A]).reusedExactly)
        #expect(try Self.pieces(next, madeFrom: bytes).reusedExactly, "nothing reused: nothing to check")
    }

    @Test(arguments: [0, 1, 100, DeflatePieces.pieceSize - 1, DeflatePieces.pieceSize, DeflatePieces.pieceSize + 1, 3 * DeflatePieces.pieceSize])
    func sizesAroundAPieceInflateAlike(size: Int) throws {
        let bytes = Self.text(size, seed: UInt64(size))
        let pieces = try Self.pieces(bytes)
        #expect(try Self.inflates(pieces, to: bytes))
        // Reused whole, and reused for a version one byte longer or shorter at either end.
        for next in [bytes, bytes + [0x41], [0x41] + bytes, Array(bytes.dropFirst()), Array(bytes.dropLast())] {
            #expect(try Self.inflates(Self.pieces(next, reusing: pieces), to: next))
        }
        #expect(try Self.pieces(bytes, reusing: pieces) == pieces)
    }

    /// The check compares as it inflates, a chunk at a time: a byte off anywhere (in the
    /// header, at a chunk's edge, in the last byte), a stream cut short or one with bytes
    /// after its end must all be refused.
    @Test func theCheckRefusesAnyDifferenceWhereverItFalls() throws {
        let bytes = Self.text(200_000, seed: 3)
        let header = Array("blob \(bytes.count)\0".utf8)
        let stream = try Self.pieces(bytes).looseObject(header: header)
        #expect(bytes.withUnsafeBytes { DeflatePieces.inflates(stream, to: header, $0) })
        for offset in [0, 1, 65_535 - header.count, 65_536 - header.count, 65_536, 131_072 - header.count + 1, bytes.count - 1] {
            var other = bytes
            other[offset] ^= 0x20
            #expect(!other.withUnsafeBytes { DeflatePieces.inflates(stream, to: header, $0) }, "content byte \(offset)")
        }
        var otherHeader = header
        otherHeader[2] = UInt8(ascii: "x")
        #expect(!bytes.withUnsafeBytes { DeflatePieces.inflates(stream, to: otherHeader, $0) })
        #expect(!bytes.dropLast().withUnsafeBytes { DeflatePieces.inflates(stream, to: header, $0) }, "content one byte short")
        #expect(!(bytes + [0x41]).withUnsafeBytes { DeflatePieces.inflates(stream, to: header, $0) }, "content one byte long")
        #expect(!bytes.withUnsafeBytes { DeflatePieces.inflates(Array(stream.dropLast(5)), to: header, $0) }, "stream cut short")
        #expect(!bytes.withUnsafeBytes { DeflatePieces.inflates(stream + [0], to: header, $0) }, "bytes after the stream")
        #expect(!bytes.withUnsafeBytes { DeflatePieces.inflates([], to: header, $0) })
    }

    /// One piece of bytes and another of the same length and Adler-32: "ab" turned to "ba" near
    /// the start and "ba" to "ab" 65,521 bytes on (the modulus) leaves both sums as they were.
    static let lookAlikes: (one: [UInt8], other: [UInt8]) = {
        var one = [UInt8](repeating: 0x61, count: DeflatePieces.pieceSize)
        one[5] = 0x62
        one[5 + 65_522] = 0x62
        var other = one
        (other[5], other[6]) = (0x61, 0x62)
        (other[5 + 65_522], other[5 + 65_521]) = (0x61, 0x62)
        return (one, other)
    }()

    @Test func aPieceTakenForAnotherIsCaughtByInflating() throws {
        let (one, other) = Self.lookAlikes
        let pieces = try Self.pieces(one)
        #expect(pieces.pieces.count == 1)
        let wrong = try Self.pieces(other, reusing: pieces)
        #expect(wrong == pieces, "the sums match: the piece is taken")
        #expect(!wrong.reusedExactly)
        #expect(try !Self.inflates(wrong, to: other))
        // Compared with the bytes it was made from, it is not.
        let right = try Self.pieces(other, reusing: pieces, madeFrom: one)
        #expect(right != pieces)
        #expect(right.reusedExactly)
        #expect(try Self.inflates(right, to: other))
    }

    @Test func aBlobWhosePiecesWouldBeWrongIsWrittenWhole() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let (one, other) = Self.lookAlikes
        let first = try repository.writeBlobAhead(one)
        _ = try first.finish()
        let path = scratch.path + "/pieces"
        try Data(try #require(first.storedPieces)).write(to: URL(fileURLWithPath: path))
        let ahead = try repository.writeBlobAhead(other, reusingPiecesAt: path)
        let blob = try ahead.finish()
        #expect(ahead.storedPieces == nil)
        #expect(try repository.blob(blob) == other)
        // Given the bytes the pieces were made from, the look-alike is compressed anew.
        let known = try repository.writeBlobAhead(other, reusingPiecesAt: path, previousBytes: one)
        #expect(try known.finish() == blob)
        let stored = try #require(known.storedPieces.flatMap(DeflatePieces.init(serialized:)))
        #expect(stored != DeflatePieces(serialized: try #require(first.storedPieces)))
        try git("fsck", "--strict", in: scratch.path)
    }

    @Test func storedPiecesReadBackAndDamageIsRefused() throws {
        let pieces = try Self.pieces(Self.text(200_000, seed: 3))
        let stored = pieces.serialized()
        #expect(DeflatePieces(serialized: stored) == pieces)
        #expect(DeflatePieces(serialized: Array(stored.dropLast())) == nil)
        // Any byte flipped (the compressed bytes are trusted as stored where compared exactly).
        for offset in stride(from: 0, to: stored.count, by: 997) {
            var damaged = stored
            damaged[offset] ^= 0x10
            #expect(DeflatePieces(serialized: damaged) == nil, "byte \(offset)")
        }
        #expect(DeflatePieces(serialized: Array("not pieces".utf8)) == nil)
    }

    @Test func blobsWrittenInPiecesAreGitsBlobsAndAnEditReusesThePiecesStored() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        var random = SeededGenerator(seed: 11)
        var bytes = Self.text(600_000, seed: 5)
        var stored: String? = nil
        var previous: [UInt8]? = nil
        for round in 0..<6 {
            // Every other round knows the bytes the stored pieces were made from.
            let known = round % 2 == 1 ? previous : nil
            let ahead = try repository.writeBlobAhead(bytes, reusingPiecesAt: stored, previousBytes: known)
            let blob = try ahead.finish()
            let pieces = try #require(ahead.storedPieces)
            try scratch.write("version.bin", bytes: bytes)
            let expected = try git("hash-object", "version.bin", in: scratch.path).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(blob.description == expected)
            #expect(try repository.blob(blob) == bytes)
            stored = scratch.path + "/pieces-\(round)"
            try Data(pieces).write(to: URL(fileURLWithPath: stored!))
            previous = bytes
            bytes = Self.edited(bytes, &random)
        }
        try git("fsck", "--strict", in: scratch.path)
        #expect(try git("count-objects", in: scratch.path).hasPrefix("6 objects"))
    }

    @Test func damagedStoredPiecesCostOnlyTime() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let bytes = Self.text(300_000, seed: 9)
        let first = try repository.writeBlobAhead(bytes)
        _ = try first.finish()
        var stored = try #require(first.storedPieces)
        // Flip a byte inside the first piece's compressed bytes (lengths and sums still match):
        // the file's CRC refuses it, with or without the bytes the pieces were made from.
        stored[60] ^= 0x55
        let path = scratch.path + "/pieces"
        try Data(stored).write(to: URL(fileURLWithPath: path))
        var next = bytes
        next[250_000] = 0x21
        for known in [nil, bytes] {
            let ahead = try repository.writeBlobAhead(next, reusingPiecesAt: path, previousBytes: known)
            let blob = try ahead.finish()
            #expect(try repository.blob(blob) == next)
        }
        try git("fsck", "--strict", in: scratch.path)
    }
}
