import GitStore
@testable import TodoModel
@testable import TodoSyncKit

/// A strict in-memory `WriteStore`, in the spirit of jj's test backend: the engine's write path
/// runs against it without disk. Every object must exist before anything refers to it, every
/// expectation is checked as the disk store checks it, and each operation is logged in order.
/// `before` runs ahead of each operation (a test saves a file or moves a branch there, as
/// another process would); `failing` makes one operation fail (a full disk).
final class MemoryStore: WriteStore {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var blobs: [OID: [UInt8]] = [:]
    /// Each tree as the files it holds, by path.
    private(set) var trees: [OID: [String: TreeFile]] = [:]
    private(set) var commits: [OID: Commit] = [:]
    var refs: [String: OID] = [:]
    /// The working tree's files, by path.
    var files: [String: [UInt8]] = [:]
    /// git's index, by path.
    private(set) var index: [String: StagedFile] = [:]
    /// Lock files git holds ("index.lock", "refs/heads/main.lock").
    var gitLocks: Set<String> = []
    var skippingWorktree: Set<String> = []
    private(set) var journal: WriteJournal?
    /// Every operation, in order: "replace TODO.md", "move refs/heads/main", ...
    private(set) var log: [String] = []
    var before: ((String) -> Void)?
    var failing: String?

    private func record(_ operation: String) throws(TodoSyncError) {
        before?(operation)
        log.append(operation)
        if operation == failing { throw TodoSyncError("\(operation): no space left on device (MemoryStore)") }
    }

    private func strict(_ condition: Bool, _ message: @autoclosure () -> String) throws(TodoSyncError) {
        guard condition else { throw TodoSyncError("MemoryStore: " + message()) }
    }

    /// An id for an object: its kind and content, hashed.
    private static func id(_ kind: String, _ content: [UInt8]) -> OID {
        let digest = SHA1.digest(Array(kind.utf8) + [0] + content)
        return OID(
            hex: digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined())!
    }

    // MARK: - Setting up

    /// Stores a blob outside the write path, as `BlobWrite` stores an edited file ahead of its commit.
    func storeAhead(_ bytes: [UInt8]) -> OID {
        let blob = Self.id("blob", bytes)
        blobs[blob] = bytes
        return blob
    }

    /// Stores a commit holding `lists` on `parent`; the branch and working tree are left alone.
    func makeCommit(_ lists: [String: String], parent: OID? = nil, message: String = "seed") -> Commit {
        var tree: [String: TreeFile] = [:]
        for (path, text) in lists {
            let bytes = Array(text.utf8)
            let blob = Self.id("blob", bytes)
            blobs[blob] = bytes
            tree[path] = TreeFile(path: path, blob: blob, mode: TreeChange.regularFileMode)
        }
        let treeID = Self.id(
            "tree",
            Array(tree.values.sorted { $0.path < $1.path }.map { "\($0.path) \($0.blob)" }.joined(separator: "\n").utf8)
        )
        trees[treeID] = tree
        let signature = Signature(name: "Test", email: "test@example.com", time: 0, offsetMinutes: 0)
        let commitID = Self.id("commit", Array("\(treeID) \(parent?.description ?? "") \(message)".utf8))
        let commit = Commit(
            id: commitID, tree: treeID, parents: parent.map { [$0] } ?? [], message: message, author: signature,
            committer: signature)
        commits[commitID] = commit
        return commit
    }

    /// Checks out `commit` on `branch`: refs, working files and index as git leaves them.
    func checkOut(_ commit: Commit, branch: String = "refs/heads/main") {
        refs[branch] = commit.id
        files = (trees[commit.tree] ?? [:]).mapValues { blobs[$0.blob] ?? [] }
        index = (trees[commit.tree] ?? [:]).mapValues {
            StagedFile(path: $0.path, blob: $0.blob, mode: $0.mode, stat: nil)
        }
    }

    /// The files of a commit, as text.
    func texts(of commit: OID) -> [String: String]? {
        guard let tree = commits[commit].flatMap({ trees[$0.tree] }) else { return nil }
        return tree.mapValues { String(decoding: blobs[$0.blob] ?? [], as: UTF8.self) }
    }

    /// What `git fsck` checks, in memory: every ref, commit, tree and index entry refers to
    /// objects that exist.
    var isSound: Bool {
        refs.values.allSatisfy { commits[$0] != nil }
            && commits.values.allSatisfy { commit in
                trees[commit.tree] != nil && commit.parents.allSatisfy { commits[$0] != nil }
            }
            && trees.values.allSatisfy { $0.values.allSatisfy { blobs[$0.blob] != nil } }
            && index.values.allSatisfy { blobs[$0.blob] != nil }
    }

    // MARK: - WriteStore

    func checkGitLocks(branch: String) throws(TodoSyncError) {
        try record("check locks")
        for lock in ["index.lock", branch + ".lock", "HEAD.lock"] where gitLocks.contains(lock) {
            throw TodoSyncError("git's lock file \(lock) exists")
        }
    }

    func reference(_ name: String) throws(TodoSyncError) -> OID? {
        try record("read \(name)")
        return refs[name]
    }

    func expect(_ path: String, holds expected: [UInt8]?) throws(TodoSyncError) {
        try record("expect \(path)")
        guard files[path] == expected else { throw Self.changedMeanwhile(path) }
    }

    func pathsSkippingWorktree(_ paths: [String]) throws(TodoSyncError) -> Set<String> {
        Set(paths).intersection(skippingWorktree)
    }

    func writeBlobs(_ files: [(path: String, bytes: [UInt8])]) throws(TodoSyncError) -> [OID] {
        try files.map { (file) throws(TodoSyncError) in
            try record("blob \(file.path)")
            let id = Self.id("blob", file.bytes)
            blobs[id] = file.bytes
            return id
        }
    }

    func writeTree(base: OID?, applying changes: [String: TreeChange]) throws(TodoSyncError) -> OID {
        try record("tree")
        var tree: [String: TreeFile] = [:]
        if let base {
            try strict(trees[base] != nil, "tree \(base) does not exist")
            tree = trees[base] ?? [:]
        }
        for (path, change) in changes {
            switch change {
            case .write(let blob, let mode):
                try strict(blobs[blob] != nil, "blob \(blob) for \(path) does not exist")
                tree[path] = TreeFile(path: path, blob: blob, mode: mode)
            case .delete:
                tree[path] = nil
            }
        }
        let id = Self.id(
            "tree",
            Array(
                tree.values.sorted { $0.path < $1.path }.map { "\($0.path) \($0.blob) \($0.mode)" }.joined(
                    separator: "\n"
                ).utf8))
        trees[id] = tree
        return id
    }

    func createCommit(tree: OID, parents: [OID], message: String) throws(TodoSyncError) -> Commit {
        try record("commit")
        try strict(trees[tree] != nil, "tree \(tree) does not exist")
        for parent in parents { try strict(commits[parent] != nil, "parent \(parent) does not exist") }
        let signature = Signature(name: "Test", email: "test@example.com", time: 0, offsetMinutes: 0)
        let id = Self.id("commit", Array("\(tree) \(parents.map(\.description)) \(message)".utf8))
        let commit = Commit(
            id: id, tree: tree, parents: parents, message: message, author: signature, committer: signature)
        commits[id] = commit
        return commit
    }

    func afterCommit(_ commit: Commit) {}

    func files(inTree tree: OID, among paths: Set<String>) throws(TodoSyncError) -> [TreeFile] {
        try strict(trees[tree] != nil, "tree \(tree) does not exist")
        return (trees[tree] ?? [:]).values.filter { paths.contains($0.path) }.sorted { $0.path < $1.path }
    }

    func commit(_ id: OID) throws(TodoSyncError) -> Commit {
        guard let commit = commits[id] else { throw TodoSyncError("MemoryStore: commit \(id) does not exist") }
        return commit
    }

    func readFile(_ path: String) throws(TodoSyncError) -> (bytes: [UInt8], stat: FileStat?)? {
        files[path].map { ($0, nil) }
    }

    func blobID(of bytes: [UInt8], path: String) throws(TodoSyncError) -> OID {
        Self.id("blob", bytes)
    }

    func readJournal() -> WriteJournal? {
        journal
    }

    func writeJournal(_ journal: WriteJournal) throws(TodoSyncError) {
        try record("journal")
        try strict(journal.encoded() != nil, "the journal cannot be encoded")
        for case let blob? in journal.files.values {
            try strict(blobs[blob] != nil, "journal names blob \(blob), which does not exist")
        }
        try strict(commits[journal.target] != nil, "journal names commit \(journal.target), which does not exist")
        self.journal = journal
    }

    func removeJournal() {
        log.append("remove journal")
        // A "failing" removal is a process stopped just before it (removing cannot fail).
        if failing != "remove journal" { journal = nil }
    }

    func checkout(tree: OID, paths: [String], baseline: OID?) throws(TodoSyncError) {
        try record("checkout")
        try strict(trees[tree] != nil, "tree \(tree) does not exist")
        let old = baseline.flatMap { trees[$0] } ?? [:]
        for path in paths {
            guard files[path] == old[path].flatMap({ blobs[$0.blob] }) else {
                throw TodoSyncError("\(path) has edits the checkout would overwrite")
            }
        }
        for path in paths {
            let entry = trees[tree]?[path]
            files[path] = entry.flatMap { blobs[$0.blob] }
            index[path] = entry.map { StagedFile(path: path, blob: $0.blob, mode: $0.mode, stat: nil) }
        }
    }

    func prepareReplacements(_ files: [(path: String, bytes: [UInt8])]) throws(TodoSyncError) {
        // Nothing visible: the bytes wait outside the working tree until each replace.
        for file in files { try strict(file.path.first != "/", "a prepared path must be relative: \(file.path)") }
    }

    func replace(_ path: String, with bytes: [UInt8]?, ifStill expected: [UInt8]?) throws(TodoSyncError) -> FileStat? {
        try record("replace \(path)")
        guard files[path] == expected else { throw Self.changedMeanwhile(path) }
        files[path] = bytes
        return nil
    }

    func moveReference(_ name: String, to target: OID, expecting expected: OID?, message: String) throws(TodoSyncError)
    {
        try record("move \(name)")
        try strict(commits[target] != nil, "commit \(target) does not exist")
        guard refs[name] == expected else { throw TodoSyncError("\(name) moved meanwhile") }
        refs[name] = target
    }

    func updateIndex(staged: [StagedFile], removing removed: [String]) throws(TodoSyncError) {
        try record("index")
        for file in staged {
            try strict(blobs[file.blob] != nil, "index entry \(file.path) names a blob that does not exist")
        }
        for file in staged { index[file.path] = file }
        for path in removed { index[path] = nil }
    }

    private static func changedMeanwhile(_ path: String) -> TodoSyncError {
        var error = TodoSyncError("\(path) changed while todosync was working")
        error.isChangedMeanwhile = true
        return error
    }
}
