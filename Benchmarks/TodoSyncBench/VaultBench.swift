import Foundation

/// A vault of notes shaped like a real one (issue: vault scale): daily notes with 2-6 tasks,
/// project notes with nested tasks and notes, prose-only notes, code fences holding task-like
/// lines, about a third of the tasks with Obsidian Tasks fields; every task with an id, as
/// after `todosync init`; each note's times a day in the past, as a vault's are.
enum Vault {
    /// `ids` false: the tasks as a user wrote them, before `todosync init`.
    static func generate(at root: String, notes: Int, seed: UInt64 = 7, ids: Bool = true) throws {
        var random = SplitMix(seed: seed)
        let fields = [
            "", "", "", " ⏫", " 📅 2026-12-05", " 🔁 every week 📅 2026-12-01", " ⏳ 2026-11-30", " 🔽 🛫 2026-11-20",
        ]
        func id() -> String {
            let hex = Array("0123456789ABCDEF")
            var digits = (0..<32).map { _ in hex[Int(random.next() % 16)] }
            digits[12] = "4"
            digits[16] = hex[8 + Int(random.next() % 4)]
            let text = String(digits)
            let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
                String(
                    text[
                        text.index(
                            text.startIndex, offsetBy: range.lowerBound)..<text.index(
                                text.startIndex, offsetBy: range.upperBound)])
            }
            return parts.joined(separator: "-")
        }
        func task(_ title: String, done: Bool = false, indent: String = "") -> String {
            indent
                + "- [\(done ? "x" : " ")] \(title)\(fields[Int(random.next() % UInt64(fields.count))])\(ids ? " <!-- id: \(id()) -->" : "")\n"
        }
        let manager = FileManager.default
        for index in 0..<notes {
            let path: String, text: String
            switch index % 10 {
            case 0..<5:
                path = String(format: "daily/%04d/%02d/%05d.md", 2020 + index % 6, index % 12 + 1, index)
                var body = "# Daily \(index)\n\nWhat happened today, in a few sentences.\n\n"
                for number in 0..<(2 + Int(random.next() % 5)) {
                    body += task("Daily task \(index)-\(number)", done: random.next() % 3 == 0)
                }
                text = body + "\nMore thoughts at the end of the day.\n"
            case 5..<8:
                path = "projects/p\(index % 40)/note-\(index).md"
                var body = "# Project note \(index)\n\n## Tasks\n"
                for number in 0..<(3 + Int(random.next() % 6)) {
                    body += task("Project task \(index)-\(number)")
                    if number % 3 == 0 {
                        body += task("Sub task \(index)-\(number)", indent: "  ") + "    a note under it\n"
                    }
                }
                text = body + "\n```\n- [ ] not a task: in a code block\n```\n"
            default:
                path = "notes/\(index % 20)/prose-\(index).md"
                text =
                    "# Prose \(index)\n\n"
                    + String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 30) + "\n"
            }
            let full = root + "/" + path
            try manager.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: false, encoding: .utf8)
            let day = Date(timeIntervalSinceNow: -86_400 * Double(1 + index % 300))
            try manager.setAttributes([.modificationDate: day], ofItemAtPath: full)
        }
        try "*.md todosync\n".write(toFile: root + "/.gitattributes", atomically: false, encoding: .utf8)
    }

    /// The vault sync row's state in `pristine`: remote.git, cloned from `origin`, holding
    /// alice's checks in `edits` daily notes; bob's clone with renames in `edits` other daily
    /// notes, committed, not pushed.
    static func prepareSync(at pristine: String, origin: String, edits: Int) throws {
        try FileManager.default.createDirectory(atPath: pristine, withIntermediateDirectories: true)
        try shell("git", "clone", "-q", "--bare", origin, "remote.git", in: pristine)
        // Both clones before either edits: bob has not seen alice's push.
        for name in ["alice", "bob"] {
            try shell("git", "clone", "-q", pristine + "/remote.git", pristine + "/" + name, in: pristine)
        }
        for (name, first) in [("alice", 0), ("bob", edits)] {
            let clone = pristine + "/" + name
            try shell("git", "config", "user.name", name, in: clone)
            try shell("git", "config", "user.email", "\(name)@example.com", in: clone)
            for edit in first..<(first + edits) {
                // Daily notes are every tenth index from 0 to 4 (mod 10).
                let index = edit * 10
                let path =
                    clone + "/" + String(format: "daily/%04d/%02d/%05d.md", 2020 + index % 6, index % 12 + 1, index)
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let edited =
                    name == "alice"
                    ? text.replacingOccurrences(of: "- [ ] Daily task \(index)-", with: "- [x] Daily task \(index)-")
                    : text.replacingOccurrences(of: "Daily task \(index)-1", with: "Daily task \(index)-1 (renamed)")
                try edited.write(toFile: path, atomically: false, encoding: .utf8)
            }
            try shell("git", "commit", "-q", "-am", "\(name)'s edits", in: clone)
            if name == "alice" { try shell("git", "push", "-q", in: clone) }
        }
        try FileManager.default.removeItem(atPath: pristine + "/alice")
    }

    /// SplitMix64: the same vault on every machine.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

extension Bench {
    /// A vault of `notes` notes: the commit after a one-line edit in one note beside `git add -A
    /// && git commit`, and status with nothing changed beside `git status`.
    mutating func vault(notes: Int) throws {
        let origin = work + "/vault-\(notes)"
        try Vault.generate(at: origin, notes: notes)
        try shell("git", "init", "-q", "-b", "main", in: origin)
        try shell("git", "add", "-A", in: origin)
        try shell(
            "git", "-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "vault",
            in: origin)
        let ours = work + "/vault-ours", theirs = work + "/vault-git"
        for repo in [ours, theirs] {
            try shell("git", "clone", "-q", origin, repo, in: work)
            try shell("git", "config", "user.name", "Bench", in: repo)
            try shell("git", "config", "user.email", "bench@example.com", in: repo)
        }
        // A clone's files are new: back to a day ago, and git's index told (as in a vault in use).
        for repo in [ours, theirs] {
            try shell(
                "sh", "-c",
                "find . -path ./.git -prune -o -type f -exec touch -d '1 day ago' {} + && git update-index -q --refresh",
                in: repo)
        }
        _ = try Measure.spawn([todosync], in: ours)
        let note = String(format: "daily/%04d/%02d/%05d.md", 2020 + 10 % 6, 10 % 12 + 1, 10)
        let (commitOurs, commitGit) = try commits(
            ours: ours, theirs: theirs, git: [["git", "add", "-A"], ["git", "commit", "-q", "-m", "x"]]
        ) { run in
            for repo in [ours, theirs] {
                let path = repo + "/" + note
                let text = try String(contentsOfFile: path, encoding: .utf8)
                try text.replacingOccurrences(of: "Daily task 10-0", with: "Daily task 10-0 (edit \(run))").write(
                    toFile: path, atomically: false, encoding: .utf8)
            }
        }
        compare(
            "vault of \(notes) notes: `todosync` after a one-line edit in one note", commitOurs, commitGit,
            git: "`git add -A && git commit`", target: 1.5)

        let (statusOurs, statusGit) = try settledStatus(ours: ours, theirs: theirs)
        compare(
            "vault of \(notes) notes: `todosync status`, nothing changed", statusOurs, statusGit, git: "`git status`",
            target: 2.0)

        var listOurs: [Double] = [], listGit: [Double] = []
        try interleaved(runs: runs) {
            listOurs.append(try Measure.spawn([todosync, "list", "--open", "--json"], in: ours).seconds)
        } git: {
            listGit.append(try Measure.spawn(["git", "grep", "-n", "-e", "- \\[ \\]"], in: theirs).seconds)
        }
        compare(
            "vault of \(notes) notes: `todosync list --open --json`", listOurs, listGit,
            git: "`git grep -n -e '- \\[ \\]'`", target: 3.0)

        // The agenda and the calendar feed, beside `list --open --json` (issue 52): the feed
        // asked once before, so its blame cache is made (the first feed blames every note
        // with a dated item: a row of its own).
        try? FileManager.default.removeItem(atPath: ours + "/.git/todosync/cache/blame")
        let firstFeed = try Measure.spawn([todosync, "ics"], in: ours).seconds
        var agendaOurs: [Double] = [], feedOurs: [Double] = [], listAgain: [Double] = []
        try interleaved(runs: runs) {
            agendaOurs.append(try Measure.spawn([todosync, "agenda"], in: ours).seconds)
            feedOurs.append(try Measure.spawn([todosync, "ics"], in: ours).seconds)
        } git: {
            listAgain.append(try Measure.spawn([todosync, "list", "--open", "--json"], in: ours).seconds)
        }
        compare(
            "vault of \(notes) notes: `todosync agenda`", agendaOurs, listAgain, git: "`todosync list --open --json`",
            target: 1.5)
        compare(
            "vault of \(notes) notes: `todosync ics`", feedOurs, listAgain, git: "`todosync list --open --json`",
            target: 1.5)
        compare(
            "vault of \(notes) notes: `todosync ics`, the first (every dated note blamed)", [firstFeed], listAgain,
            git: "`todosync list --open --json`", target: nil)

        // An item command: one task of a project note checked (never checked before), beside
        // git committing a one-line edit (no budget: a reference).
        var doneOurs: [Double] = []
        for run in 0..<runs {
            doneOurs.append(try Measure.spawn([todosync, "done", "Project task \(10 * run + 5)-0"], in: ours).seconds)
        }
        compare(
            "vault of \(notes) notes: `todosync done <item>`", doneOurs, commitGit, git: "`git add -A && git commit`",
            target: nil)

        // watch: one daily note after another saved by rename, as editors save.
        let watched = try watchLatencies(in: ours) { run in
            // Notes whose index ends in 0-4 are daily notes.
            let index = 20 + run / 5 * 10 + run % 5
            let path = ours + "/" + String(format: "daily/%04d/%02d/%05d.md", 2020 + index % 6, index % 12 + 1, index)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "Daily task \(index)-0", with: "Daily task \(index)-0 (watched)").write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        watchRow("vault of \(notes) notes: `todosync watch`, last save → commit, quiet period 1 s", watched)

        try vaultSync(notes: notes, origin: origin)
        try vaultInit(notes: notes)
    }

    /// `todosync init .` adopting a vault whose tasks have no ids yet, beside `git init`, `git
    /// add -A` and `git commit` of the same notes (every note read and hashed, a fresh index).
    mutating func vaultInit(notes: Int) throws {
        let pristine = work + "/vault-init-pristine"
        try Vault.generate(at: pristine, notes: notes, ids: false)
        try FileManager.default.removeItem(atPath: pristine + "/.gitattributes")
        var copy = ""
        func fresh(_ name: String) throws -> String {
            copy = work + "/vault-init-" + name
            if FileManager.default.fileExists(atPath: copy) { try FileManager.default.removeItem(atPath: copy) }
            try shell("cp", "-a", pristine, copy, in: work)
            return copy
        }
        var ours: [Double] = [], theirs: [Double] = []
        try interleaved(runs: min(runs, 3)) {
            ours.append(try Measure.spawn([todosync, "init", "."], in: try fresh("todosync")).seconds)
        } git: {
            let folder = try fresh("git")
            theirs.append(
                try Measure.sequence(
                    [
                        ["git", "init", "-q"], ["git", "add", "-A"],
                        [
                            "git", "-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m",
                            "x",
                        ],
                    ],
                    in: folder
                ).seconds)
        }
        // What it prints, once more untimed (the budget: at most 40 lines and 4 KB).
        let printed = try shell(todosync, "init", ".", in: try fresh("todosync"))
        let lines = printed.split(separator: "\n").count
        compare(
            "vault of \(notes) notes: `todosync init .` adopting it (prints \(lines) lines, \(printed.utf8.count) bytes)",
            ours, theirs, git: "`git init && git add -A && git commit`", target: 5.0)
    }

    /// `todosync sync` beside `git pull --no-rebase && git push`: alice checked a task in 20
    /// daily notes and pushed; bob renamed a task in 20 other notes and committed. Each run
    /// works on fresh copies of bob's clone and the remote (copied untimed), in which todosync
    /// (or git) has looked at the files once, as in a clone in daily use.
    mutating func vaultSync(notes: Int, origin: String) throws {
        let pristine = work + "/vault-sync-pristine"
        let edits = 20
        try Vault.prepareSync(at: pristine, origin: origin, edits: edits)
        var copy = ""
        func fresh(_ name: String, settle: [String]) throws -> String {
            copy = work + "/vault-sync-" + name
            if FileManager.default.fileExists(atPath: copy) { try FileManager.default.removeItem(atPath: copy) }
            try shell("cp", "-a", pristine, copy, in: work)
            try shell("git", "remote", "set-url", "origin", copy + "/remote.git", in: copy + "/bob")
            try shell("git", "update-index", "-q", "--refresh", in: copy + "/bob")
            // A copy's files are new (their ctimes): left alone a moment, as a clone in daily use
            // is, before each tool looks at them once.
            Thread.sleep(forTimeInterval: 2.1)
            _ = try Measure.spawn(settle, in: copy + "/bob")
            return copy + "/bob"
        }
        func check() throws {
            let head = try shell("git", "rev-parse", "HEAD", in: copy + "/bob")
            let remote = try shell("git", "rev-parse", "main", in: copy + "/remote.git")
            guard head == remote else { throw BenchError("sync left the remote behind in \(copy)") }
            let parents = try shell("git", "log", "-1", "--format=%P", in: copy + "/bob").split(separator: " ").count
            let changed = try shell("git", "diff", "--name-only", "HEAD~1", "HEAD", in: copy + "/bob").split(
                separator: "\n"
            ).count
            guard parents == 2, changed == edits else {
                throw BenchError("no merge of \(edits) notes in \(copy) (\(parents) parents, \(changed) notes)")
            }
        }
        var ours: [Double] = [], theirs: [Double] = []
        try interleaved(runs: runs) {
            ours.append(
                try Measure.spawn([todosync, "sync"], in: try fresh("todosync", settle: [todosync, "status"])).seconds)
            try check()
        } git: {
            theirs.append(
                try Measure.sequence(
                    [["git", "pull", "-q", "--no-rebase", "--no-edit"], ["git", "push", "-q"]],
                    in: try fresh("git", settle: ["git", "status"])
                ).seconds)
            try check()
        }
        compare(
            "vault of \(notes) notes: `todosync sync`, \(edits) notes changed on each side, local bare remote", ours,
            theirs, git: "`git pull --no-rebase && git push`")
    }
}
