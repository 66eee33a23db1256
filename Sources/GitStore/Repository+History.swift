import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Repository {
    /// The commit a reference (`refs/remotes/origin/main`) points at; nil if there is none.
    public func reference(_ name: String) throws(GitError) -> OID? {
        var oid = git_oid()
        let result = git_reference_name_to_id(&oid, pointer, name)
        if result == GIT_ENOTFOUND.rawValue || result == GIT_EINVALIDSPEC.rawValue { return nil }
        try GitError.check(result, "git_reference_name_to_id")
        return OID(oid)
    }

    /// The names of the references that match a glob (`refs/remotes/origin/*`), sorted.
    public func referenceNames(matching glob: String) throws(GitError) -> [String] {
        var iterator: OpaquePointer?
        try GitError.check(git_reference_iterator_glob_new(&iterator, pointer, glob), "git_reference_iterator_glob_new")
        defer { git_reference_iterator_free(iterator) }
        var names: [String] = []
        while true {
            var name: UnsafePointer<CChar>?
            let result = git_reference_next_name(&name, iterator)
            if result == GIT_ITEROVER.rawValue { break }
            try GitError.check(result, "git_reference_next_name")
            if let name { names.append(String(cString: name)) }
        }
        return names.sorted()
    }

    /// Moves a reference to `target`, only if it still points at `expected` (nil: only if it
    /// does not exist), so a commit made meanwhile is never thrown away.
    public func moveReference(_ name: String, to target: OID, expecting expected: OID?, message: String) throws(GitError) {
        var raw = target.raw
        var ref: OpaquePointer?
        if let expected {
            var current = expected.raw
            try GitError.check(git_reference_create_matching(&ref, pointer, name, &raw, 1, &current, message), "git_reference_create_matching")
        } else {
            try GitError.check(git_reference_create(&ref, pointer, name, &raw, 0, message), "git_reference_create")
        }
        git_reference_free(ref)
    }

    /// The best common ancestor of two commits; nil if they share no history.
    public func mergeBase(_ a: OID, _ b: OID) throws(GitError) -> OID? {
        var out = git_oid()
        var rawA = a.raw, rawB = b.raw
        let result = StuckReadGuard.run("finding the common ancestor of \(a.short) and \(b.short)") { git_merge_base(&out, pointer, &rawA, &rawB) }
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try GitError.check(result, "git_merge_base")
        return OID(out)
    }

    /// Whether `ancestor` is `commit` or in its history.
    public func contains(_ ancestor: OID, inHistoryOf commit: OID) throws(GitError) -> Bool {
        if ancestor == commit { return true }
        var rawCommit = commit.raw, rawAncestor = ancestor.raw
        let result = git_graph_descendant_of(pointer, &rawCommit, &rawAncestor)
        return try GitError.check(result, "git_graph_descendant_of") == 1
    }

    /// How many commits `local` has that `upstream` lacks, and the other way round.
    public func aheadBehind(_ local: OID, _ upstream: OID) throws(GitError) -> (ahead: Int, behind: Int) {
        var ahead = 0, behind = 0
        var rawLocal = local.raw, rawUpstream = upstream.raw
        try GitError.checkReading("git_graph_ahead_behind", of: "comparing \(local.short) with \(upstream.short)") {
            git_graph_ahead_behind(&ahead, &behind, pointer, &rawLocal, &rawUpstream)
        }
        return (ahead, behind)
    }

    /// Merges three trees with libgit2's own file-level merge: the merged tree, or the paths that conflict.
    public func mergeTrees(base: OID?, ours: OID, theirs: OID) throws(GitError) -> (tree: OID?, conflicts: [String]) {
        let baseTree = try base.map { (id) throws(GitError) in try treeHandle(id) } ?? nil
        defer { git_tree_free(baseTree) }
        let ourTree = try treeHandle(ours)
        defer { git_tree_free(ourTree) }
        let theirTree = try treeHandle(theirs)
        defer { git_tree_free(theirTree) }
        var options = git_merge_options()
        try GitError.check(git_merge_options_init(&options, UInt32(GIT_MERGE_OPTIONS_VERSION)), "git_merge_options_init")
        var index: OpaquePointer?
        try GitError.checkReading("git_merge_trees", of: "merging the other files") { git_merge_trees(&index, pointer, baseTree, ourTree, theirTree, &options) }
        defer { git_index_free(index) }
        let conflicts = try IndexConflict.all(in: index)
        if !conflicts.isEmpty { return (nil, conflicts.map(\.path)) }
        var oid = git_oid()
        try GitError.check(git_index_write_tree_to(&oid, index, pointer), "git_index_write_tree_to")
        return (OID(oid), [])
    }

    /// Brings `paths` of the working tree and git's index to what `tree` holds, refusing (and
    /// changing nothing) where a file differs from `baseline`, i.e. holds the user's edits.
    public func checkout(tree: OID, paths: [String], baseline: OID?) throws(GitError) {
        guard !paths.isEmpty else { return }
        var raw = tree.raw
        var treeObject: OpaquePointer?
        try GitError.checkReading("git_object_lookup", of: "reading tree \(tree.short)") { git_object_lookup(&treeObject, pointer, &raw, GIT_OBJECT_TREE) }
        defer { git_object_free(treeObject) }
        var baselineTree: OpaquePointer?
        if let baseline {
            var rawBaseline = baseline.raw
            try GitError.check(git_tree_lookup(&baselineTree, pointer, &rawBaseline), "git_tree_lookup")
        }
        defer { git_tree_free(baselineTree) }
        var options = git_checkout_options()
        try GitError.check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        options.checkout_strategy = GIT_CHECKOUT_SAFE.rawValue | GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH.rawValue
        options.baseline = baselineTree
        // The files whose edits stop it, to name them.
        let conflicts = PathList()
        options.notify_flags = GIT_CHECKOUT_NOTIFY_CONFLICT.rawValue
        options.notify_payload = Unmanaged.passUnretained(conflicts).toOpaque()
        options.notify_cb = { _, path, _, _, _, payload in
            if let path, let payload { Unmanaged<PathList>.fromOpaque(payload).takeUnretainedValue().paths.append(String(cString: path)) }
            return 0
        }
        var cPaths = paths.map { strdup($0) }
        defer { cPaths.forEach { free($0) } }
        do {
            _ = try withExtendedLifetime(conflicts) { () throws(GitError) in
                try GitError.checkReading("git_checkout_tree", of: "checking out \(paths.count) files") {
                    cPaths.withUnsafeMutableBufferPointer { buffer in
                        options.paths = git_strarray(strings: buffer.baseAddress, count: buffer.count)
                        return git_checkout_tree(pointer, treeObject, &options)
                    }
                }
            }
        } catch where !conflicts.paths.isEmpty {
            let names = conflicts.paths.sorted().joined(separator: ", ")
            throw GitError(
                code: GIT_ECONFLICT.rawValue, errorClass: error.errorClass,
                message: "your uncommitted changes to \(names) would be overwritten by the incoming change", function: error.function)
        }
    }
}

extension GitError {
    /// The remote moved on: fetch and merge before pushing again.
    public var isNonFastForward: Bool { code == GIT_ENONFASTFORWARD.rawValue }

    /// A checkout stopped where a file holds edits it would overwrite.
    public var isCheckoutConflict: Bool { code == GIT_ECONFLICT.rawValue }
}

extension Repository {
    /// Paths whose content or mode differ between two trees (nil: the empty tree).
    public func changedPaths(from old: OID?, to new: OID) throws(GitError) -> [String] {
        let oldTree = try old.map { (id) throws(GitError) in try treeHandle(id) } ?? nil
        defer { git_tree_free(oldTree) }
        let newTree = try treeHandle(new)
        defer { git_tree_free(newTree) }
        var diff: OpaquePointer?
        try GitError.checkReading("git_diff_tree_to_tree", of: "comparing trees") { git_diff_tree_to_tree(&diff, pointer, oldTree, newTree, nil) }
        defer { git_diff_free(diff) }
        var paths: [String] = []
        for index in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, index) else { continue }
            if let path = string(delta.pointee.new_file.path) ?? string(delta.pointee.old_file.path) { paths.append(path) }
        }
        return paths
    }
}

extension Repository {
    /// A tree's libgit2 handle; the caller frees it with git_tree_free.
    func treeHandle(_ id: OID) throws(GitError) -> OpaquePointer? {
        var raw = id.raw
        var tree: OpaquePointer?
        try GitError.checkReading("git_tree_lookup", of: "reading tree \(id.short)") { git_tree_lookup(&tree, pointer, &raw) }
        return tree
    }
}

/// Paths a C callback collects.
private final class PathList {
    var paths: [String] = []
}
