import GitStore

/// What the program using the engine decides for a workspace, passed in when it is opened
/// (`Workspace.open(at:configuration:)`): the library reads no switches of its own from the
/// environment (git's own variables stay read where git reads them). The todosync command
/// fills it from its environment switches (`TODOSYNC_LOCK_TIMEOUT`, …; docs/CLI.md).
public struct WorkspaceConfiguration: Sendable {
    /// How long a second writer waits for the first to release the write lock, in seconds.
    public var lockTimeout: Double = 10
    /// How long one read of git's objects may take before it is called stuck (a damaged
    /// object; `StuckWork`), in seconds.
    public var objectReadTimeout: Double = 60
    /// How long a remote may send nothing, in seconds as text (0: wait forever); nil: git's
    /// `todosync.remoteTimeout`, else a minute.
    public var remoteTimeout: String?
    /// A user name and password for https remotes (a token works as the password), tried
    /// after git's credential helpers.
    public var httpsUser: String?
    public var httpsPassword: String?

    var credentials: PasswordCredential? {
        guard let httpsUser, let httpsPassword else { return nil }
        return PasswordCredential(user: httpsUser, password: httpsPassword)
    }
    /// At most how many folders `watch` watches with inotify (tests: the system's limit).
    public var watchedFolderLimit: Int?
    /// Phase timings on standard error (`Trace`); the clean-state note is neither used nor
    /// written, so the timings are of the work itself.
    public var traces = false

    public init() {}
}

extension Workspace {
    /// What happens when work inside libgit2 cannot finish (a read of a damaged object, a
    /// remote gone silent): called once with the message for the user (`StuckWork`). Set once
    /// at start-up; with none, the stuck work waits.
    public static var stuckWorkHandler: (@Sendable (String) -> Void)? {
        get { StuckWork.handler }
        set { StuckWork.handler = newValue }
    }
}
