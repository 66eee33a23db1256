import GitStore

/// A sync's merged lists on their way into git. Each starts compressing on a thread of its own
/// as soon as the merge renders it (in pieces that reuse ours', as a commit's blobs do), and
/// its copy for the next commit is written meanwhile; `finishMergedListWrites` names the blobs.
struct MergedListWrites {
    enum Write {
        /// The list came out as one side had it: that side's blob, nothing to store.
        case asASide(OID)
        case ahead(BlobWriteAhead)
        /// No thread could be started: libgit2 stores these bytes whole when finishing.
        case whole([UInt8])
        case delete
    }

    var writes: [String: Write] = [:]
    var modes: [String: UInt32] = [:]
    var preparedCopies: [String: BlobCopies.Prepared] = [:]

    /// Removes the copies written for a merge that was not committed.
    func discardCopies() {
        for copy in preparedCopies.values { FileSystem.removeCache(copy.temporaryPath) }
    }
}

extension Workspace {
    func startMergedListWrites(
        _ paths: Set<String>, _ finalBytes: [String: [UInt8]], ours: HeadSnapshot, theirs: HeadSnapshot
    ) -> MergedListWrites {
        var result = MergedListWrites()
        for path in paths.sorted() {
            guard let bytes = finalBytes[path] else {
                result.writes[path] = .delete
                continue
            }
            result.modes[path] = ours.files[path]?.mode ?? theirs.files[path]?.mode ?? TreeChange.regularFileMode
            let side = [ours, theirs].first { $0.files[path].map { $0.bytes.sameBytes(as: bytes) } ?? false }
            if let blob = side?.blobs[path] {
                result.writes[path] = .asASide(blob)
                continue
            }
            let pieces = ours.blobs[path].map { blobCopies.piecesPath(of: $0) }
            if let ahead = try? repository.writeBlobAhead(bytes, reusingPiecesAt: pieces, previousBytes: ours.files[path]?.bytes) {
                result.writes[path] = .ahead(ahead)
            } else {
                result.writes[path] = .whole(bytes)
            }
        }
        // NB: after every write has started: the copies are written while they compress.
        for (path, write) in result.writes {
            if case .ahead = write, let bytes = finalBytes[path] { result.preparedCopies[path] = blobCopies.prepare(bytes) }
        }
        return result
    }

    /// Waits for the merged lists' blobs: the tree changes they make, and the pieces to keep.
    func finishMergedListWrites(_ merged: MergedListWrites) throws(TodoSyncError) -> (changes: [String: TreeChange], pieces: [OID: [UInt8]]) {
        var changes: [String: TreeChange] = [:], pieces: [OID: [UInt8]] = [:]
        for (path, write) in merged.writes {
            let blob: OID
            switch write {
            case .delete:
                changes[path] = .delete
                continue
            case .asASide(let sideBlob):
                blob = sideBlob
            case .ahead(let ahead):
                blob = try git("storing \(path)") { try ahead.finish() }
                if let stored = ahead.storedPieces { pieces[blob] = stored }
            case .whole(let bytes):
                blob = try git("storing \(path)") { try repository.writeBlob(bytes) }
            }
            changes[path] = .write(blob: blob, mode: merged.modes[path] ?? TreeChange.regularFileMode)
        }
        return (changes, pieces)
    }
}
