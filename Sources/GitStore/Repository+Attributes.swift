import CLibGit2

/// What a gitattributes attribute is for a path, as `git check-attr` reports it.
public enum AttributeValue: Equatable, Sendable {
    /// No line names the attribute for the path.
    case unspecified
    /// `name` (set).
    case set
    /// `-name` (unset).
    case unset
    /// `name=value`.
    case value(String)
}

extension Repository {
    /// The attribute `name` for `path` (relative to the working tree's root), read as git reads
    /// it: the working tree's `.gitattributes` files (then the index's), `.git/info/attributes`,
    /// `core.attributesFile` and the system file, with macros.
    public func attribute(_ name: String, for path: String) throws(GitError) -> AttributeValue {
        var value: UnsafePointer<CChar>?
        try GitError.check(git_attr_get(&value, pointer, UInt32(GIT_ATTR_CHECK_FILE_THEN_INDEX), path, name), "git_attr_get")
        switch git_attr_value(value) {
        case GIT_ATTR_VALUE_TRUE: return .set
        case GIT_ATTR_VALUE_FALSE: return .unset
        case GIT_ATTR_VALUE_STRING: return .value(value.map { String(cString: $0) } ?? "")
        default: return .unspecified
        }
    }

    /// Makes the next `attribute` lookup read the attribute files again (one was just written
    /// within the same clock tick, which a cached file's stamp might not tell apart).
    public func forgetCachedAttributes() throws(GitError) {
        try GitError.check(git_attr_cache_flush(pointer), "git_attr_cache_flush")
    }
}
