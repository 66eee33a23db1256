import GitStore

/// Uncompressed copies of the list blobs of the last commit todosync made, in the git
/// directory. The next commit compares the working lists with HEAD's, and inflating a
/// megabyte-sized list from git took ~3 ms of it; a copy is read in a tenth of that.
///
/// Beside a copy, `<blob id>.pieces` holds the blob's compressed pieces (`BlobWriteAhead`):
/// the next version of the file reuses those whose bytes it still holds.
///
/// A cache, never the truth: a copy is written whole or not at all (temporary file, rename),
/// named by its blob's id and a checksum of its bytes, and used only if the bytes still match
/// that checksum; pieces carry a CRC-32, and each is taken only where the new bytes equal the
/// copy's bytes it was made from (or, without a copy, where the object they make inflates to
/// the new bytes). Anything else is read from git or compressed anew. Deleting the folder is
/// always safe.
struct BlobCopies {
    static let folderName = "todosync-blob-copies"
    let folder: String

    init(gitDirectory: String) {
        folder = gitDirectory + Self.folderName
    }

    /// The copies kept, listed once for the lookups that follow.
    struct Listing {
        var copies: BlobCopies
        var names: [String]

        /// The blob's bytes, if an undamaged copy of it is kept.
        func bytes(of blob: OID) -> [UInt8]? { copies.bytes(of: blob, among: names) }
    }

    func listed() -> Listing { Listing(copies: self, names: FileSystem.contents(of: folder)) }

    private func bytes(of blob: OID, among names: [String]) -> [UInt8]? {
        let prefix = blob.description + "."
        for name in names where name.hasPrefix(prefix) && !name.hasSuffix(Self.piecesSuffix) {
            guard let bytes = try? FileSystem.read(folder + "/" + name) else { continue }
            if name == Self.name(of: blob, checksum: Self.checksum(bytes)) { return bytes }
            FileSystem.removeCache(folder + "/" + name)
        }
        return nil
    }

    static let piecesSuffix = ".pieces"

    /// Where the compressed pieces of a blob are kept (the file may not exist).
    func piecesPath(of blob: OID) -> String { folder + "/" + blob.description + Self.piecesSuffix }

    /// A copy written before its blob's id is known (while the blob is being compressed): a
    /// temporary file in the folder, named by `keep` or removed.
    struct Prepared {
        var temporaryPath: String
        var checksum: UInt64
    }

    /// Writes `bytes` as a copy still to be named; nil if it could not be written.
    func prepare(_ bytes: [UInt8]) -> Prepared? {
        guard ensureFolder(), let path = FileSystem.writeTemporaryCache(in: folder, bytes) else { return nil }
        return Prepared(temporaryPath: path, checksum: Self.checksum(bytes))
    }

    /// Keeps copies of the blobs in `kept` only: names the prepared copies, writes those of
    /// `new` (whose bytes are at hand) that have none, removes the rest. Best effort: a copy
    /// not kept only means the next commit reads git.
    func keep(
        _ kept: Set<OID>, writing new: [OID: [UInt8]] = [:], naming prepared: [OID: Prepared] = [:],
        pieces: [OID: [UInt8]] = [:]
    ) {
        let names = FileSystem.contents(of: folder)
        if !new.isEmpty, names.isEmpty, !ensureFolder() { return }
        let keptPrefixes = Set(kept.map(\.description))
        let preparedPaths = Set(prepared.values.map(\.temporaryPath))
        var present = Set<String>()
        for name in names where !preparedPaths.contains(folder + "/" + name) {
            let blob = String(name.prefix { $0 != "." })
            // NB: also what a run stopped mid-write left (`.todosync-` temporary files).
            if !keptPrefixes.contains(blob) {
                FileSystem.removeCache(folder + "/" + name)
            } else if !name.hasSuffix(Self.piecesSuffix) {
                present.insert(blob)
            }
        }
        for (blob, copy) in prepared {
            if kept.contains(blob), present.insert(blob.description).inserted {
                FileSystem.renameCache(copy.temporaryPath, to: folder + "/" + Self.name(of: blob, checksum: copy.checksum))
            } else {
                FileSystem.removeCache(copy.temporaryPath)
            }
        }
        for (blob, bytes) in new where kept.contains(blob) && !present.contains(blob.description) {
            FileSystem.writeCache(folder + "/" + Self.name(of: blob, checksum: Self.checksum(bytes)), bytes)
        }
        for (blob, stored) in pieces where kept.contains(blob) { FileSystem.writeCache(piecesPath(of: blob), stored) }
    }

    private func ensureFolder() -> Bool {
        FileSystem.exists(folder) || (try? FileSystem.createDirectory(folder)) != nil
    }

    /// `<blob id>.<checksum>`: a copy damaged on disk no longer matches its name.
    static func name(of blob: OID, checksum: UInt64) -> String {
        let sum = String(checksum, radix: 16)
        return blob.description + "." + String(repeating: "0", count: 16 - sum.count) + sum
    }

    /// FNV-1a over 8-byte words: any one changed word changes it (each step is a bijection of
    /// the state). It catches damage, not someone writing into .git on purpose.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            let prime: UInt64 = 0x100_0000_01B3
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(raw.count)
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* prime
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* prime
                offset += 1
            }
            return hash
        }
    }
}

extension Workspace {
    var blobCopies: BlobCopies { BlobCopies(gitDirectory: repository.gitDirectory) }

    /// After a commit: copies of its list files, those just written and those kept from before.
    func keepBlobCopies(
        over head: HeadSnapshot, _ changes: [String: TreeChange], _ finalBytes: [String: [UInt8]?],
        prepared: [String: BlobCopies.Prepared] = [:], pieces: [OID: [UInt8]] = [:]
    ) {
        var kept = Set(head.blobs.filter { changes[$0.key] == nil }.values)
        var new: [OID: [UInt8]] = [:], named: [OID: BlobCopies.Prepared] = [:]
        for (path, change) in changes {
            guard case .write(let blob, _) = change, let bytes = finalBytes[path] ?? nil else { continue }
            kept.insert(blob)
            if let copy = prepared[path] { named[blob] = copy } else { new[blob] = bytes }
        }
        // NB: a prepared copy of a file that was not committed after all is removed here.
        for (path, copy) in prepared where changes[path] == nil { FileSystem.removeCache(copy.temporaryPath) }
        blobCopies.keep(kept, writing: new, naming: named, pieces: pieces)
    }

    /// After HEAD moved to a commit todosync did not write (a fast-forward): copies of its
    /// lists, whose bytes were just read from git.
    func keepBlobCopies(of snapshot: HeadSnapshot) {
        var bytes: [OID: [UInt8]] = [:]
        for (path, blob) in snapshot.blobs { bytes[blob] = snapshot.files[path]?.bytes }
        blobCopies.keep(Set(snapshot.blobs.values), writing: bytes)
    }
}
