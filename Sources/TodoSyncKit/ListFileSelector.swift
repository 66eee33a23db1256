#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TodoModel

/// Which files of the repository are lists: Markdown files that hold task items, except
/// README.md, unless `todosync.include` / `todosync.exclude` in git config say otherwise.
///
/// Patterns are shell globs; one without a slash matches the file name in any folder, one with
/// a slash matches the path from the repository root (as in .gitignore).
public struct ListFileSelector: Sendable, Equatable {
    public var include: [String]
    public var exclude: [String]

    public static let defaultInclude = ["*.md", "*.markdown"]
    public static let defaultExclude = ["README.md", "readme.md", "README.markdown"]

    public init(include: [String] = defaultInclude, exclude: [String] = defaultExclude) {
        self.include = include.isEmpty ? Self.defaultInclude : include
        self.exclude = exclude
    }

    /// Whether the file at `path` (relative to the root) may be a list.
    public func matches(_ path: String) -> Bool {
        include.contains { Self.glob($0, path) } && !exclude.contains { Self.glob($0, path) }
    }

    /// Whether a file the selector matches is a list: it holds a task item, or it is a
    /// `TODO.md` (empty or prose only: committed anyway, so the items typed later have a history).
    public static func isList(_ document: ListDocument) -> Bool {
        document.hasItems || isNamedTODO(document.path)
    }

    /// `TODO.md` in any folder, in any case.
    static func isNamedTODO(_ path: String) -> Bool {
        (path.split(separator: "/").last ?? "").lowercased() == "todo.md"
    }

    private static func glob(_ pattern: String, _ path: String) -> Bool {
        let subject = pattern.contains("/") ? path : String(path.split(separator: "/").last ?? "")
        let trimmed = pattern.hasPrefix("/") ? String(pattern.dropFirst()) : pattern
        return fnmatch(trimmed, subject, pattern.contains("/") ? FNM_PATHNAME : 0) == 0
    }
}
