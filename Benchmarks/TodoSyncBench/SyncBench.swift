import Foundation

/// `todosync sync` against `git pull` + `git push` of the same edits: a bare remote holding a
/// list, one clone's edits pushed to it, another clone's edits committed and ready. Each run
/// works on fresh copies of that state (copied untimed), one for todosync and one for git.
extension Bench {
    mutating func sync() throws {
        let edits = mode == .smoke ? 10 : 100
        let pristine = work + "/sync-pristine"
        try FileManager.default.createDirectory(atPath: pristine, withIntermediateDirectories: true)
        try SyncSetup.prepare(pristine, items: bigList, editsPerSide: edits)
        var ours: [Double] = [], theirs: [Double] = []
        var copy = ""
        // Fresh copies each run (untimed): the state before the sync, for each side.
        func fresh(_ name: String) throws -> String {
            copy = work + "/sync-" + name
            if FileManager.default.fileExists(atPath: copy) { try FileManager.default.removeItem(atPath: copy) }
            try shell("cp", "-a", pristine, copy, in: work)
            try shell("git", "remote", "set-url", "origin", copy + "/remote.git", in: copy + "/bob")
            // A copy has new inodes: git's index would no longer vouch for any file, as it does
            // in the clone a user syncs from.
            try shell("git", "update-index", "-q", "--refresh", in: copy + "/bob")
            return copy + "/bob"
        }
        try interleaved(runs: runs) {
            ours.append(try Measure.spawn([todosync, "sync"], in: try fresh("todosync")).seconds)
            try SyncSetup.check(copy, editsPerSide: edits)
        } git: {
            theirs.append(
                try Measure.sequence(
                    [["git", "pull", "-q", "--no-rebase", "--no-edit"], ["git", "push", "-q"]], in: try fresh("git")
                ).seconds)
            try SyncSetup.check(copy, editsPerSide: edits)
        }
        compare(
            "`todosync sync`, \(edits) edits per side, \(bigList) items, local bare remote", ours, theirs,
            git: "`git pull` + `git push`")
    }
}

/// A bare remote holding a list and one clone's edits (checks), pushed; another clone (bob) with
/// edits of other items (renames), committed and not yet pushed: the state before bob syncs.
enum SyncSetup {
    /// remote.git holds the list plus alice's edits (checks); bob's clone holds his edits
    /// (renames of other items), committed, not yet pushed.
    static func prepare(_ path: String, items: Int, editsPerSide: Int) throws {
        let seed = path + "/seed"
        try Generate.repository(at: seed, commits: 2, listText: Generate.list(items: items))
        try shell("git", "clone", "-q", "--bare", seed, "remote.git", in: path)
        let stride = items / editsPerSide
        for name in ["alice", "bob"] {
            try shell("git", "clone", "-q", path + "/remote.git", path + "/" + name, in: path)
        }
        for (name, offset) in [("alice", 57 % stride), ("bob", 3 % stride)] {
            let clone = path + "/" + name
            try shell("git", "config", "user.name", name, in: clone)
            try shell("git", "config", "user.email", "\(name)@example.com", in: clone)
            let text = try String(contentsOfFile: clone + "/TODO.md", encoding: .utf8)
            var lines: [Substring] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                guard let number = Generate.taskNumber(line), number % stride == offset else {
                    lines.append(line); continue
                }
                lines.append(
                    name == "alice"
                        ? Substring(toggled(line))
                        : Substring(
                            line.replacingOccurrences(of: "Task \(number): ", with: "Task \(number) (renamed): ")))
            }
            try lines.joined(separator: "\n").write(toFile: clone + "/TODO.md", atomically: false, encoding: .utf8)
            try shell("git", "commit", "-q", "-am", "\(name)'s edits", in: clone)
            if name == "alice" { try shell("git", "push", "-q", in: clone) }
        }
        try FileManager.default.removeItem(atPath: seed)
        try FileManager.default.removeItem(atPath: path + "/alice")
    }

    private static func toggled(_ line: Substring) -> String {
        line.contains("- [ ]")
            ? line.replacingOccurrences(of: "- [ ]", with: "- [x]")
            : line.replacingOccurrences(of: "- [x]", with: "- [ ]")
    }

    /// Both tools must leave the remote at bob's new HEAD with both sides' edits in it.
    static func check(_ copy: String, editsPerSide: Int) throws {
        let head = try shell("git", "rev-parse", "HEAD", in: copy + "/bob")
        let remote = try shell("git", "rev-parse", "main", in: copy + "/remote.git")
        guard head == remote else { throw BenchError("sync left the remote behind in \(copy)") }
        let text = try String(contentsOfFile: copy + "/bob/TODO.md", encoding: .utf8)
        let renamed = text.components(separatedBy: "(renamed)").count - 1
        guard renamed == editsPerSide else { throw BenchError("\(renamed) renames, not \(editsPerSide), in \(copy)") }
        let parents = try shell("git", "log", "-1", "--format=%P", in: copy + "/bob").split(separator: " ").count
        guard parents == 2 else {
            let log = try shell("git", "log", "--graph", "--format=%h %s", "-5", in: copy + "/bob")
            throw BenchError("no merge commit in \(copy):\n\(log)")
        }
    }
}
