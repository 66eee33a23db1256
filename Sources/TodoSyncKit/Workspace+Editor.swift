import GitStore
import TodoModel

/// What `todosync open` runs: the user's editor on the lists, one file, or the file holding an item at its line.
public struct EditorSession: Sendable {
    public var editor: GitEditor
    /// The editor's arguments: files (relative to the root), with a line where one is asked for.
    public var arguments: [String]
}

extension Workspace {
    /// The session that opens `target`: nil opens every list (TODO.md when there is none yet);
    /// an existing file opens that file; anything else names an item, opened at its line.
    public func editorSession(for target: String?) throws(TodoSyncError) -> EditorSession {
        let found = try git("reading core.editor") { try repository.editor() }
        guard let editor = found else {
            throw TodoSyncError(
                "no editor to run: the terminal is dumb and none of GIT_EDITOR, core.editor or EDITOR is set",
                hint: "name one, as for git: git config --global core.editor nano (or export EDITOR=vim)")
        }
        guard let target else {
            let lists = try listFiles()
            return EditorSession(editor: editor, arguments: lists.isEmpty ? ["TODO.md"] : lists)
        }
        let given = target.hasPrefix("/") ? target : startDirectory + "/" + target
        if FileSystem.kind(of: given) == .file || target.hasSuffix(".md") || target.hasSuffix(".markdown") {
            return EditorSession(editor: editor, arguments: [try listPath(target)])
        }
        let lists = ListSet(try listDocuments())
        let item: TodoItem
        do {
            item = try ItemQuery(target).resolve(in: lists)
        } catch {
            throw Self.explain(.query(error), prefix: "", batch: false)
        }
        return EditorSession(editor: editor, arguments: Self.arguments(opening: item.file, at: item.line, in: editor))
    }

    /// The list files of the working tree, sorted.
    func listFiles() throws(TodoSyncError) -> [String] {
        try listDocuments().map(\.path).sorted()
    }

    /// The lists as the working files hold them now.
    func listDocuments() throws(TodoSyncError) -> [ListDocument] {
        // One reading pass: what gitattributes say of each file comes from the checked-head
        // note where the files they are read from are as it stamped them (not a lookup a file).
        try readingPass { () throws(TodoSyncError) in
            let scan = try scanForPass()
            var documents: [ListDocument] = []
            for file in try readWorkingFiles(scan.files) where try isList(file.document) {
                documents.append(file.document)
            }
            return documents
        }
    }

    /// Runs the session's editor in the working tree's root and waits for it; its exit status.
    public func run(_ session: EditorSession) throws(TodoSyncError) -> Int32 {
        try git("running the editor") { try session.editor.run(session.arguments, in: root) }
    }

    /// How an editor is told the line to open a file at (each family has its own way); a file
    /// alone for editors not known.
    static func arguments(opening file: String, at line: Int, in editor: GitEditor) -> [String] {
        switch editor.programName {
        case "vi", "vim", "nvim", "gvim", "view", "nano", "pico", "emacs", "emacsclient", "micro", "kak", "joe", "ne",
            "mg", "jed":
            return ["+\(line)", file]
        case "code", "codium", "code-insiders", "cursor":
            return ["--goto", "\(file):\(line)"]
        case "subl", "hx", "helix", "zed", "mate":
            return ["\(file):\(line)"]
        default:
            return [file]
        }
    }
}
