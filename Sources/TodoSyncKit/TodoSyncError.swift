import GitStore

/// Why todosync stopped: one line saying what happened, and a hint saying what to do.
/// Whenever this is thrown, the repository and the list files are as they were.
public struct TodoSyncError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String?
    /// A file changed between reading and writing it: running again takes the new edit in.
    public var isChangedMeanwhile = false
    /// A commit it needed lies beyond a shallow clone's history.
    public var isBeyondShallowHistory = false
    /// The system's limit of watched folders is reached (inotify): watch mode looks at the
    /// files instead.
    var isWatchLimitReached = false

    /// Any URL in the message or hint is kept without its password or token (the one place
    /// errors are made safe to show; the CLI's console is the other, for everything it prints).
    public init(_ message: String, hint: String? = nil) {
        self.message = Credentials.removed(from: message)
        self.hint = hint.map(Credentials.removed(from:))
    }

    /// What to do when the disk is full (or a file too large for the system).
    static let outOfSpaceHint =
        "free some space on the disk (or raise the quota), then run todosync again: what is written so far is kept, nothing is lost"

    public var description: String { hint.map { "\(message)\nhint: \($0)" } ?? message }

    static func git(_ error: GitError, while action: String) -> TodoSyncError {
        if error.isBeyondShallowHistory {
            var shallow = TodoSyncError(
                "\(action) failed: this clone has shallow history (made with git clone --depth), and that commit lies beyond it",
                hint: "fetch the whole history, then run the command again: git fetch --unshallow")
            shallow.isBeyondShallowHistory = true
            return shallow
        }
        if error.isOutOfSpace {
            return TodoSyncError(
                "\(action) failed: \(error.message)", hint: TodoSyncError.outOfSpaceHint)
        }
        let message = error.message.lowercased()
        let what: String
        if message.contains("permission denied") || message.contains("read-only file system") {
            what =
                "check who owns the repository's .git folder and its permissions (ls -ld .git .git/objects): todosync writes where git does"
        } else if message.contains(".lock") {
            what =
                "another git or todosync may be at work here: let it finish; a .lock file it left behind after a crash can be removed"
        } else {
            what = "run the command again; if it fails again, git fsck says whether the repository is damaged"
        }
        return TodoSyncError(
            "\(action) failed: \(error.message)", hint: "\(what) (libgit2's \(error.function), code \(error.code))")
    }
}

/// Runs a git-layer call, turning its error into one that says what todosync was doing.
@discardableResult
func git<T>(_ action: String, _ body: () throws -> T) throws(TodoSyncError) -> T {
    do {
        return try body()
    } catch let error as GitError {
        throw .git(error, while: action)
    } catch let error as TodoSyncError {
        throw error
    } catch {
        throw TodoSyncError(
            "\(action) failed: \(error)",
            hint: "run the command again; if it fails again, git fsck says whether the repository is damaged")
    }
}
