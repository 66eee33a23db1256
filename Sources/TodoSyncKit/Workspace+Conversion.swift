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
        if pass?.converts[path] == false || nothingConverts(at: path) { return bytes }
        return try git("converting \(path) as git stores it") {
            try repository.converting(bytes, at: path, .toObjectStore)
        }
    }

    /// Whether git stores `path` other than as the working tree holds it.
    func convertsContent(at path: String) throws(TodoSyncError) -> Bool {
        if let known = pass?.converts[path] { return known }
        if nothingConverts(at: path) { return false }
        let converts = try git("reading the attributes of \(path)") {
            try repository.convertsContent(at: path, .toObjectStore)
        }
        pass?.converts[path] = converts
        return converts
    }

    /// Whether git converts no file's content in this reading pass: core.autocrlf is off and no
    /// file gitattributes come from (stamped at the pass's start) names an attribute that
    /// converts (`text`, `eol`, `crlf`, `filter`, `ident`, `working-tree-encoding`) or defines a
    /// macro. Then no filter list is loaded per file (libgit2 looks up every attribute file
    /// along each path: in a vault, most of the cost of hashing files). Text that merely
    /// contains those words only means the files are asked one by one.
    func nothingConverts(at path: String) -> Bool {
        if let covered = pass?.coveredAttributeFiles {
            // Sources taken from the note: a folder made since (its .gitattributes unstamped)
            // is asked of libgit2.
            var folder = path[...]
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard covered.contains(root + "/" + folder + "/.gitattributes") else { return false }
            }
        }
        if let known = pass?.nothingConverts { return known }
        guard let sources = pass?.attributeSources else { return false }
        let autocrlf = (try? repository.configString("core.autocrlf"))?.lowercased()
        var result = autocrlf.map { ["false", "no", "off", "0", ""].contains($0) } ?? true
        let words = ["text", "eol", "crlf", "filter", "ident", "encoding", "[attr]"].map { Array($0.utf8) }
        for source in sources where result && source.status != nil {
            guard let bytes = try? FileSystem.read(source.path) else {
                result = false
                break
            }
            let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            result = !words.contains { word in lowered.firstRange(of: word) != nil }
        }
        pass?.nothingConverts = result
        return result
    }
}
