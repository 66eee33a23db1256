import GitStore
import TodoModel

/// One whole change to the repository and its working files, computed before anything is
/// written: what every operation that writes (a commit of an editing session, item commands,
/// batch, undo, redo, a sync's merge and fast-forward, init) produces, and the only thing
/// `Workspace.apply` takes. Every expectation it carries is checked at the moment it matters.
struct WritePlan {
    /// A working list file to bring to new bytes, or to check.
    struct FileWrite: Equatable {
        var path: String
        /// What the file must still hold when it is replaced (nil: it must not exist).
        var expected: [UInt8]?
        /// What it will hold (nil: it is removed). Equal to `expected` for a file committed as
        /// it was read: it is only checked, so a save made meanwhile is never committed half-read.
        var final: [UInt8]?
        /// The commit drops the file from the tree and git's index while the working file
        /// keeps `final`: an untracked file a command made a list, given back by its undo.
        var untracks = false
        /// `final` is not what the commit holds (a folder's own lines brought in on top of the
        /// remote's file by init): git's index takes the commit's blob without vouching, by
        /// stat, that the file holds it, so the difference shows as an edit.
        var differsFromCommit = false

        var rewrites: Bool { !sameBytes(expected, final) }
    }

    /// The commit the branch moves to.
    enum Target {
        /// A new commit: the tree of `baseTree` with `lists` changed, on `parents`.
        case new(NewCommit)
        /// A commit that exists already (a fast-forward).
        case existing(Commit)
    }

    struct NewCommit {
        var parents: [OID]
        var baseTree: OID?
        /// Every list path whose content differs from `baseTree`: its new bytes (nil: removed).
        var lists: [String: [UInt8]?]
        /// Each list path's mode, for those `lists` writes (a regular file where none is given).
        var modes: [String: UInt32]
        var message: CommitMessage
        /// Blobs of `lists` already in the object database (stored ahead while the plan was
        /// worked out, as `git add` stores a file before `git commit`, or the one side's blob
        /// a merge took whole): not written again.
        var storedBlobs: [String: OID] = [:]
    }

    /// The branch moved, as a full reference name (`refs/heads/main`).
    var branch: String
    /// The commit the branch must still point at (nil: it has no commit yet).
    var expectedHead: OID?
    /// nil: nothing to commit; only files are written (ids repaired back to HEAD's bytes, or
    /// lists merged in the middle of a git merge, which `settles` stages).
    var target: Target?
    /// With no target: list files whose written version settles the conflict git's merge left
    /// on them, in git's index (as `git add` does; git's merge then commits them).
    var settles: [String: IndexConflict] = [:]
    /// List files, sorted by path.
    var files: [FileWrite]
    /// Files that are not lists, brought to the target's tree by git's checkout (which refuses
    /// where the user edited them since `baseline`): a sync's merge and fast-forward.
    var otherFiles: (paths: [String], baseline: OID?)?
    /// Whether files outside a sparse checkout that the plan changes are changed in git's index
    /// only, as git's own merge does (a sync); otherwise the plan is refused, naming them.
    var updatesFilesOutsideSparseCheckout = false
    /// Each list file's stat as it was read: git's index takes it for files committed as read.
    var readStats: [String: FileStat] = [:]
    /// The line the branch's reflog gets.
    var reflogMessage: String

    /// Whether applying it would change anything at all.
    var isEmpty: Bool { target == nil && !files.contains(where: \.rewrites) && otherFiles == nil && settles.isEmpty }
}

/// What `Workspace.apply` did.
struct AppliedPlan {
    /// The commit the branch now points at (nil: the plan made none).
    var commit: OID?
    /// The blob of each list file of the new commit that holds items, as committed.
    var listBlobs: [String: OID] = [:]
}

extension WritePlan {
    /// The steps of `Workspace.apply`, in the order it takes them: a crash test stops the
    /// process after each (`TODOSYNC_TEST_STOP_AFTER`), and the next run must converge.
    enum Step: String, CaseIterable, Sendable {
        /// The expectations about refs and git's locks held; nothing written yet.
        case checked
        /// Blobs, tree and commit are in the object database; nothing refers to them.
        case objects
        /// The journal names the commit, the branch's old value and each file's final blob.
        case journal
        /// Files that are not lists checked out.
        case otherFiles
        /// The first list file written (of several: the rest are not).
        case firstFile
        /// Every list file written.
        case files
        /// The branch points at the commit.
        case branch
        /// git's index holds the committed blobs with the written files' stats.
        case index
        /// The journal removed: the plan is done.
        case done
    }
}
