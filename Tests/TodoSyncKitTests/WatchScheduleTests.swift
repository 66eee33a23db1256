import Testing
import TestSupport
@testable import TodoSyncKit

/// The pure parts of `watch`: when it commits and syncs, and the durations it reads.
@Suite struct WatchScheduleTests {
    private let start = ContinuousClock.now
    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func aBurstIsCommittedOnceTheFilesAreQuiet() {
        var schedule = WatchSchedule(quietPeriod: .seconds(3), startedAt: start)
        for time in [0, 1000, 2500] { schedule.saw(saveAt: at(time)) }
        #expect(!schedule.commitIsDue(at: at(5400)))
        #expect(schedule.nextWake() == at(5500))
        #expect(schedule.commitIsDue(at: at(5500)))
        schedule.committed(startedAt: at(5500), succeeded: true, madeCommit: true, at: at(5550))
        #expect(!schedule.hasPendingSave)
        #expect(schedule.nextWake() == nil)
    }

    @Test func aSaveSeenAfterACommitBeganStaysPending() {
        var schedule = WatchSchedule(quietPeriod: .seconds(1), startedAt: start)
        schedule.saw(saveAt: at(0))
        schedule.saw(saveAt: at(1200))
        schedule.committed(startedAt: at(1000), succeeded: true, madeCommit: true, at: at(1300))
        #expect(schedule.hasPendingSave)
        #expect(schedule.nextWake() == at(2200))
    }

    @Test func aFailedCommitIsTriedAgainLaterAndLater() {
        var schedule = WatchSchedule(quietPeriod: .seconds(1), startedAt: start)
        schedule.saw(saveAt: at(0))
        schedule.committed(startedAt: at(1000), succeeded: false, madeCommit: false, at: at(1000))
        #expect(schedule.isFirstCommitFailure)
        #expect(schedule.nextWake() == at(31_000))
        schedule.committed(startedAt: at(31_000), succeeded: false, madeCommit: false, at: at(31_000))
        #expect(!schedule.isFirstCommitFailure)
        #expect(schedule.nextWake() == at(91_000))
        // A new save is committed after the quiet period, not the retry's wait.
        schedule.saw(saveAt: at(40_000))
        #expect(schedule.nextWake() == at(41_000))
        schedule.committed(startedAt: at(41_000), succeeded: true, madeCommit: true, at: at(41_000))
        #expect(schedule.isCommitSucceeding && !schedule.hasPendingSave)
    }

    @Test func syncRunsOnStartThenOnItsTimerAndBacksOffWhileTheRemoteIsDown() {
        var schedule = WatchSchedule(quietPeriod: .seconds(1), syncInterval: .seconds(60), startedAt: start)
        #expect(schedule.syncIsDue(at: at(0)))
        #expect(schedule.synced(succeeded: true, at: at(0)) == nil)
        #expect(schedule.nextWake() == at(60_000))
        #expect(schedule.synced(succeeded: false, at: at(60_000)) == .seconds(60))
        #expect(schedule.isFirstSyncFailure)
        #expect(schedule.synced(succeeded: false, at: at(120_000)) == .seconds(120))
        #expect(schedule.synced(succeeded: false, at: at(240_000)) == .seconds(240))
        for _ in 0..<20 { schedule.synced(succeeded: false, at: at(0)) }
        #expect(schedule.synced(succeeded: false, at: at(0)) == .seconds(3600))
        #expect(schedule.synced(succeeded: true, at: at(0)) == nil)
        #expect(schedule.isSyncSucceeding)
    }

    @Test func syncWaitsForSavesToSettleAndFollowsCommitsWhenAsked() {
        var schedule = WatchSchedule(quietPeriod: .seconds(2), syncsAfterCommit: true, startedAt: start)
        schedule.saw(saveAt: at(0))
        #expect(!schedule.syncIsDue(at: at(500)))
        schedule.committed(startedAt: at(2000), succeeded: true, madeCommit: true, at: at(2100))
        #expect(schedule.syncIsDue(at: at(2100)))
        schedule.synced(succeeded: true, at: at(2200))
        #expect(schedule.nextWake() == nil)
        schedule.saw(saveAt: at(3000))
        schedule.committed(startedAt: at(5000), succeeded: true, madeCommit: false, at: at(5000))
        #expect(!schedule.syncIsDue(at: at(5000)))
    }

    /// Against a naive reference: with saves at random times and a loop that sleeps until
    /// `nextWake`, every save ends in a commit that began after it, and no commit begins
    /// within the quiet period of a save.
    @Test(arguments: 0..<50 as Range<UInt64>) func everySaveIsCommittedAfterQuiet(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let quiet = Int.random(in: 50...500, using: &random)
        var saves = (0..<Int.random(in: 1...30, using: &random)).map { _ in Int.random(in: 0...5000, using: &random) }
            .sorted()
        var schedule = WatchSchedule(quietPeriod: .milliseconds(quiet), startedAt: start)
        var commits: [Int] = []
        var now = 0
        let allSaves = saves
        while true {
            if schedule.commitIsDue(at: at(now)) {
                commits.append(now)
                let duration = Int.random(in: 0...100, using: &random)
                // Saves that happen while the commit runs are seen after it.
                let during = saves.prefix { $0 <= now + duration }
                saves.removeFirst(during.count)
                schedule.committed(startedAt: at(now), succeeded: true, madeCommit: true, at: at(now + duration))
                now += duration
                for save in during { schedule.saw(saveAt: at(max(save, now))) }
                continue
            }
            let wake = schedule.nextWake().map {
                Int(
                    ($0 - start).components.seconds * 1000 + ($0 - start).components.attoseconds / 1_000_000_000_000_000
                )
            }
            guard let next = [wake, saves.first].compactMap({ $0 }).min() else { break }
            now = max(now, next)
            if let save = saves.first, save <= now {
                saves.removeFirst()
                schedule.saw(saveAt: at(save))
            }
        }
        for save in allSaves { #expect(commits.contains { $0 >= save }, "save at \(save) never committed") }
        for commit in commits {
            #expect(
                !allSaves.contains { $0 < commit && commit - $0 < quiet }, "commit at \(commit) within the quiet period"
            )
        }
        #expect(!schedule.hasPendingSave)
    }

    @Test func durationsReadAsTyped() {
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("3s") == .seconds(3))
        #expect(DurationText.parse("5m") == .seconds(300))
        #expect(DurationText.parse("1h30m") == .seconds(5400))
        #expect(DurationText.parse("2H") == .seconds(7200))
        for refused in ["", "3", "s", "5 m", "1.5s", "-3s", "3x", "m5"] {
            #expect(DurationText.parse(refused) == nil, "\(refused)")
        }
        for duration: Duration in [.milliseconds(1500), .seconds(3), .seconds(90), .seconds(3600), .seconds(5400)] {
            #expect(DurationText.parse(DurationText.describe(duration)) == duration)
        }
        #expect(DurationText.describe(.seconds(90)) == "1m30s")
    }
}
