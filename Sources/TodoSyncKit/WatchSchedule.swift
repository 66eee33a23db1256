/// When `watch` commits and syncs: a burst of saves becomes one unit once the files have been
/// quiet for `quietPeriod`; a sync runs on start, every `syncInterval` and (if asked) after
/// each commit; work that failed is tried again later and later, not in a loop.
///
/// A value with no clock and no I/O: the watch loop tells it what happened and when, and asks
/// what is due and how long it may sleep.
public struct WatchSchedule: Sendable {
    public typealias Instant = ContinuousClock.Instant

    public var quietPeriod: Duration
    /// nil: no periodic sync.
    public var syncInterval: Duration?
    public var syncsAfterCommit: Bool

    /// The newest save not yet taken into a commit.
    private(set) var lastSave: Instant?
    /// A commit that failed (a lock held long, a hook's refusal) is tried again then, even with no new save.
    private(set) var commitRetry: Instant?
    private(set) var nextSync: Instant?
    private var commitFailures = Backoff()
    private var syncFailures = Backoff()

    public init(
        quietPeriod: Duration, syncInterval: Duration? = nil, syncsAfterCommit: Bool = false, startedAt start: Instant
    ) {
        self.quietPeriod = quietPeriod
        self.syncInterval = syncInterval
        self.syncsAfterCommit = syncsAfterCommit
        if syncInterval != nil || syncsAfterCommit { nextSync = start }
    }

    /// Whether any save is waiting to be committed.
    public var hasPendingSave: Bool { lastSave != nil || commitRetry != nil }

    /// A list (or a folder holding lists) changed.
    public mutating func saw(saveAt time: Instant) {
        lastSave = time
    }

    public func commitIsDue(at now: Instant) -> Bool {
        if let lastSave, now >= lastSave + quietPeriod { return true }
        if let commitRetry, now >= commitRetry, lastSave == nil { return true }
        return false
    }

    public func syncIsDue(at now: Instant) -> Bool {
        guard let nextSync else { return false }
        // Saves still settling are committed first; the sync then carries them.
        return now >= nextSync && lastSave == nil
    }

    /// A commit attempt that began at `start` ended. Saves seen after `start` stay pending.
    public mutating func committed(startedAt start: Instant, succeeded: Bool, madeCommit: Bool, at now: Instant) {
        if let lastSave, lastSave <= start { self.lastSave = nil }
        if succeeded {
            commitFailures.reset()
            commitRetry = nil
            if madeCommit, syncsAfterCommit, syncFailures.failures == 0 { nextSync = now }
        } else {
            commitRetry = now + commitFailures.failed(base: max(quietPeriod, Self.shortestRetry))
        }
    }

    /// A sync ended. Returns how long until the next try when it failed.
    @discardableResult
    public mutating func synced(succeeded: Bool, at now: Instant) -> Duration? {
        if succeeded {
            syncFailures.reset()
            nextSync = syncInterval.map { now + $0 }
            return nil
        }
        let wait = syncFailures.failed(base: syncInterval ?? Self.shortestRetry)
        nextSync = now + wait
        return wait
    }

    public var isSyncSucceeding: Bool { syncFailures.failures == 0 }

    public var isCommitSucceeding: Bool { commitFailures.failures == 0 }

    /// Whether the sync that just failed is the first of a run of failures (the one reported).
    public var isFirstSyncFailure: Bool { syncFailures.failures == 1 }

    /// Whether the commit that just failed is the first of a run of failures.
    public var isFirstCommitFailure: Bool { commitFailures.failures == 1 }

    /// When the loop must wake up with no file event: the earliest due commit or sync.
    public func nextWake() -> Instant? {
        [lastSave.map { $0 + quietPeriod }, lastSave == nil ? commitRetry : nil, lastSave == nil ? nextSync : nil]
            .compactMap { $0 }.min()
    }

    /// The first wait after a failure when nothing sets it (a commit retry; a sync after commits only).
    static let shortestRetry: Duration = .seconds(30)
}

/// Waits that double after each failure in a row, up to an hour (or `base`, if longer).
struct Backoff: Sendable {
    private(set) var failures = 0

    static let longest: Duration = .seconds(3600)

    mutating func reset() { failures = 0 }

    /// Counts a failure; returns how long to wait before the next try.
    mutating func failed(base: Duration) -> Duration {
        failures += 1
        var wait = base
        for _ in 1..<failures {
            wait *= 2
            if wait >= Self.longest { break }
        }
        return min(wait, max(base, Self.longest))
    }
}
