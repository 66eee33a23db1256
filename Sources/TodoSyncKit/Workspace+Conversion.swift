import GitStore

/// The engine holds every list in the working tree's form. Where a list crosses into or out of
/// git's object store it is converted as git converts it (`core.autocrlf`, `text`/`eol`), so a
/// CRLF working file is stored with LF where git would, and read back with CRLF.
extension Workspace {
    /// A committed list file's bytes as `git checkout` would write them at `path`.
    func committedBytes(_ blob: OID, at path: String) throws(TodoSyncError) -> [UInt8] {
        try git("reading \(path) (blob \(blob.short))") { try repository.blob(blob, asWorkingFile: path) }
    }

    /// The bytes `git add` would store for a working list file at `path`.
    func storedBytes(_ bytes: [UInt8], at path: String) throws(TodoSyncError) -> [UInt8] {
        // Known (within a reading pass) to be stored as it is: no filter list to load.
        if pass?.converts[path] == false { return bytes }
        return try git("converting \(path) as git stores it") { try repository.converting(bytes, at: path, .toObjectStore) }
    }

    /// Whether git stores `path` other than as the working tree holds it.
    func convertsContent(at path: String) throws(TodoSyncError) -> Bool {
        if let known = pass?.converts[path] { return known }
        let converts = try git("reading the attributes of \(path)") { try repository.convertsContent(at: path, .toObjectStore) }
        pass?.converts[path] = converts
        return converts
    }
}
