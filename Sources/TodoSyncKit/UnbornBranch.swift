import GitStore

/// A branch with no commits yet, as in a clone of a remote whose HEAD names a branch it does
/// not have (`git clone` then warns "remote HEAD refers to nonexistent ref" and leaves the
/// clone on that empty branch, while the lists are on another).
public struct UnbornBranch: Sendable {
    public var name: String
    /// The remotes' branches as fetched, e.g. `origin/main`.
    public var remoteBranches: [String]

    /// What to do where there is no list at all.
    public static let firstListHint = "write a list (e.g. TODO.md with \"- [ ] Buy milk\") and run todosync"

    /// What to do, where a remote has branches: work on one of them (`git switch main` makes
    /// a local `main` from `origin/main`).
    public var advice: String? {
        guard let first = remoteBranches.first else { return nil }
        let shortName = first.split(separator: "/", maxSplits: 1).last.map(String.init) ?? first
        let others = remoteBranches.count > 1 ? " (or another of them)" : ""
        return
            "'\(name)' has no commits yet, but \(remoteBranches.joined(separator: ", ")) \(remoteBranches.count > 1 ? "have" : "has"): "
            + "run git switch \(shortName)\(others), then todosync"
    }
}

extension Workspace {
    /// The current branch if it has no commits yet; nil otherwise.
    public func unbornBranch() throws(TodoSyncError) -> UnbornBranch? {
        guard case .unborn(let name) = try git("reading HEAD", { try repository.head() }) else { return nil }
        let names = try git("listing remote branches") { try repository.referenceNames(matching: "refs/remotes/*") }
        // NB: refs/remotes/origin/HEAD names the remote's default branch, not a branch of its own.
        let branches = names.map { String($0.dropFirst("refs/remotes/".count)) }.filter { !$0.hasSuffix("/HEAD") }
        return UnbornBranch(name: name, remoteBranches: branches)
    }
}
