import Foundation
import TodoModel

extension Bench {
    /// `undo`, `redo` and `log -n 20` in a repository of 100 units and one of 10,000: the cost
    /// must not grow with history (ratio of medians, 10,000 over 100).
    mutating func undoRedoLog() throws {
        let sizes = mode == .smoke ? [10, 100] : [100, 10_000]
        var repos: [String] = []
        for units in sizes {
            let repo = work + "/units-\(units)"
            try Self.unitHistory(at: repo, units: units)
            repos.append(repo)
        }
        // The redo runs take back the undo runs' units, one each: every run does real work.
        for (name, command) in [("undo", ["undo"]), ("redo", ["redo"]), ("log -n 20", ["log", "-n", "20"])] {
            var small: [Double] = [], large: [Double] = []
            // NB: `interleaved` names its sides ours and git; here they are the two history lengths.
            try interleaved(runs: runs) {
                small.append(try Measure.spawn([todosync] + command, in: repos[0]).seconds)
            } git: {
                large.append(try Measure.spawn([todosync] + command, in: repos[1]).seconds)
            }
            if name != "log -n 20" {
                let subject = try shell("git", "log", "-1", "--format=%s", in: repos[1])
                guard subject.hasPrefix(name == "undo" ? "Undo: " : "Redo: ") else {
                    throw BenchError("\(name) made no commit: \(subject)")
                }
            }
            let (a, b) = (Measure.median(large), Measure.median(small))
            row(
                "`todosync \(name)`, \(sizes[1]) units vs \(sizes[0])", ms(a),
                ms(b) + " (at \(sizes[0]) units; no git equivalent)",
                ratio(a, b), "≤ 1.3", verdict(a / b <= 1.3))
        }
    }

    /// `todosync undo` beside Taskwarrior's `task undo`, each taking back the check of one
    /// open item of 10,000 (a list of `bigList` items; as many pending tasks imported into
    /// Taskwarrior). Skipped where Taskwarrior is not installed.
    mutating func undoAgainstTaskwarrior() throws {
        let label = "`todosync undo` of a check, \(bigList) items"
        guard (try? shell("task", "--version", in: self.work)) != nil else {
            row(label, "", "Taskwarrior not installed", "", "≤ 1.0", "skipped")
            return
        }
        let listText = Generate.list(items: bigList)
        let repo = self.work + "/undo-list"
        try Generate.repository(at: repo, commits: 2, listText: listText)
        try shell("git", "config", "user.name", "Bench", in: repo)
        try shell("git", "config", "user.email", "bench@example.com", in: repo)
        let open = listText.split(separator: "\n").first { $0.hasPrefix("- [ ] Task ") }.flatMap(Generate.taskNumber)!
        // Taskwarrior's own files, apart from the user's: rc:FILE names them on each command.
        let data = self.work + "/taskwarrior"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let rc = data + "/rc"
        try "data.location=\(data)\nconfirmation=off\nverbose=nothing\nhooks=off\n".write(
            toFile: rc, atomically: true, encoding: .utf8)
        var tasks = ""
        for n in 0..<bigList {
            tasks +=
                "{\"uuid\": \"\(ItemID.named("bench-\(n)"))\", \"description\": \"Task \(n): the thing\", \"status\": \"pending\", \"entry\": \"20261101T000000Z\"}\n"
        }
        try tasks.write(toFile: data + "/tasks.json", atomically: true, encoding: .utf8)
        try shell("task", "rc:" + rc, "import", data + "/tasks.json", in: data)
        var ours: [Double] = [], theirs: [Double] = []
        try interleaved(runs: runs) { _ in
            try shell(todosync, "done", "Task \(open):", in: repo)
            try shell("task", "rc:" + rc, "1", "done", in: data)
        } ours: {
            ours.append(try Measure.spawn([todosync, "undo"], in: repo).seconds)
        } git: {
            theirs.append(try Measure.spawn(["task", "rc:" + rc, "undo"], in: data).seconds)
        }
        let subject = try shell("git", "log", "-1", "--format=%s", in: repo)
        guard subject.hasPrefix("Undo: Check") else { throw BenchError("undo made no commit: \(subject)") }
        guard
            try shell("task", "rc:" + rc, "status:pending", "count", in: data).trimmingCharacters(
                in: .whitespacesAndNewlines) == "\(bigList)"
        else {
            throw BenchError("task undo left the tasks changed")
        }
        compare(label, ours, theirs, git: "Taskwarrior 2.6 `task undo`, \(bigList) tasks", target: 1.0)
    }

    /// A repository whose history is `units` todosync commands, each checking or unchecking one
    /// item of a 50-item list (made with git fast-import).
    static func unitHistory(at path: String, units: Int) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try shell("git", "init", "-q", "-b", "main", in: path)
        try shell("git", "config", "user.name", "Bench", in: path)
        try shell("git", "config", "user.email", "bench@example.com", in: path)
        var done = [Bool](repeating: false, count: 50)
        let ids = (0..<50).map { ItemID.named("unit-item-" + String($0)) }
        func list() -> String {
            done.indices.map { index in
                let box = done[index] ? "x" : " "
                return "- [\(box)] Item \(index) <!-- id: \(ids[index]) -->\n"
            }.joined()
        }
        var stream = ""
        var time = 1_780_000_000
        func data(_ text: String) -> String { "data \(text.utf8.count)\n\(text)\n" }
        var subjects = ["Add the list"]
        stream +=
            "commit refs/heads/main\nmark :1\ncommitter Bench <bench@example.com> \(time) +0000\n"
            + data("Add the list\n\nTodosync-Unit: adopt") + "M 100644 inline TODO.md\n" + data(list())
        for index in 0..<units {
            time += 60
            let item = (index * 7) % 50
            done[item].toggle()
            let subject = "\(done[item] ? "Check" : "Uncheck") \"Item \(item)\""
            subjects.append(subject)
            stream += "commit refs/heads/main\nmark :\(index + 2)\ncommitter Bench <bench@example.com> \(time) +0000\n"
            stream += data("\(subject)\n\nTodosync-Unit: command")
            stream += "M 100644 inline TODO.md\n" + data(list())
        }
        try shell("git", "fast-import", "--quiet", "--export-marks=marks", in: path, input: stream)
        // The branch's reflog as todosync leaves it when it made these units here (undo acts
        // on this clone's units): one line per commit, in git's reflog format.
        var commits = [String](repeating: "", count: subjects.count)
        for line in try String(contentsOfFile: path + "/marks", encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let mark = Int(parts[0].dropFirst()) else { continue }
            commits[mark - 1] = String(parts[1])
        }
        var reflog = ""
        var previous = String(repeating: "0", count: 40)
        for (index, commit) in commits.enumerated() {
            reflog +=
                "\(previous) \(commit) Bench <bench@example.com> \(1_780_000_000 + 60 * index) +0000\ttodosync: \(subjects[index])\n"
            previous = commit
        }
        try FileManager.default.createDirectory(
            atPath: path + "/.git/logs/refs/heads", withIntermediateDirectories: true)
        try Data(reflog.utf8).write(to: URL(fileURLWithPath: path + "/.git/logs/refs/heads/main"))
        try shell("git", "reset", "-q", "--hard", "main", in: path)
    }
}
