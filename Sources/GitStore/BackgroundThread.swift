#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work on a POSIX thread of its own, joined before anything it wrote is read. (Dispatch would
/// do, but its start-up and thread pool are more than one short job needs.)
final class BackgroundThread {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    #if canImport(Glibc)
    private var thread = pthread_t()
    #else
    private var thread: pthread_t?
    #endif
    private var joined = false

    /// Starts `body`; nil if no thread could be made (the caller then does the work itself).
    init?(_ body: @escaping () -> Void) {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        #if canImport(Glibc)
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, job)
        #else
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, job)
        #endif
        guard result == 0 else {
            Unmanaged<Job>.fromOpaque(job).release()
            return nil
        }
    }

    /// Waits for the work to end. Safe to call more than once.
    func join() {
        guard !joined else { return }
        joined = true
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        if let thread { pthread_join(thread, nil) }
        #endif
    }

    deinit { join() }
}

/// A flag one thread raises and another checks now and then: a mutex, as `Atomic` needs macOS 15.
final class StopFlag: @unchecked Sendable {
    // NB: @unchecked: `raised` is read and written only under the mutex.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var raised = false

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    var isRaised: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return raised
    }

    func raise() {
        pthread_mutex_lock(mutex)
        raised = true
        pthread_mutex_unlock(mutex)
    }
}
