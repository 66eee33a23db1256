import Foundation

extension Bench {
    /// One list of a million items (issue: vault scale): the commit after a one-line edit,
    /// `done <item>` and `list --open --json`, against git committing a one-line edit of the
    /// same list; peak memory of each, of `status` and of a `sync` merging 100 edits a side
    /// (the sync row's state, a million items). Fresh copies of one repository each run, git's
    /// index refreshed in them, as in a repository in use.
    mutating func million(items: Int = 1_000_000) throws {
        let pristine = work + "/million"
        try MemoryBench.prepare(pristine, items: items)
        let fileKB =
            (try FileManager.default.attributesOfItem(atPath: pristine + "/TODO.md")[.size] as? Int ?? 0) / 1024
        // The edited list committed once by todosync: the state `done` and `list` start from.
        let committed = work + "/million-committed"
        _ = try shell("cp", "-a", pristine, committed, in: work)
        _ = try Measure.spawn([todosync], in: committed)
        func fresh(_ source: String, _ name: String) throws -> String {
            let copy = work + "/" + name
            try? FileManager.default.removeItem(atPath: copy)
            _ = try shell("cp", "-a", source, copy, in: work)
            _ = try shell("git", "update-index", "-q", "--refresh", in: copy)
            return copy
        }
        let syncing = work + "/million-sync"
        try? FileManager.default.removeItem(atPath: syncing)
        try FileManager.default.createDirectory(atPath: syncing, withIntermediateDirectories: true)
        try SyncSetup.prepare(syncing, items: items, editsPerSide: 100)
        let runs = mode == .smoke ? 1 : 3
        var commitOurs: [Double] = [], commitGit: [Double] = [], doneOurs: [Double] = [], listOurs: [Double] = [],
            firstListOurs: [Double] = []
        var peak: [String: Int] = [:]
        func note(_ name: String, _ run: Run) { peak[name] = max(peak[name] ?? 0, run.maxRSSKilobytes) }
        for run in 0..<runs {
            let ours = try fresh(pristine, "million-ours"), theirs = try fresh(pristine, "million-git")
            // Copied first, so its list is settled by the time it is listed (the cache records it).
            let listing = try fresh(committed, "million-list")
            let gitCommit = {
                try Measure.sequence([["git", "add", "TODO.md"], ["git", "commit", "-q", "-m", "edit"]], in: theirs)
            }
            if run % 2 == 0 {
                let measured = try Measure.spawn([todosync], in: ours)
                note("commit", measured)
                commitOurs.append(measured.seconds)
                commitGit.append(try gitCommit().seconds)
            } else {
                commitGit.append(try gitCommit().seconds)
                let measured = try Measure.spawn([todosync], in: ours)
                note("commit", measured)
                commitOurs.append(measured.seconds)
            }
            let checking = try fresh(committed, "million-done")
            let done = try Measure.spawn([todosync, "done", "Task \(items / 2 + 1):"], in: checking)
            note("done", done)
            doneOurs.append(done.seconds)
            let first = try Measure.spawn([todosync, "list", "--open", "--json"], in: listing)
            note("list", first)
            firstListOurs.append(first.seconds)
            let list = try Measure.spawn([todosync, "list", "--open", "--json"], in: listing)
            note("list", list)
            listOurs.append(list.seconds)
            note("status", try Measure.spawn([todosync, "status"], in: listing))
            let synced = work + "/million-synced"
            try? FileManager.default.removeItem(atPath: synced)
            _ = try shell("cp", "-a", syncing, synced, in: work)
            _ = try shell("git", "remote", "set-url", "origin", synced + "/remote.git", in: synced + "/bob")
            _ = try shell("git", "update-index", "-q", "--refresh", in: synced + "/bob")
            note("sync", try Measure.spawn([todosync, "sync"], in: synced + "/bob"))
            try SyncSetup.check(synced, editsPerSide: 100)
        }
        let what = "`git add` + `git commit` of a one-line edit"
        compare(
            "one list of \(items) items: `todosync` after a one-line edit", commitOurs, commitGit, git: what,
            target: 1.5)
        compare("one list of \(items) items: `todosync done <item>`", doneOurs, commitGit, git: what, target: 2.5)
        compare(
            "one list of \(items) items: `todosync list --open --json`, first (no items cache yet)", firstListOurs,
            commitGit, git: what, target: 2.5)
        compare(
            "one list of \(items) items: `todosync list --open --json`, items cache in place", listOurs, commitGit,
            git: what, target: 2.5)
        for name in ["commit", "done", "list", "status", "sync"] {
            let kilobytes = peak[name] ?? 0
            row(
                "one list of \(items) items: peak memory of `\(name)`", "\(kilobytes / 1024) MB",
                "file \(fileKB / 1024) MB",
                String(format: "%.1f× the file", Double(kilobytes) / Double(max(fileKB, 1))), "≤ 10× the file",
                verdict(kilobytes <= 10 * fileKB))
        }
    }
}
