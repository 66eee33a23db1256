import CLibGit2

/// Many new blobs stored as packs, not as one loose file each: held in libgit2's in-memory
/// object store, then written by its pack builder (a pack and its index), as git's fetch
/// stores more than transfer.unpackLimit objects. A vault adopted at once makes tens of
/// thousands of blobs; as loose objects each costs a file created in the git directory.
///
/// Works through a second handle on the repository, whose object store reads and writes the
/// in-memory store first: the caller's handle never holds objects that are not on disk, and
/// finds the pack when it next looks an object up (libgit2 rescans the packs on a miss).
/// Nothing is written until `finish`; dropped before it, the blobs are discarded.
final class PackedBlobs {
    /// Blobs held in memory before a pack is written: a vault's notes, a few packs at most.
    static let heldBytesPerPack = 64 << 20

    private let handle: Repository
    private let odb: OpaquePointer
    private let memory: OpaquePointer
    private var builder: OpaquePointer?
    private var held = 0

    init(beside repository: Repository) throws(GitError) {
        handle = try Repository.open(gitDirectory: repository.gitDirectory)
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, handle.pointer), "git_repository_odb")
        guard let odb else {
            throw GitError(code: -1, message: "libgit2 returned no object store", function: "git_repository_odb")
        }
        var memory: OpaquePointer?
        do throws(GitError) {
            try GitError.check(git_mempack_new(&memory), "git_mempack_new")
            guard let memory else {
                throw GitError(
                    code: -1, message: "libgit2 returned no in-memory object store", function: "git_mempack_new")
            }
            // NB: the highest priority: writes go to it, and reads find its objects first.
            // The object store owns it from here on.
            try GitError.check(git_odb_add_backend(odb, memory, 999), "git_odb_add_backend")
            self.memory = memory
        } catch {
            git_odb_free(odb)
            throw error
        }
        self.odb = odb
    }

    deinit {
        git_packbuilder_free(builder)
        git_odb_free(odb)
    }

    /// Holds `bytes` as a blob for the next pack (unless git has it already); its id.
    /// `name`: the file's path, which the pack builder uses to find similar blobs.
    func add(_ bytes: [UInt8], name: String) throws(GitError) -> OID {
        var oid = git_oid()
        try GitError.check(
            bytes.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }, "git_odb_hash")
        // NB: not rescanning the packs for each new blob (git has it, or it is packed again).
        if git_odb_exists_ext(odb, &oid, UInt32(GIT_ODB_LOOKUP_NO_REFRESH.rawValue)) == 1 { return OID(oid) }
        try GitError.check(
            bytes.withUnsafeBytes { git_odb_write(&oid, odb, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) },
            "git_odb_write")
        if builder == nil {
            try GitError.check(git_packbuilder_new(&builder, handle.pointer), "git_packbuilder_new")
            // As git's pack.threads: one delta search per core.
            git_packbuilder_set_threads(builder, 0)
        }
        try GitError.check(git_packbuilder_insert(builder, &oid, name), "git_packbuilder_insert")
        held += bytes.count
        if held >= Self.heldBytesPerPack { try writePack() }
        return OID(oid)
    }

    /// Writes what is held as a pack in the repository's object store.
    func finish() throws(GitError) {
        try writePack()
    }

    private func writePack() throws(GitError) {
        guard let builder else { return }
        try GitError.check(git_packbuilder_write(builder, nil, 0, nil, nil), "git_packbuilder_write")
        git_packbuilder_free(builder)
        self.builder = nil
        held = 0
        // NB: only now, with the pack written: the held objects are dropped.
        try GitError.check(git_mempack_reset(memory), "git_mempack_reset")
    }
}

extension Repository {
    /// Blobs written as packs from this many on, as git keeps a fetched pack of more than
    /// transfer.unpackLimit (100) objects rather than exploding it into loose objects.
    public static let packedBlobCount = 100

    /// Stores many blobs (each with the path it is for); their ids, in order.
    public func writeBlobs(_ blobs: [(bytes: [UInt8], path: String)]) throws(GitError) -> [OID] {
        guard blobs.count >= Self.packedBlobCount else {
            return try blobs.map { (blob) throws(GitError) in try writeBlob(blob.bytes) }
        }
        let packed = try PackedBlobs(beside: self)
        let ids = try blobs.map { (blob) throws(GitError) in try packed.add(blob.bytes, name: blob.path) }
        try packed.finish()
        return ids
    }
}
