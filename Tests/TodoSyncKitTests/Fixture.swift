import Foundation
import TestSupport

/// A repository in a scratch folder, driven through the built `todosync` binary and checked
/// with the git CLI.
final class Fixture {
    /// A list of `items` open items, "Task number 0 to do" on: large lists for the paths
    /// that read, store and compare big files on other threads.
    static func numberedList(_ items: Int) -> String {
        (0..<items).map { "- [ ] Task number \($0) to do\n" }.joined()
    }

    /// A repository whose TODO.md, committed with ids, is `numberedList(items)`.
    static func committedNumberedList(_ items: Int) throws -> Fixture {
        let fixture = try Fixture()
        try fixture.write("TODO.md", numberedList(items))
        try fixture.todosync()
        return fixture
    }

    let scratch: Scratch
    private var folder: String?
    var path: String { folder.map { scratch.path + "/" + $0 } ?? scratch.path }
    /// What must outlive this clone (the remote it was cloned from).
    var keptAlive: AnyObject?

    /// A fresh `git init` repository (branch main), optionally with files committed by plain git.
    /// `listsRepository`: every Markdown file with task items is a list, as in a repository
    /// `todosync init` set up (marked locally, in git's info/attributes, so the tree and the
    /// history stay the test's own); otherwise only TODO.md files are (a code project).
    init(gitFiles: [String: String] = [:], listsRepository: Bool = true) throws {
        scratch = Scratch()
        _ = try TestSupport.git("init", "-q", "-b", "main", in: path)
        if listsRepository { try markMarkdownAsLists() }
        guard !gitFiles.isEmpty else { return }
        for (name, text) in gitFiles { try scratch.write(name, text) }
        _ = try TestSupport.git("add", "-A", in: path)
        _ = try TestSupport.git("commit", "-q", "-m", "plain git", in: path)
    }

    /// A repository already made in `scratch` (or in its folder `folder`).
    init(existing scratch: Scratch, at folder: String? = nil) {
        self.scratch = scratch
        self.folder = folder
    }

    /// A clone of `url` made with the git CLI, of a lists repository (see `init(gitFiles:)`).
    init(cloning url: String) throws {
        scratch = Scratch()
        _ = try TestSupport.git("clone", "-q", url, ".", in: path)
        try markMarkdownAsLists()
    }

    /// Marks every Markdown file as a list in git's info/attributes.
    func markMarkdownAsLists() throws {
        try FileManager.default.createDirectory(atPath: path + "/.git/info", withIntermediateDirectories: true)
        try Data("*.md todosync\n*.markdown todosync\n".utf8).write(
            to: URL(fileURLWithPath: path + "/.git/info/attributes"))
    }

    @discardableResult
    func todosync(_ arguments: String..., expectStatus: Int32 = 0) throws -> ProcessResult {
        let result = try run(todosyncBinary, arguments, in: path)
        guard result.status == expectStatus else {
            throw TestFailure(
                "todosync \(arguments.joined(separator: " ")) exited \(result.status), not \(expectStatus)\nstdout: \(result.stdout)\nstderr: \(result.stderr)"
            )
        }
        return result
    }

    func git(_ arguments: String...) throws -> String {
        let result = try run("/usr/bin/git", arguments, in: path)
        guard result.status == 0 else { throw TestFailure("git \(arguments) failed: \(result.stderr)") }
        return result.stdout
    }

    func write(_ name: String, _ text: String) throws { try scratch.write(inScratch(name), text) }

    /// A path of this repository as a path of its scratch folder.
    private func inScratch(_ name: String) -> String { folder.map { $0 + "/" + name } ?? name }

    /// How an editor writes its buffer to the file.
    enum Editor: CaseIterable {
        /// A new file renamed over the old one (vim, most editors): a new inode.
        case vim
        /// The file truncated and written again (nano): the same inode.
        case nano
    }

    /// Saves `text` into an existing file the way `editor` does.
    func save(_ name: String, _ text: String, like editor: Editor) throws {
        let target = path + "/" + name
        switch editor {
        case .vim:
            try scratch.write(inScratch(name) + "~new", text)
            guard rename(target + "~new", target) == 0 else { throw TestFailure("rename over \(name) failed") }
        case .nano:
            guard let handle = FileHandle(forWritingAtPath: target) else { throw TestFailure("cannot open \(name)") }
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        }
    }
    func read(_ name: String) throws -> String { try scratch.read(inScratch(name)) }

    var commitCount: Int {
        (try? git("rev-list", "--count", "HEAD")).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            ?? 0
    }
    var lastSubject: String { (try? git("log", "-1", "--format=%s"))?.trimmingCharacters(in: .newlines) ?? "" }
    var lastBody: String { (try? git("log", "-1", "--format=%b")) ?? "" }

    /// `git status --porcelain` is empty (but for the lines `except` names), `git fsck --strict`
    /// finds nothing, and no temporary file is left among the objects.
    func expectCleanAndSound(except expected: [String] = []) throws {
        let status = try git("status", "--porcelain")
        guard status.split(separator: "\n").map(String.init) == expected else {
            throw TestFailure("git status is not clean:\n\(status)")
        }
        _ = try git("fsck", "--strict")
        let objects = path + "/.git/objects"
        let temporary = (FileManager.default.enumerator(atPath: objects)?.compactMap { $0 as? String } ?? []).filter {
            $0.contains("tmp_")
        }
        guard temporary.isEmpty else { throw TestFailure("temporary files left in .git/objects: \(temporary)") }
    }

    /// Every object is reachable from a commit: a blob written ahead of a commit and then not
    /// used (ids were written into the file) must not be left behind. (A sync that stops may
    /// leave objects, as git's own merges do; this is for commits.)
    func expectNoStrayObjects() throws {
        let fsck = try git("fsck", "--strict", "--no-reflogs")
        guard !fsck.contains("dangling") && !fsck.contains("unreachable") else {
            throw TestFailure("objects nothing refers to:\n\(fsck)")
        }
    }

    /// The ids written in a file, in order.
    func ids(in name: String) throws -> [String] {
        let text = try read(name)
        var result: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "<!-- id: ") {
            let id = rest[start.upperBound...].prefix(36)
            result.append(String(id))
            rest = rest[start.upperBound...]
        }
        return result
    }
}
