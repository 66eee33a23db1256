import GitStore
import QuickStatus
import TodoModel

/// The paths each side changed since the merge base.
struct ChangedSides {
    var ours: [String]
    var theirs: [String]
}

/// What `sync` did, step by step.
public struct SyncOutcome {
    public var upstream: Upstream
    /// The commit of local edits made first, if there were any.
    public var localCommit: CommitOutcome?
    /// What came in from the remote, item by item.
    public var incoming: [Change] = []
    /// Clashes and kept items the merge reports.
    public var reports: [MergeReport] = []
    /// Who made the changes on each side since the merge base (authors of the commits, most
    /// recent first), when the merge reports something: clashes name whose change met whose.
    public var sideAuthors: (here: [String], there: [String])?
    /// Clashes not yet settled that came in with a fast-forward (another clone merged them).
    public var clashesCameIn: [Clash] = []
    /// Who made the commit that brought them (the other clone's merge).
    public var clashesBroughtBy: String?
    /// The merge commit, when both sides had new commits.
    public var mergeCommit: OID?
    /// Set when the branch only moved forward to the remote's commit.
    public var fastForwardedTo: OID?
    /// Ids written after a fast-forward, for items added there with plain git.
    public var adoptCommit: OID?
    public var pushed = false
    /// How many times the remote moved between fetch and push.
    public var retries = 0

    /// Nothing came in and nothing went out.
    public var isUpToDate: Bool { mergeCommit == nil && fastForwardedTo == nil && !pushed && localCommit == nil }
}

extension Workspace {
    static let pushAttempts = 3

    /// Commits local edits, fetches, merges the remote's lists item by item, commits and
    /// pushes. If the remote moved meanwhile, fetches and merges again (a few times).
    ///
    /// The write lock is held while committing and merging, not while talking to the remote.
    /// A remote whose history shares no commit with the branch is refused, as git refuses it,
    /// unless `allowUnrelatedHistories`.
    public func sync(
        push: Bool = true, allowUnrelatedHistories: Bool = false, progress: ((SyncProgress) -> Void)? = nil
    ) throws(TodoSyncError) -> SyncOutcome {
        try checkReadyToCommit()
        let upstream = try upstream()
        var outcome = SyncOutcome(upstream: upstream)
        // Local edits are committed even when the remote turns out to be unreachable. Where
        // the clean-state note vouches that there are none, no list is looked at (a file saved
        // from here on is found by the merge's check of what it read, and committed first).
        // The lists that commit read stand for ours in the merge, where the files have not
        // changed since (`readCommit(_:recentlyRead:)`).
        var recentlyRead: [WorkingFile] = []
        if Trace.isOn || CleanState.answer(.commit, in: root) == nil {
            var local = try Trace.phase("commit local edits") { () throws(TodoSyncError) in try commit() }
            recentlyRead = local.unit.releaseReads()
            if local.commit != nil { outcome.localCommit = local }
            didCommitLocalEdits?()
        }
        guard !repository.isShallow else {
            throw TodoSyncError(
                "this clone has shallow history (made with git clone --depth): a sync merges from the history both sides share, which may lie beyond it; nothing was fetched",
                hint: "fetch the whole history, then sync: git fetch --unshallow && todosync sync")
        }
        try checkReachable(upstream)

        for attempt in 1...Self.pushAttempts {
            outcome.retries = attempt - 1
            try Trace.phase("fetch") { () throws(TodoSyncError) in try fetch(upstream, progress: progress) }
            try integrateTakingInSaves(
                upstream, allowUnrelatedHistories: allowUnrelatedHistories, recentlyRead: &recentlyRead, into: &outcome)
            guard push else { return outcome }
            guard case .branch(_, let head) = try git("reading HEAD", { try repository.head() }) else { return outcome }
            let remote = try git("reading \(upstream.trackingRef)") { try repository.reference(upstream.trackingRef) }
            if remote == head { return outcome }
            try runPrePushHook(upstream, local: head, remote: remote)
            let silence = try silenceLimit("pushing to", upstream)
            do {
                try Trace.phase("push") { () throws(GitError) in
                    try repository.push(
                        remote: upstream.remote, localRef: upstream.localBranch, remoteRef: upstream.remoteBranch,
                        silence: silence, password: configuration.credentials, progress: progress)
                }
                outcome.pushed = true
                return outcome
            } catch let error where error.isNonFastForward && attempt < Self.pushAttempts {
                continue
            } catch {
                throw TodoSyncError(
                    "pushing to \(upstream.name) (\(upstream.url)) failed: \(error.message)",
                    hint: error.isNonFastForward
                        ? "the remote kept moving; your commits are safe here: run todosync sync again"
                        : error.isRemoteSilent
                            ? Self.remoteTimeoutHint(upstream)
                            : error.isRefusedByRemote
                                ? "the remote's own rules refused the push (its message is above); your commits are safe here"
                                : "your commits are safe here; run todosync sync again when the remote can be reached")
            }
        }
        return outcome
    }

    /// Integrates under the write lock; a list saved meanwhile is committed as its own unit
    /// and the merge worked out again.
    private func integrateTakingInSaves(
        _ upstream: Upstream, allowUnrelatedHistories: Bool, recentlyRead: inout [WorkingFile],
        into outcome: inout SyncOutcome
    ) throws(TodoSyncError) {
        try writing { () throws(TodoSyncError) in
            try checkReadyToCommit()
            var attempt = 1
            while true {
                do throws(TodoSyncError) {
                    return try integrate(
                        upstream, allowUnrelatedHistories: allowUnrelatedHistories, recentlyRead: &recentlyRead,
                        into: &outcome)
                } catch let error where error.isChangedMeanwhile && attempt < Self.rereadAttempts {
                    attempt += 1
                    var again = try commit()
                    recentlyRead = again.unit.releaseReads()
                    if again.commit != nil { outcome.localCommit = again }
                }
            }
        }
    }

    func fetch(_ upstream: Upstream, progress: ((SyncProgress) -> Void)?) throws(TodoSyncError) {
        let silence = try silenceLimit("fetching from", upstream)
        try warnIfUnverified(upstream)
        do {
            try repository.fetch(
                remote: upstream.remote, silence: silence, password: configuration.credentials, progress: progress)
        } catch {
            let isSSH = if case .ssh = RemoteEndpoint(url: upstream.url) { true } else { false }
            let proxy = try? repository.proxy(forRemote: upstream.remote, url: upstream.url)
            throw TodoSyncError(
                "fetching from \(upstream.remote) (\(upstream.url)\(proxy.map { ", through the proxy \($0.url) that \($0.source) names" } ?? "")) failed: \(error.message)",
                hint: error.isRemoteSilent
                    ? Self.remoteTimeoutHint(upstream)
                    : error.isUntrustedCertificate
                        ? Self.untrustedCertificateHint
                        : proxy != nil
                            ? Self.proxyHint(upstream)
                            : isSSH
                                ? "todosync runs ssh as git does (GIT_SSH_COMMAND, core.sshCommand, ~/.ssh/config, ssh-agent); once 'git ls-remote \(upstream.remote)' works here, run todosync sync again; your local commits are safe"
                                : "your local commits are safe; check the address (git remote -v) and the network, then run todosync sync again"
            )
        }
    }

    /// libgit2 (todosync's https) cannot answer a proxy that asks for a password and closes the
    /// connection with its question (libgit2 issue 7081), as tinyproxy and others do.
    static func proxyHint(_ upstream: Upstream) -> String {
        "once 'git ls-remote \(upstream.remote)' works here through the same proxy, run todosync sync again; a proxy that asks for a password may close the connection with its question, which todosync's https cannot answer: reach the remote by ssh then, or through a proxy that lets this machine through without one; your local commits are safe"
    }

    static let untrustedCertificateHint =
        "if the server's certificate comes from your own certificate authority, trust it as for git: git config http.sslCAInfo /path/to/ca.pem (or GIT_SSL_CAINFO); http.sslVerify false would stop checking, letting anyone in between read and change what is sent"

    /// Says once that an https remote's certificate goes unchecked (`http.sslVerify false`).
    private func warnIfUnverified(_ upstream: Upstream) throws(TodoSyncError) {
        guard upstream.url.lowercased().hasPrefix("https://") else { return }
        let settings = try git("reading the http.ssl settings") { try repository.httpsSettings() }
        if !settings.verifies {
            notice(
                "the TLS certificate of \(upstream.remote) is not verified (http.sslVerify false or GIT_SSL_NO_VERIFY): anyone in between can read and change what is sent"
            )
        }
    }

    /// Brings the remote's commit into the branch: nothing to do, a fast-forward, or a merge.
    /// `recentlyRead`: lists just read and parsed that may stand for ours; taken (emptied) by
    /// a merge, so it is not held through the merge's own reads.
    /// `bringingIn`: files of the folder that a first fast-forward (init onto a branch with no
    /// commit) replaces with the remote's version and what they hold that it lacks
    /// (`ListDocument.bringingIn`), each written only if it still holds what was read.
    func integrate(
        _ upstream: Upstream, allowUnrelatedHistories: Bool, recentlyRead: inout [WorkingFile],
        bringingIn: [String: (local: [UInt8], merged: [UInt8])] = [:], into outcome: inout SyncOutcome
    ) throws(TodoSyncError) {
        guard
            let theirs = try git("reading \(upstream.trackingRef)", { try repository.reference(upstream.trackingRef) })
        else {
            // The remote has no such branch yet: the push creates it, unless there is nothing to
            // push either while the remote has other branches (a clone left on an empty branch).
            if let unborn = try unbornBranch(), let advice = unborn.advice {
                throw TodoSyncError("\(upstream.remote) has no branch '\(unborn.name)' to sync with", hint: advice)
            }
            return
        }
        let head: OID?
        switch try git("reading HEAD", { try repository.head() }) {
        case .branch(_, let commit): head = commit
        case .unborn: head = nil
        case .detached: return
        }
        guard let head else {
            recentlyRead = []
            try fastForward(from: nil, to: theirs, upstream, bringingIn: bringingIn, into: &outcome)
            return
        }
        if head == theirs { return }
        let base = try git("finding the common ancestor") { try repository.mergeBase(head, theirs) }
        if base == theirs { return }
        if base == nil, !allowUnrelatedHistories {
            throw TodoSyncError(
                "\(upstream.name) holds a history unrelated to this branch's (they share no commit); nothing was merged",
                hint:
                    "if it is the remote you meant and both hold lists to keep, merge them item by item (the items of both are kept; one typed on both sides is then listed twice): todosync sync --allow-unrelated-histories"
            )
        }
        if base == head {
            // Only a merge takes ours as just read: let go before the versions are read.
            recentlyRead = []
            try fastForward(from: head, to: theirs, upstream, into: &outcome)
        } else {
            // One reading pass for reading the versions and writing the merge: what gitattributes
            // say of a path is looked up once. (Not around a fast-forward: the commit after it
            // must read the attributes the fast-forward may have brought.)
            try readingPass { () throws(TodoSyncError) in
                try merge(ours: head, theirs: theirs, base: base, upstream, recentlyRead: &recentlyRead, into: &outcome)
            }
        }
    }

    private func fastForward(
        from old: OID?, to new: OID, _ upstream: Upstream,
        bringingIn: [String: (local: [UInt8], merged: [UInt8])] = [:],
        into outcome: inout SyncOutcome
    ) throws(TodoSyncError) {
        // The versions read are let go before the commit below reads the lists again.
        guard let (incoming, clashes) = try bringForward(from: old, to: new, upstream, bringingIn: bringingIn) else {
            return
        }
        outcome.fastForwardedTo = new
        outcome.incoming += incoming
        if !clashes.isEmpty {
            outcome.clashesCameIn += clashes
            outcome.clashesBroughtBy = try? git("reading commit \(new.short)") { try repository.commit(new) }.author
                .name
        }
        // Items added there with plain git get the ids every clone derives for them (not
        // where init brought a folder's own lists in: its own commit takes those, ids and all).
        guard bringingIn.isEmpty else { return }
        let adopted = try Trace.phase("commit ids for items added with plain git") { () throws(TodoSyncError) in
            try commit(summary: "Add ids to items added with plain git", kind: .adopt)
        }
        outcome.adoptCommit = adopted.commit
    }

    /// Moves the branch and the working tree to `new`; the item changes and the clashes that
    /// came in (nil: `new` is no commit).
    private func bringForward(
        from old: OID?, to new: OID, _ upstream: Upstream, bringingIn: [String: (local: [UInt8], merged: [UInt8])]
    ) throws(TodoSyncError) -> ([Change], [Clash])? {
        // Only the lists the remote's commits changed are read: the others stay as they are.
        let oldTree = try old.map { (id) throws(TodoSyncError) in
            try git("reading commit \(id.short)") { try repository.commit(id) }.tree
        }
        let among = try oldTree.map { (tree) throws(TodoSyncError) in
            try changedCandidates(
                from: tree, to: try git("reading commit \(new.short)") { try repository.commit(new) }.tree)
        }
        let read = try readingPass { () throws(TodoSyncError) in
            try sharingFiles(
                [try readCommit(new, among: among)]
                    + (try old.map { (id) throws(TodoSyncError) in [try readCommit(id, among: among)] } ?? []))
        }
        let after = read[0], before = read.count > 1 ? read[1] : nil
        guard let newCommit = after.commit else { return nil }
        Trace.note("lists brought forward: \(Set(after.files.keys).union(before?.files.keys ?? [:].keys).count)")
        let listPaths = Set(after.files.keys).union(before?.files.keys ?? [:].keys)
        var files: [WritePlan.FileWrite] = []
        for path in listPaths.sorted() where bringingIn[path] == nil {
            let (was, will) = (before?.files[path]?.bytes, after.files[path]?.bytes)
            if !sameBytes(was, will) { files.append(WritePlan.FileWrite(path: path, expected: was, final: will)) }
        }
        for (path, file) in bringingIn.sorted(by: { $0.key < $1.key }) {
            var write = WritePlan.FileWrite(path: path, expected: file.local, final: file.merged)
            write.differsFromCommit = !sameBytes(file.merged, after.files[path]?.bytes)
            files.append(write)
        }
        let changed = try git("comparing trees") { try repository.changedPaths(from: oldTree, to: newCommit.tree) }
        let plan = WritePlan(
            branch: upstream.localBranch, expectedHead: old, target: .existing(newCommit), files: files,
            otherFiles: (changed.filter { !listPaths.contains($0) && bringingIn[$0] == nil }, oldTree),
            updatesFilesOutsideSparseCheckout: true,
            reflogMessage: "todosync sync: fast-forward to \(upstream.name)")
        willWriteMerge?()
        _ = try apply(plan)
        return (
            ListSet.changes(from: before?.base.lists ?? ListSet(), to: after.base.lists),
            Self.newClashes(before?.base.lists, after.base.lists)
        )
    }

    /// The clashes `after` holds that `before` did not (told apart by file, item and kind, not
    /// by line: lines move as items are added above).
    static func newClashes(_ before: ListSet?, _ after: ListSet) -> [Clash] {
        let clashes = { (lists: ListSet) in lists.documents.values.filter(\.mayHoldClashes).flatMap(\.clashes) }
        let known = Set((before.map(clashes) ?? []).map { ClashKey($0) })
        return clashes(after).filter { !known.contains(ClashKey($0)) }
    }

    private struct ClashKey: Hashable {
        var file: String, item: ItemID?, kind: Clash.Kind
        init(_ clash: Clash) { (file, item, kind) = (clash.file, clash.item, clash.kind) }
    }

    /// The authors of the commits from `tip` back to `base` (most recent first, each once; a
    /// few dozen commits at most): who made one side's changes.
    func authors(from tip: OID, to base: OID?) -> [String] {
        var names: [String] = [], queue = [tip], seen = Set<OID>()
        while !queue.isEmpty, seen.count < 40 {
            let id = queue.removeFirst()
            guard id != base, seen.insert(id).inserted, let commit = try? repository.commit(id) else { continue }
            if !names.contains(commit.author.name) { names.append(commit.author.name) }
            queue += commit.parents
        }
        return names
    }

    private func merge(
        ours head: OID, theirs: OID, base: OID?, _ upstream: Upstream, recentlyRead: inout [WorkingFile],
        into outcome: inout SyncOutcome
    ) throws(TodoSyncError) {
        // Only the lists either side changed since the merge base are read and merged (as one
        // set, so an item moved between them keeps its identity); a list neither side changed
        // is the same in all three and stays as it is, in the tree and in the working tree.
        let sides = try Trace.phase("find the files either side changed") { () throws(TodoSyncError) -> ChangedSides? in
            guard let base else { return nil }
            let trees = try [base, head, theirs].map { (id) throws(TodoSyncError) in
                try git("reading commit \(id.short)") { try repository.commit(id) }.tree
            }
            return try git("comparing trees") {
                ChangedSides(
                    ours: try repository.changedPaths(from: trees[0], to: trees[1]),
                    theirs: try repository.changedPaths(from: trees[0], to: trees[2]))
            }
        }
        let selector = self.selector
        let among = sides.map { Set(($0.ours + $0.theirs).filter(selector.matches)) }
        var (ours, other, ancestor, unconverted) = try Trace.phase("read three commits' lists") {
            () throws(TodoSyncError) in
            try readingPass { () throws(TodoSyncError) in
                // Their version and the base's of a large list are read on other threads meanwhile.
                if let among {
                    let trees = try ([theirs] + (base.map { [$0] } ?? [])).map { (id) throws(TodoSyncError) in
                        try git("reading commit \(id.short)") { try repository.commit(id) }.tree
                    }
                    try readAhead(among, of: trees)
                }
                // Their version and the base differ from ours in what either side changed: their
                // parse reuses the rest of ours.
                let oursRead = try Trace.phase("read ours") { () throws(TodoSyncError) in
                    try readCommit(head, fromWorkingTree: true, among: among, recentlyRead: recentlyRead)
                }
                recentlyRead = []
                let theirsRead = try Trace.phase("read theirs") { () throws(TodoSyncError) in
                    try readCommit(theirs, among: among, parsedLike: oursRead)
                }
                let baseRead = try Trace.phase("read the base") { () throws(TodoSyncError) in
                    try base.map { (id) throws(TodoSyncError) in try readCommit(id, among: among, parsedLike: oursRead)
                    }
                }
                let read = try sharingFiles([oursRead, theirsRead] + (baseRead.map { [$0] } ?? []))
                // Lists whose bytes as read are their blobs' (git converts nothing on the way in).
                var unconverted = Set<String>()
                for path in Set(read[0].files.keys).union(read[1].files.keys) where try !convertsContent(at: path) {
                    unconverted.insert(path)
                }
                return (read[0], read[1], read.count > 2 ? read[2] : nil, unconverted)
            }
        }
        Trace.note(
            "lists merged: \(Set(ours.files.keys).union(other.files.keys).union(ancestor?.files.keys ?? [:].keys).count)"
        )
        var merged = Trace.phase("merge lists") {
            let baseLists = ancestor?.base.lists ?? ListSet()
            return ListMerge.merge(
                base: baseLists, ours: IDAssignment.recoverLostIDs(ours.base, base: baseLists),
                theirs: IDAssignment.recoverLostIDs(other.base, base: baseLists))
        }
        // Each version's parse is let go once nothing further reads it: for a large list, three
        // versions, their merge and its rendering are otherwise all held at once.
        ancestor?.base = .empty
        other.base = .empty
        guard let ourCommit = ours.commit, let theirCommit = other.commit else { return }

        var listPaths = Set(ours.files.keys).union(other.files.keys).union(merged.lists.documents.keys)
        if let ancestor { listPaths.formUnion(ancestor.files.keys) }
        let (otherFilesTree, taken) = try Trace.phase("merge other files") {
            () throws(TodoSyncError) -> (OID, [String]?) in
            if let sides,
                let taken = try takingTheirChanges(sides, ours: ourCommit, theirs: theirCommit, listPaths: listPaths)
            {
                return (taken.tree, taken.paths)
            }
            return (
                try mergeOtherFiles(base: ancestor, ours: ourCommit, theirs: theirCommit, listPaths: listPaths), nil
            )
        }
        let incoming = Trace.phase("describe incoming changes") {
            ListSet.changes(from: ours.base.lists, to: merged.lists)
        }
        ours.base = .empty

        // The merged tree is the other files' merge with every list as the merge made it.
        var lists: [String: [UInt8]?] = [:], modes: [String: UInt32] = [:], storedBlobs: [String: OID] = [:]
        var files: [WritePlan.FileWrite] = []
        for path in listPaths.sorted() {
            let bytes = merged.lists[path]?.render()
            lists[path] = .some(bytes)
            if let mode = ours.files[path]?.mode ?? other.files[path]?.mode { modes[path] = mode }
            // A list merged into one side's version (most: changed on that side alone) is that
            // side's blob, stored already: not hashed and stored again.
            if let bytes, unconverted.contains(path) {
                if sameBytes(bytes, ours.files[path]?.bytes) {
                    storedBlobs[path] = ours.blobs[path]
                } else if sameBytes(bytes, other.files[path]?.bytes) {
                    storedBlobs[path] = other.blobs[path]
                }
            }
            if !sameBytes(bytes, ours.files[path]?.bytes) {
                files.append(WritePlan.FileWrite(path: path, expected: ours.files[path]?.bytes, final: bytes))
            }
        }
        let reports = merged.reports
        (merged.lists, other, ancestor) = (ListSet(), HeadSnapshot(commit: nil, base: .empty, files: [:]), nil)
        var changed = taken ?? []
        if taken == nil {
            changed = try git("comparing trees") {
                try repository.changedPaths(from: ourCommit.tree, to: otherFilesTree)
            }
        }
        let message = Self.syncMessage(incoming, reports, upstream)
        let plan = WritePlan(
            branch: upstream.localBranch, expectedHead: head,
            target: .new(
                WritePlan.NewCommit(
                    parents: [head, theirs], baseTree: otherFilesTree, lists: lists, modes: modes, message: message,
                    storedBlobs: storedBlobs)),
            files: files, otherFiles: (changed.filter { !listPaths.contains($0) }, ourCommit.tree),
            updatesFilesOutsideSparseCheckout: true, reflogMessage: "todosync sync: merge \(upstream.name)")
        willWriteMerge?()
        outcome.mergeCommit = try apply(plan).commit
        outcome.incoming += incoming
        outcome.reports += reports
        if !reports.isEmpty { outcome.sideAuthors = (authors(from: head, to: base), authors(from: theirs, to: base)) }
    }

    /// The other files merged where each was changed on one side only, as git's merge takes
    /// them: theirs' changes applied to our tree, with the paths they touch. nil when git's
    /// merge has to decide: a file that is not a list changed on both sides, a file where the
    /// other side has a folder (or the reverse), or an entry that is no file (a submodule).
    private func takingTheirChanges(
        _ sides: ChangedSides, ours: Commit, theirs: Commit, listPaths: Set<String>
    ) throws(TodoSyncError) -> (tree: OID, paths: [String])? {
        let ourChanged = Set(sides.ours)
        let all = ourChanged.union(sides.theirs)
        for path in all {
            var folder = path[...]
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                if all.contains(String(folder)) { return nil }
            }
        }
        var changes: [String: TreeChange] = [:]
        for path in sides.theirs where !listPaths.contains(path) {
            guard !ourChanged.contains(path) else { return nil }
            let found = try git("reading \(path) in commit \(theirs.id.short)") {
                try repository.blobEntry(at: path, inTree: theirs.tree)
            }
            guard found.isBlob else { return nil }
            changes[path] = found.entry.map { .write(blob: $0.blob, mode: $0.mode) } ?? .delete
        }
        guard !changes.isEmpty else { return (ours.tree, []) }
        let tree = try git("writing the merged tree") { try repository.writeTree(base: ours.tree, applying: changes) }
        return (tree, changes.keys.sorted())
    }

    /// git's merge of everything but the lists (held at the base version on both sides, so
    /// only the item-by-item merge decides them): a tree, or a refusal naming the files.
    private func mergeOtherFiles(
        base: HeadSnapshot?, ours: Commit, theirs: Commit, listPaths: Set<String>
    ) throws(TodoSyncError) -> OID {
        try git("merging the other files") { () throws -> OID in
            var neutral: [String: TreeChange] = [:]
            for path in listPaths {
                if let blob = base?.blobs[path], let mode = base?.files[path]?.mode {
                    neutral[path] = .write(blob: blob, mode: mode)
                } else {
                    neutral[path] = .delete
                }
            }
            let ourNeutral = try repository.writeTree(base: ours.tree, applying: neutral)
            let theirNeutral = try repository.writeTree(base: theirs.tree, applying: neutral)
            let (tree, conflicts) = try repository.mergeTrees(
                base: base?.commit?.tree, ours: ourNeutral, theirs: theirNeutral)
            guard let tree else {
                throw TodoSyncError(
                    "git cannot merge \(conflicts.joined(separator: ", ")): both sides changed it and it is not a list; nothing was changed",
                    hint: "merge it with git (git pull, fix, git commit), then run todosync sync again")
            }
            return tree
        }
    }

    /// "Sync with origin/main: check "Milk", add "Tea"", the changes and clashes in the body.
    static func syncMessage(_ incoming: [Change], _ reports: [MergeReport], _ upstream: Upstream) -> CommitMessage {
        let prefix = "Sync with \(upstream.name)"
        var message = CommitMessage.describing(incoming, width: 72 - prefix.count - 2)
        if incoming.isEmpty {
            message = CommitMessage(summary: prefix)
        } else {
            let first = message.summary.prefix(1).lowercased() + message.summary.dropFirst()
            message.summary = "\(prefix): \(first)"
            if message.body.isEmpty { message.body = incoming.map { "- " + $0.phrase } }
        }
        if !reports.isEmpty {
            if !message.body.isEmpty { message.body.append("") }
            message.body.append("Clashes and kept items (nothing was lost):")
            message.body += reports.map { "- " + $0.description }
        }
        message.trailers = [UnitTrailer.line(.sync)]
        return message
    }
}
