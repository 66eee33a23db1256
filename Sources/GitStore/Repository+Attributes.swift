import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        try attributes([name], for: path)[0]
    }

    /// Several attributes for `path`, in the order of `names`, read as `attribute` reads one.
    public func attributes(_ names: [String], for path: String) throws(GitError) -> [AttributeValue] {
        var values = [UnsafePointer<CChar>?](repeating: nil, count: names.count)
        var cNames = names.map { strdup($0) }
        defer { cNames.forEach { free($0) } }
        let result = cNames.withUnsafeMutableBufferPointer { namesBuffer in
            namesBuffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constNames in
                git_attr_get_many(
                    &values, pointer, UInt32(GIT_ATTR_CHECK_FILE_THEN_INDEX), path, names.count, constNames.baseAddress)
            }
        }
        try GitError.check(result, "git_attr_get_many")
        return values.map { value in
            switch git_attr_value(value) {
            case GIT_ATTR_VALUE_TRUE: .set
            case GIT_ATTR_VALUE_FALSE: .unset
            case GIT_ATTR_VALUE_STRING: .value(value.map { String(cString: $0) } ?? "")
            default: .unspecified
            }
        }
    }

    /// Makes the next `attribute` lookup read the attribute files again (one was just written
    /// within the same clock tick, which a cached file's stamp might not tell apart).
    public func forgetCachedAttributes() throws(GitError) {
        try GitError.check(git_attr_cache_flush(pointer), "git_attr_cache_flush")
    }
}
