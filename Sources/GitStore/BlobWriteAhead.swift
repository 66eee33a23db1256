import CLibGit2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blob written on a thread of its own while the caller works on: compressing a list file
/// of a megabyte took a third of a commit, and the bytes are known long before the commit is.
///
/// The bytes are compressed in pieces (`DeflatePieces`) that the next version of the file can
/// reuse, given the pieces of the version before; where that fails, libgit2's write stream
/// compresses them whole. Nothing lands in the object database until `finish`: either way the
/// stream goes to a temporary file and only `finish` gives the object its name. Released
/// unfinished, the work stops and the temporary file is removed.
public final class BlobWriteAhead: Sendable {
    private let writer: Writer
    // NB: joined in `finish` or `deinit`, on the caller's thread, before the writer is read.
    private nonisolated(unsafe) let worker: BackgroundThread?
    /// The bytes the blob will hold.
    public var bytes: [UInt8] { writer.bytes }

    init(database: OpaquePointer, objects: String, bytes: [UInt8], previousPieces: String?, previousBytes: [UInt8]?) {
        let writer = Writer(database: database, objects: objects, bytes: bytes, previousPieces: previousPieces, previousBytes: previousBytes)
        self.writer = writer
        // The worker holds the writer, never this object: releasing this object stops the work.
        worker = BackgroundThread { writer.write() }
        if worker == nil { writer.write() }
    }

    /// Waits for the bytes to be written, names the object (in the database from now on) and
    /// returns its id.
    public func finish() throws(GitError) -> OID {
        worker?.join()
        return try writer.finish()
    }

    /// After `finish`: the blob's compressed pieces in their stored form, for the next version
    /// of the file to reuse (`Repository.writeBlobAhead(_:reusingPiecesAt:)`); nil if the blob
    /// was not written in pieces.
    public var storedPieces: [UInt8]? {
        worker?.join()
        return writer.pieced?.pieces.serialized()
    }

    deinit {
        writer.stopping.raise()
        worker?.join()
    }

    /// The state the worker fills in. Its C handles die with it, after the worker is joined.
    private final class Writer: @unchecked Sendable {
        // NB: @unchecked: the worker alone touches `stream`, `failure` and `pieced` until it is
        // joined, the caller only after. The database is this writer's own: libgit2 handles are one thread's.
        let database: OpaquePointer
        let objects: String
        let bytes: [UInt8]
        let previousPieces: String?
        let previousBytes: [UInt8]?
        let stopping = StopFlag()
        var stream: UnsafeMutablePointer<git_odb_stream>?
        var failure: GitError?
        /// Written in pieces: the object's id, its temporary file (nil if the database holds
        /// the object already) and the pieces.
        var pieced: (id: OID, temporary: String?, pieces: DeflatePieces)?

        init(database: OpaquePointer, objects: String, bytes: [UInt8], previousPieces: String?, previousBytes: [UInt8]?) {
            self.database = database
            self.objects = objects
            self.bytes = bytes
            self.previousPieces = previousPieces
            self.previousBytes = previousBytes
        }

        func write() {
            if let written = try? writeInPieces() {
                pieced = written
                return
            }
            if !stopping.isRaised { writeStream() }
        }

        /// The loose object made from pieces. Pieces compared with the bytes they were made
        /// from are taken as they are; pieces recognised by length and Adler-32 alone are
        /// checked by inflating the object before it is kept: one taken for another must not
        /// reach the database.
        private func writeInPieces() throws(GitError) -> (id: OID, temporary: String?, pieces: DeflatePieces) {
            let previous = previousPieces.flatMap(LooseObjectFile.contents(of:)).flatMap(DeflatePieces.init(serialized:))
            let header = Array("blob \(bytes.count)\0".utf8)
            let made = bytes.withUnsafeBytes { content in
                Result { () throws(GitError) -> (git_oid, [UInt8], DeflatePieces) in
                    let pieces = try Self.pieces(content, reusing: previous, madeFrom: previousBytes)
                    let stream = try pieces.looseObject(header: header)
                    guard !stopping.isRaised, pieces.reusedExactly || DeflatePieces.inflates(stream, to: header, content) else {
                        throw GitError(code: -1, message: "the pieces did not make the blob", function: "inflate")
                    }
                    var oid = git_oid()
                    try GitError.check(git_odb_hash(&oid, content.baseAddress, content.count, GIT_OBJECT_BLOB), "git_odb_hash")
                    return (oid, stream, pieces)
                }
            }
            var (oid, stream, pieces) = try made.get()
            let temporary = git_odb_exists(database, &oid) == 1 ? nil : try LooseObjectFile.writeTemporary(stream, in: objects)
            return (OID(oid), temporary, pieces)
        }

        private static func pieces(
            _ content: UnsafeRawBufferPointer, reusing previous: DeflatePieces?, madeFrom previousContent: [UInt8]?
        ) throws(GitError) -> DeflatePieces {
            guard let previousContent else { return try DeflatePieces(content, reusing: previous) }
            let made = previousContent.withUnsafeBytes { source in
                Result { () throws(GitError) in try DeflatePieces(content, reusing: previous, madeFrom: source) }
            }
            return try made.get()
        }

        private func writeStream() {
            var opened: UnsafeMutablePointer<git_odb_stream>?
            let result = git_odb_open_wstream(&opened, database, git_object_size_t(bytes.count), GIT_OBJECT_BLOB)
            guard result >= 0, let opened else {
                failure = GitError.last(code: result, function: "git_odb_open_wstream")
                return
            }
            stream = opened
            // In pieces, so that a write no longer wanted stops soon.
            let piece = 65_536
            failure = bytes.withUnsafeBytes { buffer -> GitError? in
                var offset = 0
                while offset < buffer.count, !stopping.isRaised {
                    let count = min(piece, buffer.count - offset)
                    let start = buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self)
                    let written = git_odb_stream_write(opened, start, count)
                    if written < 0 { return GitError.last(code: written, function: "git_odb_stream_write") }
                    offset += count
                }
                return nil
            }
        }

        func finish() throws(GitError) -> OID {
            if let (id, temporary, pieces) = pieced {
                if let temporary {
                    // NB: named once; a failure leaves nothing to remove.
                    pieced = (id, nil, pieces)
                    try LooseObjectFile.place(temporary, id: id, in: objects)
                }
                return id
            }
            if let failure { throw failure }
            guard let stream else { throw GitError(code: -1, message: "no blob stream was opened", function: "git_odb_open_wstream") }
            var oid = git_oid()
            try GitError.check(git_odb_stream_finalize_write(&oid, stream), "git_odb_stream_finalize_write")
            return OID(oid)
        }

        deinit {
            if let temporary = pieced?.temporary { unlink(temporary) }
            if let stream { git_odb_stream_free(stream) }
            git_odb_free(database)
        }
    }
}

extension Repository {
    /// Starts writing `bytes` as a blob on another thread; `finish()` on the result stores it.
    ///
    /// `previousPieces`: a file holding `storedPieces` of an earlier version of these bytes,
    /// whose pieces are reused where the bytes agree. A missing or damaged file costs time only.
    /// `previousBytes`: the bytes those pieces were made from (nil if unknown); pieces are then
    /// compared with them, not inflated to check.
    public func writeBlobAhead(
        _ bytes: [UInt8], reusingPiecesAt previousPieces: String? = nil, previousBytes: [UInt8]? = nil
    ) throws(GitError) -> BlobWriteAhead {
        var buffer = git_buf()
        try GitError.check(git_repository_item_path(&buffer, pointer, GIT_REPOSITORY_ITEM_OBJECTS), "git_repository_item_path")
        defer { git_buf_dispose(&buffer) }
        var database: OpaquePointer?
        try GitError.check(git_odb_open(&database, buffer.ptr), "git_odb_open")
        guard let database else { throw GitError(code: -1, message: "libgit2 returned no object database", function: "git_odb_open") }
        let objects = String(cString: buffer.ptr)
        return BlobWriteAhead(database: database, objects: objects.hasSuffix("/") ? objects : objects + "/", bytes: bytes, previousPieces: previousPieces, previousBytes: previousBytes)
    }
}
