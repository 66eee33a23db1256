#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import TodoModel

/// Which files of the repository are lists. todosync reads Markdown files (`*.md`,
/// `*.markdown`, and what `todosync.include` names) that `todosync.exclude` does not name (by
/// default README.md). Of those, so that it never writes ids into the Markdown of a code
/// project (a pull-request template, a changelog), a file is a list when
/// - it is a `TODO.md` (any folder, any case), even empty or prose only (committed anyway, so
///   the items typed later have a history);
/// - the `todosync` git attribute is set for it (`*.md todosync` in the `.gitattributes` of a
///   lists repository, which `todosync init` writes) or `todosync.include` names it, and it
///   holds a task item;
/// - it carries a todosync id: an item was moved there, another clone made it a list, or it
///   was adopted before the attribute was recorded;
/// and never when the attribute is unset for it (`-todosync`).
///
/// Patterns are shell globs; one without a slash matches the file name in any folder, one with
/// a slash matches the path from the repository root (as in .gitignore).
public struct ListFileSelector: Sendable, Equatable {
    public private(set) var include: [String]
    public private(set) var exclude: [String]
    /// The patterns, sorted out once: every candidate file of a vault is matched.
    private let compiledInclude: [Pattern], compiledExclude: [Pattern]

    public static func == (a: Self, b: Self) -> Bool { a.include == b.include && a.exclude == b.exclude }

    /// What gitattributes say of a file (the `todosync` attribute).
    public enum Marking: Sendable {
        /// `todosync`: a file of a lists repository.
        case marked
        /// `-todosync`: never a list.
        case unmarked
        /// Not named.
        case unspecified
    }

    public static let attribute = "todosync"
    public static let markdown = ["*.md", "*.markdown"]
    public static let defaultExclude = ["README.md", "readme.md", "README.markdown"]

    public init(include: [String] = [], exclude: [String] = defaultExclude) {
        self.include = include
        self.exclude = exclude
        compiledInclude = (Self.markdown + include).map(Pattern.init)
        compiledExclude = exclude.map(Pattern.init)
    }

    /// Whether the file at `path` (relative to the root) is read at all: Markdown, or named by
    /// `include`, and not excluded.
    public func matches(_ path: String) -> Bool {
        let name = Self.fileName(path)
        return compiledInclude.contains { $0.matches(path, name: name) }
            && !compiledExclude.contains { $0.matches(path, name: name) }
    }

    /// Whether `exclude` names the file.
    func excludes(_ path: String) -> Bool {
        let name = Self.fileName(path)
        return compiledExclude.contains { $0.matches(path, name: name) }
    }

    /// Whether a file `matches` accepts is a list, given what gitattributes say of it.
    public func isList(_ document: ListDocument, marking: Marking) -> Bool {
        isList(document.path, hasItems: document.hasItems, hasIDs: document.hasIDs, marking: marking)
    }

    /// The same, from what a file is known to hold (its parsed items kept in a cache).
    public func isList(_ path: String, hasItems: Bool, hasIDs: Bool, marking: Marking) -> Bool {
        switch marking {
        case .unmarked: false
        case .marked: Self.isNamedTODO(path) || hasItems
        case .unspecified:
            Self.isNamedTODO(path) || hasIDs
                || (hasItems
                    && compiledInclude[Self.markdown.count...].contains { $0.matches(path, name: Self.fileName(path)) })
        }
    }

    /// The `.gitattributes` line that makes the file at `path` a list (or never one): the path
    /// anchored at the root, glob characters escaped, spaces matched by a class (a space would
    /// end the pattern).
    public static func attributeLine(for path: String, isList: Bool) -> String {
        var pattern = "/"
        for character in path {
            switch character {
            case " ": pattern += "[[:space:]]"
            case "*", "?", "[", "\\": pattern += "\\" + String(character)
            default: pattern.append(character)
            }
        }
        return pattern + " " + (isList ? "" : "-") + attribute
    }

    /// `TODO.md` in any folder, in any case.
    static func isNamedTODO(_ path: String) -> Bool {
        let name = fileName(path)
        return name.count == 7 && String(name).lowercased() == "todo.md"
    }

    /// The last component of a path, without splitting the whole path (asked of every file).
    private static func fileName(_ path: String) -> Substring {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path[...] }
        return path[path.utf8.index(after: slash)...]
    }

    /// A shell glob as `matches` uses it; the common patterns by their bytes alone: `*.md` by
    /// its suffix, `README.md` by the file name.
    private struct Pattern: Sendable {
        enum Kind: Sendable {
            case suffix([UInt8])
            case name([UInt8])
            case glob(String, slashed: Bool)
        }
        let kind: Kind

        init(_ pattern: String) {
            let special = { (byte: UInt8) in
                byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[")
                    || byte == UInt8(ascii: "\\")
                    || byte == UInt8(ascii: "/")
            }
            let bytes = Array(pattern.utf8)
            if bytes.first == UInt8(ascii: "*"), !bytes.dropFirst().contains(where: special) {
                kind = .suffix(Array(bytes.dropFirst()))
            } else if !bytes.contains(where: special) {
                kind = .name(bytes)
            } else {
                kind = .glob(
                    pattern.hasPrefix("/") ? String(pattern.dropFirst()) : pattern, slashed: pattern.contains("/"))
            }
        }

        func matches(_ path: String, name: Substring) -> Bool {
            switch kind {
            case .suffix(let suffix):
                let utf8 = path.utf8
                return utf8.count >= suffix.count && utf8.suffix(suffix.count).elementsEqual(suffix)
            case .name(let bytes):
                return name.utf8.elementsEqual(bytes)
            case .glob(let pattern, let slashed):
                return fnmatch(pattern, slashed ? path : String(name), slashed ? FNM_PATHNAME : 0) == 0
            }
        }
    }
}

extension Workspace {
    /// Whether a file `selector.matches` accepts is a list (see `ListFileSelector`). A list
    /// under a git filter (`filter=` in .gitattributes, such as git-crypt's) is refused:
    /// todosync cannot run the filter, and committing the file as it reads here could put
    /// what the filter keeps secret into the history.
    func isList(_ document: ListDocument) throws(TodoSyncError) -> Bool {
        try isList(document.path, hasItems: document.hasItems, hasIDs: document.hasIDs)
    }

    func isList(_ path: String, hasItems: Bool, hasIDs: Bool) throws(TodoSyncError) -> Bool {
        let (marking, filter) = try listAttributes(of: path)
        guard selector.isList(path, hasItems: hasItems, hasIDs: hasIDs, marking: marking) else { return false }
        if let filter { throw Self.filteredListRefusal(path, driver: filter) }
        return true
    }

    /// What this reading pass knows gitattributes say of `path`: looked up in it, or noted.
    func passAttributes(_ path: String) -> (ListFileSelector.Marking, filter: String?)? {
        if let found = pass?.attributes[path] { return found }
        if Self.attributesSayNothing(pass?.attributeSources) { return (.unspecified, nil) }
        guard let files = pass?.notedMarkings, let position = NotedFile.position(of: path, in: files) else {
            return nil
        }
        return files[position].marking.map { ($0, nil) }
    }

    /// What gitattributes say of the file at `path`: its marking, and the filter driver
    /// (`filter=…`) it is under, if any.
    private func listAttributes(of path: String) throws(TodoSyncError) -> (ListFileSelector.Marking, filter: String?) {
        if let known = passAttributes(path) { return known }
        let values = try git("reading the attributes of \(path)") {
            try repository.attributes([ListFileSelector.attribute, "filter"], for: path)
        }
        var result: (ListFileSelector.Marking, filter: String?) = (Self.marking(from: values[0]), nil)
        if case .value(let driver) = values[1] { result.filter = driver }
        pass?.attributes[path] = result
        return result
    }

    static func filteredListRefusal(_ path: String, driver: String) -> TodoSyncError {
        TodoSyncError(
            "\(path) is a list under git's filter '\(driver)' (.gitattributes: filter=\(driver)), which todosync cannot run: it would commit the file as it reads here, unfiltered; nothing was read into a commit",
            hint:
                "keep lists out of filtered paths, or leave this file to git: add the line '\(ListFileSelector.attributeLine(for: path, isList: false))' to .gitattributes"
        )
    }

    /// Refuses a file that items cannot be added or moved into because it would not be read
    /// as a list afterwards (the items would drop out of tracking).
    func checkCanHoldList(_ path: String) throws(TodoSyncError) {
        let reason: String
        if !selector.matches(path) {
            reason =
                selector.excludes(path)
                ? "todosync.exclude names it (README.md by default)"
                : "todosync keeps lists only in Markdown files (*.md, *.markdown) and what todosync.include names"
        } else {
            let (marking, filter) = try listAttributes(of: path)
            if let filter { throw Self.filteredListRefusal(path, driver: filter) }
            guard marking == .unmarked else { return }
            reason = ".gitattributes marks it -todosync"
        }
        throw TodoSyncError(
            "\(path) cannot hold a list: \(reason); nothing was changed", hint: "name a list file, such as TODO.md")
    }

    /// What gitattributes say of the file at `path`.
    func marking(of path: String) throws(TodoSyncError) -> ListFileSelector.Marking {
        Self.marking(
            from: try git("reading the todosync attribute of \(path)") {
                try repository.attribute(ListFileSelector.attribute, for: path)
            })
    }

    private static func marking(from value: AttributeValue) -> ListFileSelector.Marking {
        switch value {
        case .set: .marked
        case .unset: .unmarked
        case .unspecified, .value: .unspecified
        }
    }
}
