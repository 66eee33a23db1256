import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a remote may send nothing before a fetch or push gives up, and what to say then.
public struct SilenceLimit: Sendable {
    public var seconds: Double
    /// The error (and hint) printed when the process has to end: see `SilenceWatchdog`.
    public var message: String

    public init(seconds: Double, message: String) {
        self.seconds = seconds
        self.message = message
    }
}

/// Tells `StuckWork.handler` (once) when a remote reached through libgit2's own transports
/// (https, git://) stops answering.
///
/// libgit2 1.5 has no timeout of its own (`GIT_OPT_SET_SERVER_TIMEOUT` came in 1.7) and a
/// thread blocked in its socket read cannot be cancelled. Every sign of life (progress, a
/// remote's message, a credential asked for) re-arms the watchdog; silence for the limit is
/// reported. The command-line tool ends the process there, which changes nothing: refs move
/// only once a transfer has finished, and the write lock is released by the kernel. (Programs todosync runs for ssh and local
/// remotes time out gracefully instead: `ChildProcess`.)
///
/// NB: unchecked Sendable: its mutable state is touched only on its serial `queue`.
final class SilenceWatchdog: @unchecked Sendable {
    private let queue = DispatchQueue(label: "todosync.silence-watchdog")
    private let timer: DispatchSourceTimer
    // Touched only on `queue`.
    private var lastSign = DispatchTime.now()
    private var paused = false

    init(_ limit: SilenceLimit) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        let interval = min(1, limit.seconds / 4)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [unowned self] in
            let silent = Double(DispatchTime.now().uptimeNanoseconds - lastSign.uptimeNanoseconds) / 1e9
            guard !paused, silent >= limit.seconds else { return }
            let text = limit.message.hasSuffix("\n") ? limit.message : limit.message + "\n"
            timer.cancel()
            StuckWork.handler?(text)
        }
        timer.resume()
    }

    func noteSign() {
        queue.sync { lastSign = .now() }
    }

    /// Runs `body` unwatched (a credential helper may ask the user on the terminal).
    func pausing<T>(_ body: () -> T) -> T {
        queue.sync { paused = true }
        defer {
            queue.sync {
                paused = false; lastSign = .now()
            }
        }
        return body()
    }

    func stop() {
        timer.cancel()
    }
}
