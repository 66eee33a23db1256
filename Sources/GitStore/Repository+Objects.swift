import CLibGit2

extension Repository {
    /// The commit with this id, copied out of libgit2.
    public func commit(_ id: OID) throws(GitError) -> Commit {
        var raw = id.raw
        var commit: OpaquePointer?
        do {
            try GitError.checkReading("git_commit_lookup", of: "reading commit \(id.short)") {
                git_commit_lookup(&commit, pointer, &raw)
            }
        } catch  where error.isNotFound && isShallow {
            var beyond = error
            beyond.isBeyondShallowHistory = true
            throw beyond
        }
        defer { git_commit_free(commit) }
        var parents: [OID] = []
        for index in 0..<git_commit_parentcount(commit) {
            if let parent = git_commit_parent_id(commit, index) { parents.append(OID(parent.pointee)) }
        }
        return Commit(
            id: id, tree: OID(git_commit_tree_id(commit).pointee), parents: parents,
            message: string(git_commit_message(commit)) ?? "",
            author: Signature(git_commit_author(commit)), committer: Signature(git_commit_committer(commit)))
    }

    /// Every file of a tree, recursively, whose path passes `include`; symbolic links are not
    /// files. Subfolders are entered only if `enter` accepts their path.
    public func files(
        inTree tree: OID, enter: (String) -> Bool = { _ in true }, include: (String) -> Bool
    ) throws(GitError) -> [TreeFile] {
        var result: [TreeFile] = []
        try collectFiles(tree, prefix: "", enter: enter, include: include, into: &result)
        return result
    }

    /// The files of a tree among `paths`: a few (the notes one commit touches in a vault) are
    /// looked up by path, many found by one walk of the tree.
    public func files(inTree tree: OID, among paths: Set<String>) throws(GitError) -> [TreeFile] {
        guard paths.count <= 64 else { return try files(inTree: tree, include: paths.contains) }
        var found: [TreeFile] = []
        for path in paths.sorted() {
            if let file = try file(at: path, inTree: tree) { found.append(file) }
        }
        return found
    }

    private func collectFiles(
        _ treeID: OID, prefix: String, enter: (String) -> Bool, include: (String) -> Bool, into result: inout [TreeFile]
    ) throws(GitError) {
        var raw = treeID.raw
        var tree: OpaquePointer?
        try GitError.checkReading("git_tree_lookup", of: "reading tree \(treeID.short)") {
            git_tree_lookup(&tree, pointer, &raw)
        }
        defer { git_tree_free(tree) }
        for index in 0..<git_tree_entrycount(tree) {
            guard let entry = git_tree_entry_byindex(tree, index), let name = string(git_tree_entry_name(entry)) else {
                continue
            }
            let path = prefix + name
            let id = OID(git_tree_entry_id(entry).pointee)
            switch git_tree_entry_type(entry) {
            case GIT_OBJECT_TREE:
                if enter(path) {
                    try collectFiles(id, prefix: path + "/", enter: enter, include: include, into: &result)
                }
            case GIT_OBJECT_BLOB where git_tree_entry_filemode(entry) != GIT_FILEMODE_LINK:
                if include(path) {
                    result.append(TreeFile(path: path, blob: id, mode: git_tree_entry_filemode(entry).rawValue))
                }
            default:
                break
            }
        }
    }

    /// The blob entry at `path` in a tree, symbolic links included (mode 120000); nil if there
    /// is none. `isBlob` false: something else is there (a folder, a submodule's commit).
    public func blobEntry(at path: String, inTree tree: OID) throws(GitError) -> (entry: TreeFile?, isBlob: Bool) {
        var raw = tree.raw
        var treeObject: OpaquePointer?
        try GitError.checkReading("git_tree_lookup", of: "reading tree \(tree.short)") {
            git_tree_lookup(&treeObject, pointer, &raw)
        }
        defer { git_tree_free(treeObject) }
        var entry: OpaquePointer?
        let result = git_tree_entry_bypath(&entry, treeObject, path)
        if result == GIT_ENOTFOUND.rawValue { return (nil, true) }
        try GitError.check(result, "git_tree_entry_bypath")
        defer { git_tree_entry_free(entry) }
        guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return (nil, false) }
        return (
            TreeFile(
                path: path, blob: OID(git_tree_entry_id(entry).pointee), mode: git_tree_entry_filemode(entry).rawValue),
            true
        )
    }

    /// The file at `path` in a tree; nil if there is none (no entry, or not a file: a folder,
    /// a symbolic link).
    public func file(at path: String, inTree tree: OID) throws(GitError) -> TreeFile? {
        guard let entry = try blobEntry(at: path, inTree: tree).entry, entry.mode != GIT_FILEMODE_LINK.rawValue else {
            return nil
        }
        return entry
    }

    /// A blob's bytes (copied: libgit2's buffer dies with the blob).
    public func blob(_ id: OID) throws(GitError) -> [UInt8] {
        var raw = id.raw
        var blob: OpaquePointer?
        try GitError.checkReading("git_blob_lookup", of: "reading blob \(id.short)") {
            git_blob_lookup(&blob, pointer, &raw)
        }
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let content = git_blob_rawcontent(blob) else { return [] }
        return Array(UnsafeRawBufferPointer(start: content, count: size))
    }

    /// Stores bytes as a blob and returns its id.
    public func writeBlob(_ bytes: [UInt8]) throws(GitError) -> OID {
        // git_odb_write hashes first and, where the object is there already (a merged list
        // that is one side's version), only freshens it, as git does: no temporary file is
        // made and thrown away (the write stream always makes one).
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer), "git_repository_odb")
        defer { git_odb_free(odb) }
        var oid = git_oid()
        // NB: an empty file's bytes have no base address: a byte that is not written stands in.
        let result = (bytes.isEmpty ? [0] : bytes).withUnsafeBytes { raw in
            git_odb_write(&oid, odb, raw.baseAddress, bytes.count, GIT_OBJECT_BLOB)
        }
        try GitError.check(result, "git_odb_write")
        return OID(oid)
    }

    /// Stores bytes as a blob through libgit2's write stream, in pieces, asking `shouldStop`
    /// before each and `shouldFinish` once all are written, before the object is put in place:
    /// a write stopped there leaves nothing behind (libgit2 removes its temporary file). The
    /// blob's id, or nil if stopped.
    public func writeBlob(
        _ bytes: [UInt8], stoppingWhen shouldStop: () -> Bool, finishingWhen shouldFinish: () -> Bool = { true }
    ) throws(GitError) -> OID? {
        var odb: OpaquePointer?
        try GitError.check(git_repository_odb(&odb, pointer), "git_repository_odb")
        defer { git_odb_free(odb) }
        var stream: UnsafeMutablePointer<git_odb_stream>?
        try GitError.check(
            git_odb_open_wstream(&stream, odb, git_object_size_t(bytes.count), GIT_OBJECT_BLOB), "git_odb_open_wstream")
        defer { git_odb_stream_free(stream) }
        let piece = 64 << 10
        var offset = 0
        while offset < bytes.count {
            if shouldStop() { return nil }
            let end = min(offset + piece, bytes.count)
            // NB: `bytes` is not empty inside the loop, so its base address is not nil.
            let result = bytes.withUnsafeBytes { raw in
                git_odb_stream_write(
                    stream, raw.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self), end - offset)
            }
            try GitError.check(result, "git_odb_stream_write")
            offset = end
        }
        guard shouldFinish() else { return nil }
        var oid = git_oid()
        try GitError.check(git_odb_stream_finalize_write(&oid, stream), "git_odb_stream_finalize_write")
        return OID(oid)
    }

    /// The id bytes would have as a blob, without storing them.
    public static func blobID(of bytes: [UInt8]) throws(GitError) -> OID {
        Libgit2.ensureInitialized()
        var oid = git_oid()
        let result = bytes.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, GIT_OBJECT_BLOB) }
        try GitError.check(result, "git_odb_hash")
        return OID(oid)
    }
}
