import GitStore

/// Where the current branch syncs to: a remote and a branch there, as git config says.
public struct Upstream: Sendable {
    public var remote: String
    public var url: String
    /// The branch on the remote, e.g. `refs/heads/main`.
    public var remoteBranch: String
    /// The local branch, e.g. `refs/heads/main`.
    public var localBranch: String

    /// The remote-tracking reference fetch updates, e.g. `refs/remotes/origin/main`.
    public var trackingRef: String {
        "refs/remotes/\(remote)/" + remoteBranch.dropFirst(remoteBranch.hasPrefix("refs/heads/") ? 11 : 0)
    }

    /// `origin/main`, as git shows it.
    public var name: String { String(trackingRef.dropFirst("refs/remotes/".count)) }
}

/// How the branch stands against its upstream, as of the last fetch.
public struct Divergence: Sendable {
    public var upstream: Upstream
    /// nil: the remote branch has not been fetched yet (or does not exist).
    public var ahead: Int?
    public var behind: Int?
}

extension Workspace {
    /// The upstream of the current branch: `branch.<name>.remote` and `.merge`; failing those,
    /// a remote called `origin` and the branch of the same name.
    public func upstream() throws(TodoSyncError) -> Upstream {
        guard let branch = try branch() else {
            throw detachedHead(doing: "syncs")
        }
        let configuredRemote = try git("reading branch.\(branch).remote") {
            try repository.configString("branch.\(branch).remote")
        }
        let configuredMerge = try git("reading branch.\(branch).merge") {
            try repository.configString("branch.\(branch).merge")
        }
        let remote = configuredRemote ?? "origin"
        guard let url = try git("reading remote \(remote)", { try repository.remoteURL(remote) }) else {
            throw TodoSyncError(
                configuredRemote == nil
                    ? "branch '\(branch)' has no remote to sync with"
                    : "branch '\(branch)' syncs with remote '\(remote)', which does not exist",
                hint: "add one: git remote add origin URL (or start with todosync init --remote URL)")
        }
        return Upstream(
            remote: remote, url: url, remoteBranch: configuredMerge ?? "refs/heads/\(branch)",
            localBranch: "refs/heads/\(branch)")
    }

    /// Ahead/behind counts against the upstream's last fetched state; nil without an upstream.
    public func divergence() throws(TodoSyncError) -> Divergence? {
        guard let upstream = try? upstream() else { return nil }
        guard case .branch(_, let head) = try git("reading HEAD", { try repository.head() }),
            let remote = try git("reading \(upstream.trackingRef)", { try repository.reference(upstream.trackingRef) })
        else { return Divergence(upstream: upstream, ahead: nil, behind: nil) }
        let counts = try git("counting commits") { try repository.aheadBehind(head, remote) }
        return Divergence(upstream: upstream, ahead: counts.ahead, behind: counts.behind)
    }

    /// A remote at a local path that does not exist: say so, instead of libgit2's
    /// "unsupported URL protocol".
    func checkReachable(_ upstream: Upstream) throws(TodoSyncError) {
        let url = upstream.url
        let isLocal = url.hasPrefix("/") || url.hasPrefix("./") || url.hasPrefix("../") || url.hasPrefix("file://")
        guard isLocal else { return }
        let path = url.hasPrefix("file://") ? String(url.dropFirst(7)) : url
        let absolute = path.hasPrefix("/") ? path : root + "/" + path
        if !FileSystem.exists(absolute) {
            throw TodoSyncError(
                "cannot reach remote '\(upstream.remote)': there is no repository at \(absolute)",
                hint: "check the address with 'git remote -v'; your commits are safe here and sync will push them later"
            )
        }
    }
}

/// How far a fetch or push has come (objects done of total, bytes), for a progress line.
public typealias SyncProgress = TransferProgress
