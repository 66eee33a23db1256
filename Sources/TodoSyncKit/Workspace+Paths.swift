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
            throw TodoSyncError("\(given) is inside .git, git's own folder, not a list; nothing was changed", hint: "name a list file, such as TODO.md")
        }
        if let link = FileSystem.symbolicLink(on: relative, under: root) {
            throw Self.symbolicLinkRefusal(link)
        }
        return relative
    }

    static func symbolicLinkRefusal(_ link: String) -> TodoSyncError {
        TodoSyncError(
            "\(link) is a symbolic link: todosync never reads or writes a list through a link (git keeps the link, not the file it points to); nothing was changed",
            hint: "name the file itself, or replace the link with a copy of the file: cp --remove-destination \"$(readlink -f '\(link)')\" '\(link)'")
    }
}
