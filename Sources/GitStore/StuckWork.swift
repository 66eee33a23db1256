/// What happens when work inside libgit2 cannot finish: a read of the object database that
/// loops (`StuckReadGuard`) or a remote that stops answering (`SilenceWatchdog`).
///
/// libgit2 1.5's thread cannot be cancelled there, so the library cannot end the work; the
/// program using it decides. The command-line tool ends the process with the message (refs
/// move only once work has finished, and the next run finishes or undoes a stopped write);
/// an app may tell the user and keep running. With no handler, the stuck work waits, as it
/// would in libgit2 alone.
public enum StuckWork {
    /// Called once, on a background thread, with what to tell the user (an error line and a
    /// hint, ending in a line feed). Set once at start-up, before any git work.
    nonisolated(unsafe) public static var handler: (@Sendable (String) -> Void)?
}
