import Foundation
import TestSupport
import TodoModel

/// The item-history rows' repository: a list of `items` items with ids, then `commits` commits
/// made with `git fast-import` (no todosync), each editing one item. The traced item
/// (`HistoryState.traced`) is renamed, checked, given a due date, given notes, moved to
/// another file and given a priority along the way.
enum HistoryState {
    /// The traced item of a list of `items` items (item 4,242 of 10,000).
    static func traced(items: Int) -> ItemID { ItemID.named("bench-\(items * 4_242 / 10_000)") }
    /// The commits (0-based) that change the traced item, and what each does (at the tenths
    /// of the history).
    static func tracedEdits(commits: Int) -> [Int: String] {
        [1: "rename", 3: "check", 5: "due", 6: "notes", 7: "move", 9: "priority"].reduce(into: [:]) {
            $0[commits * $1.key / 10] = $1.value
        }
    }

    static func write(at path: String, commits: Int = 10_000, items: Int = 10_000) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try shell("git", "init", "-q", "-b", "main", in: path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "fast-import", "--quiet"]
        process.currentDirectoryURL = URL(fileURLWithPath: path)
        let input = Pipe()
        process.standardInput = input
        try process.run()
        let sink = input.fileHandleForWriting

        var todo = Generate.list(items: items).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var archive = ["# Archive", "", ""]
        let traced = traced(items: items), tracedEdits = tracedEdits(commits: commits)
        let tracedLine = todo.firstIndex { $0.contains(traced.description) }!
        var tracedAt: (file: Int, line: Int) = (0, tracedLine)
        var time = 1_780_000_000
        func emit(_ message: String, _ files: [(String, [String])]) {
            time += 60
            var chunk = "commit refs/heads/main\ncommitter Bench <bench@example.com> \(time) +0000\n"
            chunk += "data \(message.utf8.count)\n\(message)\n"
            for (name, lines) in files {
                let text = lines.joined(separator: "\n")
                chunk += "M 100644 inline \(name)\ndata \(text.utf8.count)\n\(text)\n"
            }
            sink.write(Data(chunk.utf8))
        }
        emit("Add the lists", [("TODO.md", todo), ("ARCHIVE.md", archive)])
        var random = SeededGenerator(seed: 7)
        for index in 0..<commits - 1 {
            if let edit = tracedEdits[index] {
                var lines = tracedAt.file == 0 ? todo : archive
                var line = lines[tracedAt.line]
                switch edit {
                case "rename": line = line.replacingOccurrences(of: "the thing", with: "renew the passport")
                case "check":
                    line =
                        line.contains("- [ ]")
                        ? line.replacingOccurrences(of: "- [ ]", with: "- [x]")
                        : line.replacingOccurrences(of: "- [x]", with: "- [ ]")
                case "due": line = line.replacingOccurrences(of: " <!-- id:", with: " 📅 2027-01-15 <!-- id:")
                case "priority":
                    for mark in [" ⏫", " 🔼", " 🔽"] { line = line.replacingOccurrences(of: mark, with: "") }
                    line = line.replacingOccurrences(of: " <!-- id:", with: " 🔺 <!-- id:")
                default: break
                }
                lines[tracedAt.line] = line
                if edit == "notes" { lines.insert("  Bring the old passport and two photos.", at: tracedAt.line + 1) }
                if edit == "move" {
                    let block = Array(lines[tracedAt.line...tracedAt.line + 1])
                    lines.removeSubrange(tracedAt.line...tracedAt.line + 1)
                    todo = lines
                    archive.insert(contentsOf: block, at: archive.count - 1)
                    tracedAt = (1, archive.count - 3)
                    emit("Move passport to the archive", [("TODO.md", todo), ("ARCHIVE.md", archive)])
                    continue
                }
                if tracedAt.file == 0 { todo = lines } else { archive = lines }
                emit("Passport: \(edit)", [(tracedAt.file == 0 ? "TODO.md" : "ARCHIVE.md", lines)])
                continue
            }
            // Any other item's line: a title edit or a check, as a day's units would.
            var target = Int(random.next() % UInt64(todo.count))
            while !todo[target].contains("<!-- id:") || todo[target].contains(traced.description) {
                target = (target + 1) % todo.count
            }
            if random.next() % 2 == 0 {
                todo[target] = todo[target].replacingOccurrences(of: " <!-- id:", with: " e\(index) <!-- id:")
            } else if todo[target].contains("- [ ]") {
                todo[target] = todo[target].replacingOccurrences(of: "- [ ]", with: "- [x]")
            } else {
                todo[target] = todo[target].replacingOccurrences(of: "- [x]", with: "- [ ]")
            }
            emit("Edit \(index)", [("TODO.md", todo)])
        }
        try sink.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("git fast-import failed in \(path)") }
        try shell("git", "reset", "-q", "--hard", "main", in: path)
    }
}

extension Bench {
    /// `todosync history <item>` in a 10,000-commit history of a 10,000-item list made with git
    /// fast-import, beside `git log -S<id>`: first run (no derived data) and asked again.
    mutating func history() throws {
        let commits = mode == .smoke ? 50 : 10_000, items = mode == .smoke ? 200 : 10_000
        let repo = work + "/history"
        try HistoryState.write(at: repo, commits: commits, items: items)
        let id = HistoryState.traced(items: items).description
        let cache = repo + "/.git/todosync/cache"
        let runs = min(self.runs, 5)
        var firstOurs: [Double] = [], againOurs: [Double] = [], pickaxe: [Double] = []
        try interleaved(runs: runs) { _ in
            try? FileManager.default.removeItem(atPath: cache)
        } ours: {
            firstOurs.append(try Measure.spawn([todosync, "history", String(id.prefix(8))], in: repo).seconds)
            againOurs.append(try Measure.spawn([todosync, "history", String(id.prefix(8))], in: repo).seconds)
        } git: {
            pickaxe.append(try Measure.spawn(["git", "log", "-S" + id, "--format=%h"], in: repo).seconds)
        }
        let shape = "\(commits) commits (git fast-import), \(items) items"
        compare("`todosync history <item>`, first run, \(shape)", firstOurs, pickaxe, git: "`git log -S<id>`")
        compare(
            "`todosync history <item>`, asked again, same repo", againOurs, pickaxe, git: "`git log -S<id>`",
            target: 0.1)
    }
}
