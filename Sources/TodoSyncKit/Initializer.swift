import GitStore
import TodoModel

/// What `todosync init` did.
public struct InitOutcome {
    public var root: String
    public var createdRepository: Bool
    public var createdExampleList: Bool
    public var remote: String?
    /// The adoption commit (nil if the lists were already committed with ids).
    public var commit: CommitOutcome
}

extension Workspace {
    /// The list `todosync init` writes when the folder has none.
    static let exampleList = """
        # TODO

        Edit this file in any editor, then run `todosync` to commit the changes.

        - [ ] Try todosync 🔼
          Notes are the lines indented under an item.
        - [ ] Buy milk
        - [x] Install todosync

        """

    /// Creates (or adopts) a repository of lists in `directory`: makes the repository if there
    /// is none, writes an example TODO.md if no list exists, sets up `remote` as `origin` with
    /// the branch tracking it, and commits ids for every item.
    public static func initialize(at directory: String, remote: String? = nil) throws(TodoSyncError) -> InitOutcome {
        try FileSystem.createDirectory(directory)
        var created = false
        let repository: Repository
        do {
            repository = try Repository.open(at: directory)
        } catch where error.isNotFound {
            repository = try git("creating the repository") {
                try Repository.create(at: directory, initialBranch: "main")
            }
            created = true
        } catch {
            throw .git(error, while: "opening \(directory)")
        }
        let workspace = try Workspace(repository: repository)
        return try workspace.writing { () throws(TodoSyncError) in
            try workspace.checkReadyToCommit()
            return try workspace.initialize(createdRepository: created, remote: remote)
        }
    }

    private func initialize(createdRepository created: Bool, remote: String?) throws(TodoSyncError) -> InitOutcome {
        let hasLists = try candidateFiles().contains { path in
            (try? FileSystem.read(root + "/" + path)).flatMap { $0 }.map {
                (try? ListDocument.parsing(path, $0))?.hasItems ?? true
            } ?? false
        }
        var wroteExample = false
        if !hasLists, !FileSystem.exists(root + "/TODO.md") {
            guard let branch = try branchReference() else { throw detachedHead() }
            let current = try git("reading \(branch)") { try repository.reference(branch) }
            let example = WritePlan.FileWrite(path: "TODO.md", expected: nil, final: Array(Self.exampleList.utf8))
            _ = try apply(WritePlan(branch: branch, expectedHead: current, files: [example], reflogMessage: "todosync init"))
            wroteExample = true
        }
        if let remote { try setUpRemote(remote) }
        let outcome = try commit(summary: created || wroteExample ? "Start todo lists" : "Adopt lists into todosync", kind: .adopt)
        return InitOutcome(
            root: root, createdRepository: created, createdExampleList: wroteExample, remote: remote, commit: outcome)
    }

    /// `origin` at `url`, and the current branch tracking `origin/<branch>`.
    func setUpRemote(_ url: String) throws(TodoSyncError) {
        let existing = try git("reading remote.origin.url") { try repository.configString("remote.origin.url") }
        if let existing, existing != url {
            throw TodoSyncError(
                "this repository already has a remote 'origin' at \(existing)",
                hint: "to use \(url) instead: git remote set-url origin \(url)")
        }
        let branch = try self.branch() ?? "main"
        try git("setting up the remote") {
            if existing == nil {
                try repository.setConfig("remote.origin.url", to: url)
                try repository.setConfig("remote.origin.fetch", to: "+refs/heads/*:refs/remotes/origin/*")
            }
            try repository.setConfig("branch.\(branch).remote", to: "origin")
            try repository.setConfig("branch.\(branch).merge", to: "refs/heads/\(branch)")
        }
    }
}
