import CLibGit2

/// Which way content crosses between the working tree and the object store.
public enum ContentDirection: Sendable {
    /// As `git add` stores a working file (CRLF to LF under `core.autocrlf` or `text`/`eol`).
    case toObjectStore
    /// As `git checkout` writes a blob into the working tree.
    case toWorkingTree

    var mode: git_filter_mode_t {
        switch self {
        case .toObjectStore: GIT_FILTER_TO_ODB
        case .toWorkingTree: GIT_FILTER_TO_WORKTREE
        }
    }
}

extension Repository {
    /// `bytes` converted as git converts the content of `path` (relative to the working tree's
    /// root) in `direction`: libgit2's built-in filters by the path's attributes and config
    /// (`core.autocrlf`, `core.eol`, `text`, `eol`, `ident`). The same bytes where none applies.
    /// A path under a `filter=` driver must be refused before: libgit2 runs no filter program.
    public func converting(_ bytes: [UInt8], at path: String, _ direction: ContentDirection) throws(GitError) -> [UInt8]
    {
        guard let filters = try filterList(at: path, direction) else { return bytes }
        defer { git_filter_list_free(filters) }
        var buffer = git_buf()
        defer { git_buf_dispose(&buffer) }
        guard !bytes.isEmpty else { return bytes }
        let result = bytes.withUnsafeBytes { raw in
            // NB: `bytes` is not empty (the guard above), so it has a base address.
            git_filter_list_apply_to_buffer(
                &buffer, filters, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
        }
        try GitError.check(result, "git_filter_list_apply_to_buffer")
        guard buffer.size > 0, let data = buffer.ptr else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: buffer.size))
    }

    /// Whether git converts the content of `path` at all, in `direction`.
    public func convertsContent(at path: String, _ direction: ContentDirection) throws(GitError) -> Bool {
        let filters = try filterList(at: path, direction)
        git_filter_list_free(filters)
        return filters != nil
    }

    /// The filters git applies to `path` in `direction`, for the caller to free; nil: none.
    private func filterList(at path: String, _ direction: ContentDirection) throws(GitError) -> OpaquePointer? {
        var filters: OpaquePointer?
        try GitError.check(
            git_filter_list_load(&filters, pointer, nil, path, direction.mode, GIT_FILTER_DEFAULT.rawValue),
            "git_filter_list_load")
        return filters
    }

    /// A blob's bytes as `git checkout` would write them at `path`.
    public func blob(_ id: OID, asWorkingFile path: String) throws(GitError) -> [UInt8] {
        try converting(blob(id), at: path, .toWorkingTree)
    }
}
