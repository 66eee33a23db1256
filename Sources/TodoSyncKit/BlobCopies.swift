import GitStore

/// Uncompressed copies of the list blobs of the last commit todosync made, in the git
/// directory. The next commit compares the working lists with HEAD's, and inflating a
/// megabyte-sized list from git took ~3 ms of it; a copy is read in a tenth of that.
///
/// A cache, never the truth: a copy is written whole or not at all (temporary file, rename),
/// named by its blob's id and a checksum of its bytes, and used only if the bytes still match
/// that checksum. Anything else is read from git. Deleting the folder is always safe.
struct BlobCopies {
    static let folderName = "todosync-blob-copies"
    let folder: String

    init(gitDirectory: String) {
        folder = gitDirectory + Self.folderName
    }

    /// The blob's bytes, if an undamaged copy of it is kept.
    func bytes(of blob: OID) -> [UInt8]? {
        let prefix = blob.description + "."
        for name in FileSystem.contents(of: folder) where name.hasPrefix(prefix) {
            guard let bytes = try? FileSystem.read(folder + "/" + name) else { continue }
            if name == Self.name(of: blob, bytes) { return bytes }
            FileSystem.removeCache(folder + "/" + name)
        }
        return nil
    }

    /// Keeps copies of the blobs in `kept` only, writing those of `new` (whose bytes are at
    /// hand) that have none. Best effort: a copy not written only means the next commit reads git.
    func keep(_ kept: Set<OID>, writing new: [OID: [UInt8]]) {
        let names = FileSystem.contents(of: folder)
        if !new.isEmpty, names.isEmpty, !FileSystem.exists(folder) {
            guard (try? FileSystem.createDirectory(folder)) != nil else { return }
        }
        let keptPrefixes = Set(kept.map(\.description))
        var present = Set<String>()
        for name in names {
            let blob = String(name.prefix { $0 != "." })
            // NB: also what a run stopped mid-write left (`.todosync-` temporary files).
            if keptPrefixes.contains(blob) { present.insert(blob) } else { FileSystem.removeCache(folder + "/" + name) }
        }
        for (blob, bytes) in new where kept.contains(blob) && !present.contains(blob.description) {
            FileSystem.writeCache(folder + "/" + Self.name(of: blob, bytes), bytes)
        }
    }

    /// `<blob id>.<checksum>`: a copy damaged on disk no longer matches its name.
    static func name(of blob: OID, _ bytes: [UInt8]) -> String {
        let sum = String(checksum(bytes), radix: 16)
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
    func keepBlobCopies(over head: HeadSnapshot, _ changes: [String: TreeChange], _ finalBytes: [String: [UInt8]?]) {
        var kept = Set(head.blobs.filter { changes[$0.key] == nil }.values)
        var new: [OID: [UInt8]] = [:]
        for (path, change) in changes {
            guard case .write(let blob, _) = change, let bytes = finalBytes[path] ?? nil else { continue }
            kept.insert(blob)
            new[blob] = bytes
        }
        blobCopies.keep(kept, writing: new)
    }
}
