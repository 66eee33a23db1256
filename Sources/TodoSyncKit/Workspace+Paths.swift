#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths the user names (`--file`), made into paths of the working tree.
extension Workspace {
    /// The path, relative to the working tree's root, of a file the user named relative to
    /// the folder todosync was started in (as git takes paths). Refused, changing nothing: a
    /// path outside the working tree, inside `.git`, or through a symbolic link (git would
    /// keep the link, and the list would be read and written elsewhere).
    func listPath(_ given: String) throws(TodoSyncError) -> String {
        let start = FileSystem.resolved(startDirectory) ?? startDirectory
        let joined = given.hasPrefix("/") ? given : start + "/" + given
        var relative: String?
        if let normalized = FileSystem.lexicallyNormalized(joined) {
            for top in Set([root, FileSystem.resolved(root) ?? root]) where normalized.hasPrefix(top + "/") {
                relative = String(normalized.dropFirst(top.count + 1))
            }
        }
        guard let relative, !relative.isEmpty else {
            throw TodoSyncError(
                "\(given) is outside the repository (\(root)); todosync keeps lists only in its working tree; nothing was changed",
                hint: "name a file inside it, relative to the current folder, such as TODO.md")
        }
        if relative.split(separator: "/").contains(where: { $0.lowercased() == ".git" }) {
            throw TodoSyncError(
                "\(given) is inside .git, git's own folder, not a list; nothing was changed",
                hint: "name a list file, such as TODO.md")
        }
        if let link = FileSystem.symbolicLink(on: relative, under: root) {
            throw Self.symbolicLinkRefusal(link)
        }
        return relative
    }

    static func symbolicLinkRefusal(_ link: String) -> TodoSyncError {
        TodoSyncError(
            "\(link) is a symbolic link: todosync never reads or writes a list through a link (git keeps the link, not the file it points to); nothing was changed",
            hint:
                "name the file itself, or replace the link with a copy of the file: cp --remove-destination \"$(readlink -f '\(link)')\" '\(link)'"
        )
    }
}

/// Where git reads ignore patterns and gitattributes outside the working tree.
extension Workspace {
    /// The user's home and git's folder in it (`$XDG_CONFIG_HOME/git`, else `~/.config/git`).
    static func userFolders() -> (home: String, git: String) {
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        let xdg =
            getenv("XDG_CONFIG_HOME").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        return (home, xdg + "/git")
    }

    /// The file a git config key names (`~/` expanded), if it is set.
    func configuredFile(_ key: String) -> String? {
        guard let file = try? repository.configString(key) else { return nil }
        return file.hasPrefix("~/") ? Self.userFolders().home + file.dropFirst() : file
    }

    /// The files git reads ignore patterns from outside the working tree.
    func outsideIgnoreFiles() -> [String] {
        // NB: info/ is shared by linked worktrees: in the common git directory.
        [repository.commonDirectory + "info/exclude", Self.userFolders().git + "/ignore"]
            + [configuredFile("core.excludesFile")].compactMap { $0 }
    }

    /// The files gitattributes are read from outside the working tree.
    func outsideAttributeFiles() -> [String] {
        [repository.commonDirectory + "info/attributes", Self.userFolders().git + "/attributes", "/etc/gitattributes"]
            + [configuredFile("core.attributesFile")].compactMap { $0 }
    }
}
