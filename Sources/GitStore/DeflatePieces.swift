import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blob's content compressed as independent pieces that join into one zlib stream, the
/// form git stores a loose object in: the next version of a large file then reuses the pieces
/// whose bytes it still holds and compresses only what changed (a one-line edit of a
/// megabyte-sized list: one piece of 64 KB instead of the whole, ~7 ms at zlib's fastest level).
///
/// Each piece is raw deflate ended by a sync flush: it starts and ends on a byte, is not the
/// last block, and refers to no byte before it, so pieces made at different times join. The
/// stream is the zlib header, the object's header ("blob N\0") compressed alone, the pieces,
/// an empty final block and the Adler-32 of it all, combined from the pieces' own.
struct DeflatePieces: Equatable {
    struct Piece: Equatable {
        /// Bytes of content the piece holds, and their Adler-32.
        var length: Int
        var adler: UInt32
        var compressed: [UInt8]
    }

    private(set) var pieces: [Piece] = []

    /// How much content a piece holds at most: small enough that an edit recompresses little,
    /// large enough that the pieces compress nearly as well as one stream.
    static let pieceSize = 65_536

    /// Whether every piece taken from an earlier version was compared byte for byte with the
    /// bytes it was made from: then the stream holds the content without being inflated to
    /// check. False where a piece was recognised by its length and Adler-32 alone.
    private(set) var reusedExactly = true

    /// `content` in pieces, taking from `previous` (pieces of an earlier version) each one whose
    /// bytes `content` holds at the same distance from its start, or from its end; only the
    /// bytes between are compressed.
    ///
    /// `previousContent`, the bytes `previous` was made from, lets each piece be compared byte
    /// for byte (`reusedExactly`). Without them a piece is recognised by length and Adler-32,
    /// and a false match makes a stream whose inflated bytes differ, which callers then check.
    init(
        _ content: UnsafeRawBufferPointer, reusing previous: DeflatePieces? = nil, madeFrom previousContent: UnsafeRawBufferPointer? = nil
    ) throws(GitError) {
        let compressor = try Compressor()
        let old = previous?.pieces ?? []
        // NB: bytes of another length were not these pieces' bytes: recognised by their sums then.
        let source = previousContent.flatMap { $0.count == old.reduce(0) { $0 + $1.length } ? $0 : nil }
        func holds(_ range: Range<Int>, _ piece: Piece, from oldStart: Int) -> Bool {
            guard let source else { return Self.adler(content, range) == piece.adler }
            return range.isEmpty || memcmp(content.baseAddress! + range.lowerBound, source.baseAddress! + oldStart, range.count) == 0
        }
        var start = 0, taken = 0
        while taken < old.count, start + old[taken].length <= content.count, holds(start..<(start + old[taken].length), old[taken], from: start) {
            start += old[taken].length
            taken += 1
        }
        var end = content.count, oldEnd = source?.count ?? 0
        var tail: [Piece] = []
        var last = old.count
        while last > taken, end - old[last - 1].length >= start,
            holds((end - old[last - 1].length)..<end, old[last - 1], from: oldEnd - old[last - 1].length)
        {
            end -= old[last - 1].length
            oldEnd -= old[last - 1].length
            tail.append(old[last - 1])
            last -= 1
        }
        pieces = Array(old[..<taken])
        reusedExactly = source != nil || (taken == 0 && tail.isEmpty)
        // Equal pieces, not full ones and a remainder: edits must not leave slivers behind.
        let count = (end - start + Self.pieceSize - 1) / Self.pieceSize
        for index in 0..<count {
            let from = start + (end - start) * index / count, to = start + (end - start) * (index + 1) / count
            let bytes = UnsafeRawBufferPointer(rebasing: content[from..<to])
            pieces.append(Piece(length: bytes.count, adler: Self.adler(content, from..<to), compressed: try compressor.compress(bytes)))
        }
        pieces += tail.reversed()
    }

    /// Pieces alike hold alike bytes, however they were matched.
    static func == (a: DeflatePieces, b: DeflatePieces) -> Bool { a.pieces == b.pieces }

    /// The loose object: the zlib stream of `header` (git's "blob N\0") and the content.
    func looseObject(header: [UInt8]) throws(GitError) -> [UInt8] {
        let headerPiece = try Compressor().compress(header)
        var adler = header.withUnsafeBytes { raw in UInt32(adler32(1, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(raw.count))) }
        var stream: [UInt8] = [0x78, 0x01]
        stream.reserveCapacity(pieces.reduce(headerPiece.count + 8) { $0 + $1.compressed.count })
        stream += headerPiece
        for piece in pieces {
            stream += piece.compressed
            adler = UInt32(adler32_combine(uLong(adler), uLong(piece.adler), off_t(piece.length)))
        }
        stream += [0x03, 0x00]  // An empty final block (fixed codes: the end-of-block code alone).
        stream += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return stream
    }

    /// Whether `stream` inflates to exactly `header` followed by `content`.
    ///
    /// NB: inflated a chunk at a time and compared as it comes: a buffer the size of the object
    /// was a megabyte of fresh pages to fault in, and compared once written, out of the caches.
    static func inflates(_ stream: [UInt8], to header: [UInt8], _ content: UnsafeRawBufferPointer) -> Bool {
        var z = z_stream()
        guard todosync_inflate_init(&z) == Z_OK else { return false }
        defer { inflateEnd(&z) }
        let expected = header.count + content.count
        let chunk = 65_536
        var buffer = [UInt8](repeating: 0, count: chunk)
        var compared = 0
        return stream.withUnsafeBufferPointer { input in
            z.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            z.avail_in = uInt(input.count)
            return buffer.withUnsafeMutableBytes { output in
                while true {
                    z.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    z.avail_out = uInt(chunk)
                    let status = inflate(&z, Z_NO_FLUSH)
                    let count = chunk - Int(z.avail_out)
                    guard status == Z_OK || status == Z_STREAM_END, compared + count <= expected,
                        Self.matches(UnsafeRawBufferPointer(rebasing: output[..<count]), at: compared, header, content)
                    else { return false }
                    compared += count
                    if status == Z_STREAM_END { return compared == expected && z.avail_in == 0 }
                    // NB: zlib reports no progress as Z_BUF_ERROR on the next call; this stops a loop without it too.
                    guard count > 0 || z.avail_in > 0 else { return false }
                }
            }
        }
    }

    /// Whether `bytes` are those at `offset` of `header` followed by `content`.
    private static func matches(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ header: [UInt8], _ content: UnsafeRawBufferPointer) -> Bool {
        var position = 0
        if offset < header.count {
            let count = min(bytes.count, header.count - offset)
            let same = header.withUnsafeBytes { memcmp(bytes.baseAddress!, $0.baseAddress! + offset, count) == 0 }
            guard same else { return false }
            position = count
        }
        let rest = bytes.count - position
        guard rest > 0 else { return true }
        return memcmp(bytes.baseAddress! + position, content.baseAddress! + (offset + position - header.count), rest) == 0
    }

    private static func adler(_ content: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt32 {
        guard !range.isEmpty else { return 1 }
        return UInt32(adler32(1, content.baseAddress!.advanced(by: range.lowerBound).assumingMemoryBound(to: Bytef.self), uInt(range.count)))
    }

    /// One deflate state, reset for each piece (setting one up allocates ~270 KB).
    private final class Compressor {
        private var stream = z_stream()

        init() throws(GitError) {
            guard todosync_deflate_init_raw(&stream, 1) == Z_OK else {
                throw GitError(code: -1, message: "zlib could not start compressing", function: "deflateInit2")
            }
        }

        deinit { deflateEnd(&stream) }

        func compress(_ bytes: [UInt8]) throws(GitError) -> [UInt8] {
            let result = bytes.withUnsafeBytes { raw in Result { () throws(GitError) in try compress(raw) } }
            return try result.get()
        }

        func compress(_ bytes: UnsafeRawBufferPointer) throws(GitError) -> [UInt8] {
            deflateReset(&stream)
            // Room for the worst case, and the sync flush's marker.
            let room = Int(deflateBound(&stream, uLong(bytes.count))) + 16
            var status: Int32 = Z_OK
            let result = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
                stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(bytes.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(room)
                status = deflate(&stream, Z_SYNC_FLUSH)
                count = room - Int(stream.avail_out)
            }
            guard status == Z_OK, stream.avail_in == 0, stream.avail_out > 0 else {
                throw GitError(code: -1, message: "zlib could not compress a piece (status \(status))", function: "deflate")
            }
            return result
        }
    }
}

// MARK: - Stored form

extension DeflatePieces {
    private static let magic = Array("todosync-deflate-pieces 2\n".utf8)

    /// The pieces as a file's bytes: a version line, then per piece its length, Adler-32 and
    /// compressed size (32 bits each, little-endian) and its compressed bytes, then the CRC-32
    /// of all that.
    ///
    /// NB: the CRC is what vouches for the compressed bytes where pieces are reused without
    /// inflating them (`reusedExactly`): damage on disk must not reach the database.
    func serialized() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(pieces.reduce(out.count + 4) { $0 + 12 + $1.compressed.count })
        for piece in pieces {
            for word in [UInt32(piece.length), piece.adler, UInt32(piece.compressed.count)] {
                withUnsafeBytes(of: word.littleEndian) { out += $0 }
            }
            out += piece.compressed
        }
        withUnsafeBytes(of: Self.crc(out[...]).littleEndian) { out += $0 }
        return out
    }

    /// Pieces read back from `serialized()`; nil for anything else, or anything damaged.
    init?(serialized stored: [UInt8]) {
        guard stored.starts(with: Self.magic), stored.count >= Self.magic.count + 4 else { return nil }
        let bytes = stored.dropLast(4)
        let crc = stored.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: bytes.count, as: UInt32.self)) }
        guard crc == Self.crc(bytes) else { return nil }
        var offset = Self.magic.count
        func word() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        }
        while offset < bytes.count {
            guard let length = word(), let adler = word(), let size = word().map(Int.init), offset + size <= bytes.count else { return nil }
            pieces.append(Piece(length: Int(length), adler: adler, compressed: Array(bytes[offset..<(offset + size)])))
            offset += size
        }
    }

    private static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { raw in UInt32(crc32(0, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(raw.count))) }
    }
}
