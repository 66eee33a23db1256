import Foundation

extension Bench {
    /// `todosync watch`: from the last save to the commit, at 10,000 items. The budget is the
    /// quiet period plus 100 ms (issue 32): the time watch itself adds.
    mutating func watch() throws {
        let repo = work + "/watch"
        let listText = Generate.list(items: bigList)
        try Generate.repository(at: repo, commits: 10, listText: listText)
        try shell("git", "config", "user.name", "Bench", in: repo)
        try shell("git", "config", "user.email", "bench@example.com", in: repo)
        var current = listText
        let latencies = try watchLatencies(in: repo) { run in
            let item = (run * 7_919 + 13) % bigList
            current = current.replacingOccurrences(of: "Task \(item):", with: "Task \(item) (edited \(run)):")
            // Saved as most editors save: a new file renamed over the list.
            try current.write(toFile: repo + "/TODO.md", atomically: true, encoding: .utf8)
        }
        watchRow("`todosync watch`: last save → commit, \(bigList) items, quiet period 1 s", latencies)
    }

    /// A row for watch's latencies (quiet period 1 s): the budget is the quiet period plus 100 ms.
    mutating func watchRow(_ work: String, _ latencies: [Double]) {
        let median = Measure.median(latencies)
        let added = (median - 1.0) * 1000
        row(
            work, String(format: "%.0f ms", median * 1000), "", String(format: "quiet + %.0f ms", added),
            "≤ quiet + 100 ms", added <= 100 ? "met" : "**missed**")
    }

    /// Runs `todosync watch --quiet-period 1s` in `repo` and times, `runs` times, from a save
    /// (`save(run)`) to the branch's move.
    func watchLatencies(in repo: String, save: (Int) throws -> Void) throws -> [Double] {
        let log = work + "/watch.out"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: todosync)
        process.arguments = ["watch", "--quiet-period", "1s"]
        process.currentDirectoryURL = URL(fileURLWithPath: repo)
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        // Ready once it said so (and committed anything there was).
        while !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Watching ") {
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 1.5)

        var latencies: [Double] = []
        for run in 0..<runs {
            let before = try head(of: repo)
            try save(run)
            let saved = Date()
            while try head(of: repo) == before { Thread.sleep(forTimeInterval: 0.002) }
            latencies.append(Date().timeIntervalSince(saved))
            Thread.sleep(forTimeInterval: 0.2)
        }
        return latencies
    }

    /// The branch's commit, read from its ref file as git keeps it (loose after a commit).
    private func head(of repo: String) throws -> String {
        let head = try String(contentsOfFile: repo + "/.git/HEAD", encoding: .utf8)
        let ref =
            head.hasPrefix("ref: ") ? String(head.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        guard let ref else { return head }
        return (try? String(contentsOfFile: repo + "/.git/" + ref, encoding: .utf8)) ?? ""
    }
}
