import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open git repository. Owns its libgit2 handle and frees it when released.
///
/// Not `Sendable`: libgit2 handles must not be shared between threads without locking.
public final class Repository {
    let pointer: OpaquePointer

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Wraps what a successful libgit2 open or init returned (which it promises is non-NULL).
    private static func wrap(_ pointer: OpaquePointer?, _ function: String) throws(GitError) -> Repository {
        guard let pointer else {
            throw GitError(code: -1, message: "libgit2 returned no repository", function: function)
        }
        let repository = Repository(pointer: pointer)
        try repository.readConfigAsGit()
        return repository
    }

    deinit { git_repository_free(pointer) }

    /// Opens the repository that holds `path`, searching parent folders as git does.
    public static func discover(from path: String) throws(GitError) -> Repository {
        Libgit2.ensureInitialized()
        var repo: OpaquePointer?
        try GitError.check(git_repository_open_ext(&repo, path, 0, nil), "git_repository_open_ext")
        return try wrap(repo, "git_repository_open_ext")
    }

    /// Opens the repository whose git directory is `gitDirectory` (no search).
    public static func open(gitDirectory: String) throws(GitError) -> Repository {
        Libgit2.ensureInitialized()
        var repo: OpaquePointer?
        try GitError.check(
            git_repository_open_ext(&repo, gitDirectory, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil),
            "git_repository_open_ext")
        return try wrap(repo, "git_repository_open_ext")
    }

    /// Creates a repository at `path` (folders included) whose first branch is `initialBranch`.
    public static func create(at path: String, initialBranch: String = "main") throws(GitError) -> Repository {
        Libgit2.ensureInitialized()
        var options = git_repository_init_options()
        try GitError.check(
            git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)),
            "git_repository_init_options_init")
        options.flags = GIT_REPOSITORY_INIT_MKPATH.rawValue
        let head = strdup("refs/heads/" + initialBranch)
        defer { free(head) }
        options.initial_head = UnsafePointer(head)
        var repo: OpaquePointer?
        try GitError.check(git_repository_init_ext(&repo, path, &options), "git_repository_init_ext")
        return try wrap(repo, "git_repository_init_ext")
    }

    /// The working tree's root, with a trailing slash; nil for a bare repository.
    public var workdir: String? { string(git_repository_workdir(pointer)) }

    /// The working tree's root without the trailing slash (the git directory of a bare one):
    /// where git runs hooks and helpers.
    var workTreeRoot: String {
        guard let workdir else { return gitDirectory }
        return workdir.hasSuffix("/") && workdir.count > 1 ? String(workdir.dropLast()) : workdir
    }

    /// The `.git` folder (for a linked worktree, its own folder inside the main one's).
    public var gitDirectory: String { string(git_repository_path(pointer)) ?? "" }

    /// The folder holding what all worktrees share (refs, objects, config), with a trailing slash.
    public var commonDirectory: String { string(git_repository_commondir(pointer)) ?? gitDirectory }

    /// Whether this is a shallow clone (`git clone --depth`): history ends at the commits
    /// `.git/shallow` names, whose parents are not here.
    public var isShallow: Bool { git_repository_is_shallow(pointer) == 1 }

    /// An operation git left unfinished, which todosync must not run through.
    public enum PendingOperation: Hashable, Sendable {
        case merge, revert, cherryPick, bisect, rebase, applyMailbox

        public var name: String {
            switch self {
            case .merge: "merge"
            case .revert: "revert"
            case .cherryPick: "cherry-pick"
            case .bisect: "bisect"
            case .rebase: "rebase"
            case .applyMailbox: "am"
            }
        }
    }

    public var pendingOperation: PendingOperation? {
        switch git_repository_state_t(UInt32(git_repository_state(pointer))) {
        case GIT_REPOSITORY_STATE_NONE: nil
        case GIT_REPOSITORY_STATE_MERGE: .merge
        case GIT_REPOSITORY_STATE_REVERT, GIT_REPOSITORY_STATE_REVERT_SEQUENCE: .revert
        case GIT_REPOSITORY_STATE_CHERRYPICK, GIT_REPOSITORY_STATE_CHERRYPICK_SEQUENCE: .cherryPick
        case GIT_REPOSITORY_STATE_BISECT: .bisect
        case GIT_REPOSITORY_STATE_APPLY_MAILBOX, GIT_REPOSITORY_STATE_APPLY_MAILBOX_OR_REBASE: .applyMailbox
        default: .rebase
        }
    }

    /// Where HEAD points.
    public enum Head: Hashable, Sendable {
        /// A branch with no commit yet (a new repository).
        case unborn(branch: String)
        case branch(String, commit: OID)
        case detached(OID)
    }

    public func head() throws(GitError) -> Head {
        if git_repository_head_unborn(pointer) == 1 {
            var ref: OpaquePointer?
            try GitError.check(git_reference_lookup(&ref, pointer, "HEAD"), "git_reference_lookup")
            defer { git_reference_free(ref) }
            let target = string(git_reference_symbolic_target(ref)) ?? "refs/heads/main"
            return .unborn(branch: String(target.dropFirst(target.hasPrefix("refs/heads/") ? 11 : 0)))
        }
        var ref: OpaquePointer?
        try GitError.check(git_repository_head(&ref, pointer), "git_repository_head")
        defer { git_reference_free(ref) }
        guard let target = git_reference_target(ref) else {
            throw GitError(code: -1, message: "HEAD does not point at a commit", function: "git_reference_target")
        }
        let oid = OID(target.pointee)
        if git_repository_head_detached(pointer) == 1 { return .detached(oid) }
        return .branch(string(git_reference_shorthand(ref)) ?? "HEAD", commit: oid)
    }

    /// Whether git would ignore `path` (relative to the working tree).
    public func isIgnored(_ path: String) throws(GitError) -> Bool {
        var ignored: Int32 = 0
        try GitError.check(git_ignore_path_is_ignored(&ignored, pointer, path), "git_ignore_path_is_ignored")
        return ignored == 1
    }
}

extension Repository {
    /// Opens the repository whose working tree (or git folder) is exactly `path`, without
    /// searching parent folders.
    public static func open(at path: String) throws(GitError) -> Repository {
        Libgit2.ensureInitialized()
        var repo: OpaquePointer?
        try GitError.check(
            git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil), "git_repository_open_ext"
        )
        return try wrap(repo, "git_repository_open_ext")
    }
}
