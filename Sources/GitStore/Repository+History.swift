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
    public func moveReference(
        _ name: String, to target: OID, expecting expected: OID?, message: String
    ) throws(GitError) {
        var raw = target.raw
        var ref: OpaquePointer?
        if let expected {
            var current = expected.raw
            try GitError.check(
                git_reference_create_matching(&ref, pointer, name, &raw, 1, &current, message),
                "git_reference_create_matching")
        } else {
            try GitError.check(git_reference_create(&ref, pointer, name, &raw, 0, message), "git_reference_create")
        }
        git_reference_free(ref)
    }

    /// The best common ancestor of two commits; nil if they share no history.
    public func mergeBase(_ a: OID, _ b: OID) throws(GitError) -> OID? {
        var out = git_oid()
        var rawA = a.raw, rawB = b.raw
        let result = StuckReadGuard.run("finding the common ancestor of \(a.short) and \(b.short)") {
            git_merge_base(&out, pointer, &rawA, &rawB)
        }
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
        try GitError.check(
            git_merge_options_init(&options, UInt32(GIT_MERGE_OPTIONS_VERSION)), "git_merge_options_init")
        var index: OpaquePointer?
        try GitError.checkReading("git_merge_trees", of: "merging the other files") {
            git_merge_trees(&index, pointer, baseTree, ourTree, theirTree, &options)
        }
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
        try GitError.checkReading("git_object_lookup", of: "reading tree \(tree.short)") {
            git_object_lookup(&treeObject, pointer, &raw, GIT_OBJECT_TREE)
        }
        defer { git_object_free(treeObject) }
        var baselineTree: OpaquePointer?
        if let baseline {
            var rawBaseline = baseline.raw
            try GitError.check(git_tree_lookup(&baselineTree, pointer, &rawBaseline), "git_tree_lookup")
        }
        defer { git_tree_free(baselineTree) }
        var options = git_checkout_options()
        try GitError.check(
            git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
        options.checkout_strategy = GIT_CHECKOUT_SAFE.rawValue | GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH.rawValue
        options.baseline = baselineTree
        // The files whose edits stop it, to name them.
        let conflicts = PathList()
        options.notify_flags = GIT_CHECKOUT_NOTIFY_CONFLICT.rawValue
        options.notify_payload = Unmanaged.passUnretained(conflicts).toOpaque()
        options.notify_cb = { _, path, _, _, _, payload in
            if let path, let payload {
                Unmanaged<PathList>.fromOpaque(payload).takeUnretainedValue().paths.append(String(cString: path))
            }
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
        } catch  where !conflicts.paths.isEmpty {
            let names = conflicts.paths.sorted().joined(separator: ", ")
            throw GitError(
                code: GIT_ECONFLICT.rawValue, errorClass: error.errorClass,
                message: "your uncommitted changes to \(names) would be overwritten by the incoming change",
                function: error.function)
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
        var paths: [String] = []
        try changedPaths(old, new, prefix: "", into: &paths)
        return paths
    }

    /// One level of `changedPaths`: both trees' entries walked together in git's tree order
    /// (names read in place, not copied); a folder whose tree id is the same on both sides is
    /// skipped whole (a vault's commit changes a few of its folders).
    private func changedPaths(_ old: OID?, _ new: OID?, prefix: String, into paths: inout [String]) throws(GitError) {
        guard old != new else { return }
        let before = try old.map { (id) throws(GitError) in try treeHandle(id) } ?? nil
        defer { git_tree_free(before) }
        let after = try new.map { (id) throws(GitError) in try treeHandle(id) } ?? nil
        defer { git_tree_free(after) }
        let beforeCount = before.map(git_tree_entrycount) ?? 0, afterCount = after.map(git_tree_entrycount) ?? 0
        var a = 0, b = 0
        func report(_ entry: OpaquePointer, fromBefore: Bool) throws(GitError) {
            guard let name = git_tree_entry_name(entry) else { return }
            let path = prefix + String(cString: name)
            guard git_tree_entry_type(entry) == GIT_OBJECT_TREE else {
                paths.append(path)
                return
            }
            let id = OID(git_tree_entry_id(entry).pointee)
            try changedPaths(fromBefore ? id : nil, fromBefore ? nil : id, prefix: path + "/", into: &paths)
        }
        while a < beforeCount || b < afterCount {
            let x = a < beforeCount ? git_tree_entry_byindex(before, a) : nil
            let y = b < afterCount ? git_tree_entry_byindex(after, b) : nil
            guard let x else {
                if let y { try report(y, fromBefore: false) }
                b += 1
                continue
            }
            guard let y else {
                try report(x, fromBefore: true)
                a += 1
                continue
            }
            let order = Self.treeOrder(x, y)
            if order < 0 {
                try report(x, fromBefore: true)
                a += 1
            } else if order > 0 {
                try report(y, fromBefore: false)
                b += 1
            } else {
                a += 1
                b += 1
                let xID = git_tree_entry_id(x).pointee, yID = git_tree_entry_id(y).pointee
                guard OID(xID) != OID(yID) || git_tree_entry_filemode(x) != git_tree_entry_filemode(y) else { continue }
                if git_tree_entry_type(x) == GIT_OBJECT_TREE {
                    // Both folders (same name in tree order, so the same kind).
                    try changedPaths(
                        OID(xID), OID(yID), prefix: prefix + String(cString: git_tree_entry_name(x)) + "/", into: &paths
                    )
                } else {
                    paths.append(prefix + String(cString: git_tree_entry_name(x)))
                }
            }
        }
    }

    /// git's order of tree entries: by name bytes, a folder's name as if it ended in "/".
    private static func treeOrder(_ x: OpaquePointer, _ y: OpaquePointer) -> Int {
        guard let xName = git_tree_entry_name(x), let yName = git_tree_entry_name(y) else { return 0 }
        let xLength = strlen(xName), yLength = strlen(yName)
        let common = min(xLength, yLength)
        let compared = memcmp(xName, yName, common)
        if compared != 0 { return Int(compared) }
        let xNext: UInt8 =
            xLength > common ? UInt8(bitPattern: xName[common]) : git_tree_entry_type(x) == GIT_OBJECT_TREE ? 0x2F : 0
        let yNext: UInt8 =
            yLength > common ? UInt8(bitPattern: yName[common]) : git_tree_entry_type(y) == GIT_OBJECT_TREE ? 0x2F : 0
        return Int(xNext) - Int(yNext)
    }
}

extension Repository {
    /// A tree's libgit2 handle; the caller frees it with git_tree_free.
    func treeHandle(_ id: OID) throws(GitError) -> OpaquePointer? {
        var raw = id.raw
        var tree: OpaquePointer?
        try GitError.checkReading("git_tree_lookup", of: "reading tree \(id.short)") {
            git_tree_lookup(&tree, pointer, &raw)
        }
        return tree
    }
}

/// Paths a C callback collects.
private final class PathList {
    var paths: [String] = []
}
