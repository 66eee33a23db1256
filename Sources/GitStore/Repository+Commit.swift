#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibGit2

extension Repository {
    /// Writes the tree of `base` with `changes` applied, and returns its id.
    ///
    /// Built in a private in-memory index, so what the user staged with `git add` stays staged
    /// and out of todosync's commit.
    public func writeTree(base: OID?, applying changes: [String: TreeChange]) throws(GitError) -> OID {
        if let base { return try updatedTree(base, changes) }
        var index: OpaquePointer?
        try GitError.check(git_index_new(&index), "git_index_new")
        defer { git_index_free(index) }
        if let base {
            var raw = base.raw
            var tree: OpaquePointer?
            try GitError.checkReading("git_tree_lookup", of: "reading tree \(base.short)") {
                git_tree_lookup(&tree, pointer, &raw)
            }
            defer { git_tree_free(tree) }
            try GitError.checkReading("git_index_read_tree", of: "reading tree \(base.short)") {
                git_index_read_tree(index, tree)
            }
        }
        for (path, change) in changes {
            switch change {
            case .delete:
                // NB: a path the tree lacks is already deleted (libgit2 would call it an error).
                if git_index_get_bypath(index, path, 0) != nil {
                    try GitError.check(git_index_remove(index, path, 0), "git_index_remove")
                }
            case .write(let blob, let mode):
                var entry = git_index_entry()
                entry.mode = mode
                entry.id = blob.raw
                let result = path.withCString { cPath in
                    entry.path = cPath
                    return git_index_add(index, &entry)
                }
                try GitError.check(result, "git_index_add")
            }
        }
        var oid = git_oid()
        try GitError.check(git_index_write_tree_to(&oid, index, pointer), "git_index_write_tree_to")
        return OID(oid)
    }

    /// `base` with `changes` applied, writing only the trees on the changed paths
    /// (`git_tree_create_updated`): a one-file change in a tree of thousands rewrites a few
    /// trees, not all of them.
    private func updatedTree(_ base: OID, _ changes: [String: TreeChange]) throws(GitError) -> OID {
        var raw = base.raw
        var tree: OpaquePointer?
        try GitError.checkReading("git_tree_lookup", of: "reading tree \(base.short)") {
            git_tree_lookup(&tree, pointer, &raw)
        }
        defer { git_tree_free(tree) }
        var paths: [UnsafeMutablePointer<CChar>?] = []
        defer { paths.forEach { free($0) } }
        var updates: [git_tree_update] = []
        for (path, change) in changes.sorted(by: { $0.key < $1.key }) {
            var update = git_tree_update()
            switch change {
            case .delete:
                // NB: a path the tree lacks is already deleted (libgit2 would call it an error).
                var entry: OpaquePointer?
                guard git_tree_entry_bypath(&entry, tree, path) == 0 else { continue }
                git_tree_entry_free(entry)
                update.action = GIT_TREE_UPDATE_REMOVE
            case .write(let blob, let mode):
                update.action = GIT_TREE_UPDATE_UPSERT
                update.id = blob.raw
                update.filemode = git_filemode_t(rawValue: mode)
            }
            let cPath = strdup(path)
            paths.append(cPath)
            update.path = UnsafePointer(cPath)
            updates.append(update)
        }
        var oid = git_oid()
        try GitError.check(
            git_tree_create_updated(&oid, pointer, tree, updates.count, updates), "git_tree_create_updated")
        return OID(oid)
    }

    /// Creates a commit and moves `reference` (e.g. "HEAD") to it.
    ///
    /// libgit2 checks that the reference still points at the first parent, so a commit made
    /// meanwhile by another process makes this fail rather than be lost.
    public func createCommit(
        tree: OID, parents: [OID], message: String, author: Signature, committer: Signature,
        updating reference: String? = "HEAD", signer: CommitSigner? = nil
    ) throws(GitError) -> OID {
        precondition(signer == nil || reference == nil, "a signed commit is written without moving a reference")
        var rawTree = tree.raw
        var treeObject: OpaquePointer?
        try GitError.checkReading("git_tree_lookup", of: "reading tree \(tree.short)") {
            git_tree_lookup(&treeObject, pointer, &rawTree)
        }
        defer { git_tree_free(treeObject) }
        var parentObjects: [OpaquePointer?] = []
        defer { parentObjects.forEach { git_commit_free($0) } }
        for parent in parents {
            var raw = parent.raw
            var commit: OpaquePointer?
            try GitError.checkReading("git_commit_lookup", of: "reading commit \(parent.short)") {
                git_commit_lookup(&commit, pointer, &raw)
            }
            parentObjects.append(commit)
        }
        var oid = git_oid()
        try author.withGitSignature { (authorSignature) throws(GitError) in
            try committer.withGitSignature { (committerSignature) throws(GitError) in
                if let signer {
                    oid = try createSignedCommit(
                        tree: treeObject, parents: &parentObjects, message: message, author: authorSignature,
                        committer: committerSignature, committerValue: committer, signer: signer)
                    return
                }
                _ = try GitError.check(
                    git_commit_create(
                        &oid, pointer, reference, authorSignature, committerSignature, "UTF-8", message,
                        treeObject, parentObjects.count, &parentObjects),
                    "git_commit_create")
            }
        }
        return OID(oid)
    }

    /// Brings git's index in step with the files todosync committed (`staged`, entered with the
    /// blob and stat given: nothing is read or hashed again) and removed, so that `git status` is
    /// clean after todosync's commit; or with the lists it merged in the middle of a git merge,
    /// settling git's conflicts on them.
    public func updateIndex(staged: [StagedFile], removing removed: [String]) throws(GitError) {
        var index: OpaquePointer?
        try GitError.check(git_repository_index(&index, pointer), "git_repository_index")
        defer { git_index_free(index) }
        try GitError.check(git_index_read(index, 0), "git_index_read")
        for file in staged {
            if let conflict = file.settles { try file.settle(conflict, in: index) }
            var entry = git_index_entry()
            file.stat?.record(in: &entry)
            entry.mode = file.mode
            entry.id = file.blob.raw
            if file.skipsWorktree { entry.flags_extended = UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue) }
            let result = file.path.withCString { cPath in
                entry.path = cPath
                return git_index_add(index, &entry)
            }
            try GitError.check(result, "git_index_add")
        }
        for path in removed where git_index_get_bypath(index, path, 0) != nil {
            try GitError.check(git_index_remove_bypath(index, path), "git_index_remove_bypath")
        }
        try GitError.check(git_index_write(index), "git_index_write")
    }
}
