#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import TodoModel

/// What `resolve` did with the lists a git merge left in conflict.
public struct ResolveOutcome: Sendable {
    /// The git operation in progress (merge, rebase, cherry-pick, revert).
    public var operation: String
    /// Each list merged item by item and staged, with what the merge kept or noted.
    public var resolved: [(path: String, reports: [MergeReport])] = []
    /// Files in conflict that were left as they are, why, and what to do.
    public var leftToGit: [(path: String, reason: String)] = []
}

extension Workspace {
    /// Merges item by item each list that a git merge, rebase, cherry-pick or revert left in
    /// conflict (git ran without todosync's merge driver), from the three versions git's index
    /// holds, as the driver would have. The list file gets the merged version (only if it is
    /// still as git left it: one edited since is left alone, named), and git's index takes it
    /// in place of the conflict, as `git add` does; git's operation then goes on (`git commit`,
    /// `git rebase --continue`). `paths`: only these files, named as git takes paths (relative
    /// to the folder todosync was started in).
    public func resolveConflicts(_ paths: [String] = []) throws(TodoSyncError) -> ResolveOutcome {
        try writing { () throws(TodoSyncError) in try resolveConflictsLocked(paths) }
    }

    private func resolveConflictsLocked(_ paths: [String]) throws(TodoSyncError) -> ResolveOutcome {
        guard let operation = repository.pendingOperation, operation != .bisect else {
            throw TodoSyncError(
                "no git merge, rebase, cherry-pick or revert is in progress in \(root), so git has left no conflict to resolve",
                hint:
                    "git's conflict markers committed into a list are plain lines to todosync: delete the side you do not want and run todosync"
            )
        }
        var outcome = ResolveOutcome(operation: operation.name)
        var wanted = Set<String>()
        for path in paths { wanted.insert(try listPath(path)) }
        let conflicts = try git("reading git's index") { try repository.indexConflicts() }.filter {
            wanted.isEmpty || wanted.contains($0.path)
        }
        for path in wanted.subtracting(conflicts.map(\.path)).sorted() {
            outcome.leftToGit.append((path, "git's index holds no conflict on it"))
        }
        var files: [WritePlan.FileWrite] = [], settles: [String: IndexConflict] = [:]
        var merges: [(path: String, reports: [MergeReport])] = []
        for conflict in conflicts {
            guard let ours = conflict.ours, let theirs = conflict.theirs else {
                outcome.leftToGit.append(
                    (
                        conflict.path,
                        (conflict.ours == nil ? "deleted on our side" : "deleted on their side")
                            + "; resolve it with git (git add or git rm)"
                    ))
                continue
            }
            guard let working = try FileSystem.read(root + "/" + conflict.path) else {
                outcome.leftToGit.append((conflict.path, "the working file is gone; resolve it with git"))
                continue
            }
            let base =
                try conflict.ancestor.map { (version) throws(TodoSyncError) in
                    try committedBytes(version.blob, at: conflict.path)
                } ?? []
            let versions = [
                base, try committedBytes(ours.blob, at: conflict.path),
                try committedBytes(theirs.blob, at: conflict.path),
            ]
            guard try isAnyList(conflict.path, versions) else {
                outcome.leftToGit.append((conflict.path, "not a list; resolve it with git"))
                continue
            }
            let merged = ListFileMerge.merge(
                path: conflict.path, base: versions[0], ours: versions[1], theirs: versions[2])
            // The file must be as git left it (or as this merge makes it, from a resolve that
            // stopped before staging it): an edit made in it since would be lost.
            if working != merged.bytes {
                let markerSize = try conflictMarkerSize(conflict.path)
                guard let sides = try? ConflictSides(splitting: working, markerSize: markerSize),
                    try isAsGitMerged(sides, versions, markerSize: markerSize)
                else {
                    outcome.leftToGit.append(
                        (
                            conflict.path,
                            "it was edited since git stopped, and merging it from git's versions would drop those edits; finish it by hand and git add it, or bring git's version back (git checkout -m -- \(conflict.path)) and run todosync resolve again"
                        ))
                    continue
                }
            }
            files.append(WritePlan.FileWrite(path: conflict.path, expected: working, final: merged.bytes))
            settles[conflict.path] = conflict
            merges.append((conflict.path, merged.reports))
        }
        guard !files.isEmpty else { return outcome }
        let head = try git("reading HEAD") { try repository.head() }
        let (reference, commit): (String, OID?) =
            switch head {
            case .branch(let name, let commit): ("refs/heads/" + name, commit)
            case .detached(let commit): ("HEAD", commit)
            case .unborn(let name): ("refs/heads/" + name, nil)
            }
        let plan = WritePlan(
            branch: reference, expectedHead: commit, target: nil, settles: settles,
            files: files.sorted { $0.path < $1.path },
            reflogMessage: "")
        _ = try apply(plan)
        outcome.resolved = merges
        return outcome
    }

    /// Whether a conflicted file's sides are those of git's own line merge of the three
    /// versions (`git merge-file`; the labels and the base section, which git's settings
    /// change, are not part of the sides): nothing was edited in it since git wrote it.
    private func isAsGitMerged(
        _ sides: ConflictSides, _ versions: [[UInt8]], markerSize: Int
    ) throws(TodoSyncError) -> Bool {
        let folder = scratch.temporary
        try scratch.create()
        let names = ["base", "ours", "theirs"].map { folder + "/resolve-" + $0 }
        defer { names.forEach { unlink($0) } }
        for (name, bytes) in zip(names, versions) { try FileSystem.writeAtomically(name, bytes) }
        let printed = try git("merging line by line as git does") {
            try GitMergeFile.printed(current: names[1], base: names[0], other: names[2], markerSize: markerSize)
        }
        guard let gitSides = try? ConflictSides(splitting: printed, markerSize: markerSize) else { return false }
        return gitSides == sides
    }

    /// How long git's conflict markers are in `path` (its `conflict-marker-size` attribute).
    private func conflictMarkerSize(_ path: String) throws(TodoSyncError) -> Int {
        let value = try git("reading the attributes of \(path)") {
            try repository.attribute("conflict-marker-size", for: path)
        }
        if case .value(let text) = value, let size = Int(text), size > 0 { return size }
        return 7
    }

    /// The git merge, rebase, cherry-pick or revert in progress, and the files it left in
    /// conflict that can be lists (what `resolve` takes); nil when none is in progress.
    public func operationInProgress() -> (operation: String, listsInConflict: [String])? {
        guard let operation = repository.pendingOperation, operation != .bisect else { return nil }
        let conflicts = (try? repository.indexConflicts()) ?? []
        return (operation.name, conflicts.map(\.path).filter(selector.matches))
    }

    /// Whether any version of a file being merged is a list, as this repository decides (its
    /// attributes and todosync.include / exclude).
    func isAnyList(_ path: String, _ versions: [[UInt8]]) throws(TodoSyncError) -> Bool {
        guard selector.matches(path), versions.allSatisfy({ $0.count <= ListDocument.maximumSize }) else {
            return false
        }
        for bytes in versions where try isList(ListDocument(path: path, bytes: bytes)) { return true }
        return false
    }
}
