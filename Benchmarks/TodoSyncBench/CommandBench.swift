import Foundation

extension Bench {
    /// Commit after a one-line edit, status with nothing changed, and start-up alone, each
    /// beside git in a 10,000-item, 1,000-commit repository.
    mutating func commands() throws {
        let listText = Generate.list(items: bigList)
        let origin = work + "/origin"
        try Generate.repository(at: origin, commits: historyLength, listText: listText)
        let ours = work + "/ours", theirs = work + "/git"
        for repo in [ours, theirs] {
            try shell("git", "clone", "-q", origin, repo, in: work)
            try shell("git", "config", "user.name", "Bench", in: repo)
            try shell("git", "config", "user.email", "bench@example.com", in: repo)
        }
        var current = listText
        let (commitOurs, commitGit) = try commits(
            ours: ours, theirs: theirs, git: [["git", "add", "TODO.md"], ["git", "commit", "-q", "-m", "x"]]
        ) { run in
            // Each run retitles another item, in both clones.
            let item = (run * 7_919 + 13) % bigList
            current = current.replacingOccurrences(of: "Task \(item):", with: "Task \(item) (edited \(run)):")
            for repo in [ours, theirs] {
                try current.write(toFile: repo + "/TODO.md", atomically: false, encoding: .utf8)
            }
        }
        compare(
            "`todosync` after a one-line edit, \(bigList) items, \(historyLength) commits", commitOurs, commitGit,
            git: "`git add` + `git commit`", target: 1.3)

        let (statusOurs, statusGit) = try settledStatus(ours: ours, theirs: theirs)
        compare(
            "`todosync status`, nothing changed, same repo", statusOurs, statusGit, git: "`git status`", target: 3.0)

        // Plain `todosync` (as an editor's save hook runs it) with nothing changed: the same note.
        var idleOurs: [Double] = [], idleGit: [Double] = []
        try interleaved(runs: runs) {
            idleOurs.append(try Measure.spawn([todosync], in: ours).seconds)
        } git: {
            idleGit.append(try Measure.spawn(["git", "status"], in: theirs).seconds)
        }
        compare("`todosync` with nothing changed, same repo", idleOurs, idleGit, git: "`git status`", target: nil)

        // Without the note (just after a commit, or another change undone): the whole check.
        let note = ours + "/.git/todosync-clean-state"
        var firstOurs: [Double] = [], firstGit: [Double] = []
        try interleaved(runs: runs) { _ in
            try? FileManager.default.removeItem(atPath: note)
        } ours: {
            firstOurs.append(try Measure.spawn([todosync, "status"], in: ours).seconds)
        } git: {
            firstGit.append(try Measure.spawn(["git", "status"], in: theirs).seconds)
        }
        compare(
            "`todosync status`, nothing changed, no clean-state note yet", firstOurs, firstGit, git: "`git status`",
            target: nil)

        // One unit's item changes (the last retitle) beside git's own summary of the commit.
        var showOurs: [Double] = [], showGit: [Double] = []
        try interleaved(runs: runs) {
            showOurs.append(try Measure.spawn([todosync, "show"], in: ours).seconds)
        } git: {
            showGit.append(try Measure.spawn(["git", "show", "--stat", "HEAD"], in: theirs).seconds)
        }
        compare(
            "`todosync show`, a retitle, \(bigList) items", showOurs, showGit, git: "`git show --stat`", target: 1.3)

        var startOurs: [Double] = [], startGit: [Double] = []
        try interleaved(runs: runs) {
            startOurs.append(try Measure.spawn([todosync, "--version"], in: work).seconds)
        } git: {
            startGit.append(try Measure.spawn(["git", "--version"], in: work).seconds)
        }
        compare("start-up only (`--version`)", startOurs, startGit, git: "`git --version`", target: nil)
    }

    /// Each run makes the same edit in both clones (`edit`), then todosync commits it in `ours`
    /// and `git` (the commands) in `theirs`, in turns.
    func commits(
        ours: String, theirs: String, git: [[String]], edit: (Int) throws -> Void
    ) throws -> (ours: [Double], git: [Double]) {
        var timesOurs: [Double] = [], timesGit: [Double] = []
        try interleaved(runs: runs, prepare: edit) {
            timesOurs.append(try Measure.spawn([todosync], in: ours).seconds)
        } git: {
            timesGit.append(try Measure.sequence(git, in: theirs).seconds)
        }
        return (timesOurs, timesGit)
    }

    /// `todosync status` and `git status` with nothing changed, in turns. The clean-state note
    /// trusts only files left alone for 2 s; the first status after that writes it, as a
    /// user's first status after a commit would.
    func settledStatus(ours: String, theirs: String) throws -> (ours: [Double], git: [Double]) {
        Thread.sleep(forTimeInterval: 2.1)
        _ = try Measure.spawn([todosync, "status"], in: ours)
        var timesOurs: [Double] = [], timesGit: [Double] = []
        try interleaved(runs: runs) {
            timesOurs.append(try Measure.spawn([todosync, "status"], in: ours).seconds)
        } git: {
            timesGit.append(try Measure.spawn(["git", "status"], in: theirs).seconds)
        }
        return (timesOurs, timesGit)
    }

    /// Peak memory for the largest list, doing the full work of a pending edit.
    mutating func memory() throws {
        let largest = listSizes.last!
        let repo = work + "/memory"
        let text = try MemoryBench.prepare(repo, items: largest)
        let memory = try Measure.spawn([todosync, "status"], in: repo)
        let fileKB = text.utf8.count / 1024
        row(
            "peak memory, `todosync status` with an edit, \(largest) items", "\(memory.maxRSSKilobytes / 1024) MB",
            "file \(fileKB >= 1024 ? String(format: "%.1f MB", Double(fileKB) / 1024) : "\(fileKB) KB")",
            String(format: "%.1f× the file", Double(memory.maxRSSKilobytes) / Double(fileKB)),
            "< 10× the file", verdict(Double(memory.maxRSSKilobytes) < 10 * Double(fileKB)))
    }

    /// A row comparing medians; `target` nil marks a reference row with no target.
    mutating func compare(_ work: String, _ ours: [Double], _ git: [Double], git what: String, target: Double? = 1.0) {
        let (a, b) = (Measure.median(ours), Measure.median(git))
        row(
            work, ms(a), ms(b) + " (\(what))", ratio(a, b), target.map { "≤ \($0)" } ?? "(reference)",
            target.map { verdict(a / b <= $0) } ?? "")
    }
}

enum MemoryBench {
    /// A list of `items` items committed, then one title edited in the working file.
    @discardableResult
    static func prepare(_ repo: String, items: Int) throws -> String {
        let text = Generate.list(items: items)
        try Generate.repository(at: repo, commits: 2, listText: text)
        try text.replacingOccurrences(of: "Task 1:", with: "Task 1 (edited):").write(
            toFile: repo + "/TODO.md", atomically: false, encoding: .utf8)
        return text
    }
}
