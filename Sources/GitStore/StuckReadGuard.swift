import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells `StuckWork.handler` when a read of the object database does not finish.
///
/// libgit2 1.5 loops forever inflating a truncated loose object (libgit2 issue 7342, fixed in
/// later releases), and a thread stuck in C cannot be cancelled. Reads of objects run under
/// this guard; one that outlasts `limit` (far beyond what reading the largest list takes) is
/// reported with a message naming `git fsck`. The command-line tool ends the process there,
/// which is safe: a write stopped at any step is finished or undone by the next run
/// (docs/RELIABILITY.md).
public enum StuckReadGuard {
    /// How long one read may take. Set once at start-up (tests shorten it), before any read.
    nonisolated(unsafe) public static var limit: Double = 60

    static func run<T, E: Error>(_ description: String, _ body: () throws(E) -> T) throws(E) -> T {
        let seconds = limit
        guard let handler = StuckWork.handler else { return try body() }
        let alarm = DispatchWorkItem {
            let program = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "git") } ?? "git"
            let message = """
                \(program): error: \(description) did not finish in \(Int(seconds)) s: an object in the repository is probably damaged (a truncated file in .git/objects)
                hint: run 'git fsck' to find it; restore it from another clone (git fetch) or a backup

                """
            handler(message)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: alarm)
        defer { alarm.cancel() }
        return try body()
    }
}

extension GitError {
    /// `check` for a libgit2 call that reads objects, under `StuckReadGuard`.
    @discardableResult
    static func checkReading(_ function: String, of what: String, _ call: () -> Int32) throws(GitError) -> Int32 {
        try StuckReadGuard.run(what) { () throws(GitError) in try check(call(), function) }
    }
}
