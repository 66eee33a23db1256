#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM turned into a readable descriptor (a pipe the signal handler writes a
/// byte to), so a waiting loop wakes up and finishes its work before exiting instead of dying
/// in the middle of it. A second signal ends the program at once, as usual.
public final class StopSignal: Sendable {
    /// Readable once SIGINT or SIGTERM arrived.
    public let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Catches SIGINT and SIGTERM from now on. Call once per process.
    public static func catchInterruptAndTerminate() throws(TodoSyncError) -> StopSignal {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw FileSystem.failure("cannot set up signal handling") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        stopPipeWriteEnd = ends[1]
        for signalNumber in [SIGINT, SIGTERM] {
            _ = signal(signalNumber) { received in
                var byte: UInt8 = 1
                _ = write(stopPipeWriteEnd, &byte, 1)
                _ = signal(received, SIG_DFL)
            }
        }
        // A parent may have blocked them, and a child inherits the mask (swift test does).
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        sigaddset(&unblocked, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        return StopSignal(descriptor: ends[0])
    }
}

/// Written only before the handlers are installed; read by them (a C handler captures nothing).
nonisolated(unsafe) private var stopPipeWriteEnd: Int32 = -1
