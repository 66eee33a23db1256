#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// The path without symbolic links, `.` or `..` (realpath), or nil if it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// `path` with `.`, `..` and repeated slashes taken out by its text alone, as git takes a
    /// path it is given (`a/./b/../c` is `a/c`); nil when `..` climbs above the start.
    static func lexicallyNormalized(_ path: String) -> String? {
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                if components.popLast() == nil { return nil }
            default: components.append(component)
            }
        }
        return (path.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
    }

    /// The first symbolic link on `path` (relative to `root`, the file itself included), as a
    /// path relative to `root`; nil if there is none.
    static func symbolicLink(on path: String, under root: String) -> String? {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += prefix.isEmpty ? String(component) : "/" + component
            switch kind(of: root + "/" + prefix) {
            case .symlink?: return prefix
            case .directory?: continue
            default: return nil
            }
        }
        return nil
    }
}
