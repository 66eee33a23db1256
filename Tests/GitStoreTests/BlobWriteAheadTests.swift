import Foundation
import Testing
import TestSupport
@testable import GitStore

/// A blob written on another thread is stored only when finished, and gone without a trace
/// when released unfinished.
@Suite struct BlobWriteAheadTests {
    /// Every file below .git/objects (loose objects and anything temporary), relative.
    static func objectFiles(_ scratch: Scratch) throws -> Set<String> {
        let objects = scratch.path + "/.git/objects"
        let all = FileManager.default.enumerator(atPath: objects)?.compactMap { $0 as? String } ?? []
        return Set(all.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: objects + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
        })
    }

    /// Two megabytes, so that the writer is still working when asked.
    static let large = Array((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })

    @Test func aFinishedWriteStoresTheBlobGitHashes() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        try scratch.write("big.bin", bytes: Self.large)
        let expected = try git("hash-object", "big.bin", in: scratch.path).trimmingCharacters(in: .whitespacesAndNewlines)
        let ahead = try repository.writeBlobAhead(Self.large)
        let blob = try ahead.finish()
        #expect(blob.description == expected)
        #expect(try repository.blob(blob) == Self.large)
        #expect(try git("cat-file", "-t", expected, in: scratch.path) == "blob\n")
        try git("fsck", "--strict", in: scratch.path)
    }

    @Test func aWriteReleasedUnfinishedLeavesNothing() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let before = try Self.objectFiles(scratch)
        // Released while writing: its temporary file is seen first, then gone.
        var writing: BlobWriteAhead? = try repository.writeBlobAhead(Self.large + Self.large)
        var waited = 0
        while try Self.objectFiles(scratch) == before, waited < 2_000 {
            usleep(500)
            waited += 1
        }
        #expect(try Self.objectFiles(scratch).count == before.count + 1, "the write's temporary file")
        writing = nil
        #expect(writing == nil)
        // Released at once, whatever the writer has done by then.
        for bytes in [Self.large, Array("- [ ] a\n".utf8), []] {
            var ahead: BlobWriteAhead? = try repository.writeBlobAhead(bytes)
            #expect(ahead?.bytes == bytes)
            ahead = nil
        }
        let after = try Self.objectFiles(scratch)
        #expect(after == before)
        #expect(try git("count-objects", in: scratch.path) == "0 objects, 0 kilobytes\n")
    }

    @Test func theSameBytesTwiceAndAnEmptyBlobAreOneObjectEach() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let first = try repository.writeBlobAhead(Array("- [ ] a\n".utf8)).finish()
        let again = try repository.writeBlobAhead(Array("- [ ] a\n".utf8)).finish()
        let empty = try repository.writeBlobAhead([]).finish()
        #expect(first == again)
        #expect(empty.description == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
        #expect(try git("count-objects", in: scratch.path).hasPrefix("2 objects"))
    }
}
