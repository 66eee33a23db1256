import CLibGit2

/// A blob written on a thread of its own while the caller works on: compressing a list file
/// of a megabyte took a third of a commit, and the bytes are known long before the commit is.
///
/// Nothing lands in the object database until `finish`: the bytes go into libgit2's write
/// stream (hashed and compressed as they go, into a temporary file) and only `finish` gives the
/// object its name. Released unfinished, the work stops and the temporary file is removed.
public final class BlobWriteAhead: Sendable {
    private let writer: Writer
    // NB: joined in `finish` or `deinit`, on the caller's thread, before the writer is read.
    private nonisolated(unsafe) let worker: BackgroundThread?
    /// The bytes the blob will hold.
    public var bytes: [UInt8] { writer.bytes }

    init(database: OpaquePointer, bytes: [UInt8]) {
        let writer = Writer(database: database, bytes: bytes)
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

    deinit {
        writer.stopping.raise()
        worker?.join()
    }

    /// The state the worker fills in. Its C handles die with it, after the worker is joined.
    private final class Writer: @unchecked Sendable {
        // NB: @unchecked: the worker alone touches `stream` and `failure` until it is joined, the
        // caller only after. The database is this writer's own: libgit2 handles are one thread's.
        let database: OpaquePointer
        let bytes: [UInt8]
        let stopping = StopFlag()
        var stream: UnsafeMutablePointer<git_odb_stream>?
        var failure: GitError?

        init(database: OpaquePointer, bytes: [UInt8]) {
            self.database = database
            self.bytes = bytes
        }

        func write() {
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
            if let failure { throw failure }
            guard let stream else { throw GitError(code: -1, message: "no blob stream was opened", function: "git_odb_open_wstream") }
            var oid = git_oid()
            try GitError.check(git_odb_stream_finalize_write(&oid, stream), "git_odb_stream_finalize_write")
            return OID(oid)
        }

        deinit {
            if let stream { git_odb_stream_free(stream) }
            git_odb_free(database)
        }
    }
}

extension Repository {
    /// Starts writing `bytes` as a blob on another thread; `finish()` on the result stores it.
    public func writeBlobAhead(_ bytes: [UInt8]) throws(GitError) -> BlobWriteAhead {
        var buffer = git_buf()
        try GitError.check(git_repository_item_path(&buffer, pointer, GIT_REPOSITORY_ITEM_OBJECTS), "git_repository_item_path")
        defer { git_buf_dispose(&buffer) }
        var database: OpaquePointer?
        try GitError.check(git_odb_open(&database, buffer.ptr), "git_odb_open")
        guard let database else { throw GitError(code: -1, message: "libgit2 returned no object database", function: "git_odb_open") }
        return BlobWriteAhead(database: database, bytes: bytes)
    }
}
