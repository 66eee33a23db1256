import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Wall time and peak memory of one child process, spawned directly (no shell).
struct Run {
    var seconds: Double
    var maxRSSKilobytes: Int
}

enum Measure {
    static func spawn(_ arguments: [String], in directory: String) throws -> Run {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let previous = FileManager.default.currentDirectoryPath
        precondition(FileManager.default.changeCurrentDirectoryPath(directory), "cannot enter \(directory)")
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = DispatchTime.now().uptimeNanoseconds
        let result = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        guard result == 0 else { throw BenchError("cannot start \(arguments[0])") }
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard status == 0 else { throw BenchError("\(arguments.joined(separator: " ")) exited with status \(status)") }
        return Run(seconds: elapsed, maxRSSKilobytes: usage.ru_maxrss)
    }

    /// Several commands one after another, as one unit of work (e.g. `git add` then `git commit`).
    static func sequence(_ commands: [[String]], in directory: String) throws -> Run {
        var total = Run(seconds: 0, maxRSSKilobytes: 0)
        for command in commands {
            let run = try spawn(command, in: directory)
            total.seconds += run.seconds
            total.maxRSSKilobytes = max(total.maxRSSKilobytes, run.maxRSSKilobytes)
        }
        return total
    }

    /// Median of the samples.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// Time an in-process closure `repeats` times; the median seconds.
    static func inProcess(repeats: Int, _ body: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return median(samples)
    }

    /// Runs `body` once and prints its time and the page faults it took, for profiling.
    static func printTimeAndFaults(_ label: String, _ body: () -> Void) {
        let faults = minorFaults()
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        print("\(label):", milliseconds, "ms,", minorFaults() - faults, "page faults")
    }

    /// Page faults this process has taken so far (each costs microseconds here: PERFORMANCE.md).
    private static func minorFaults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_minflt
    }
}
