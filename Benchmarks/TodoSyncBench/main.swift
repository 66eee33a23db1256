import Foundation
import TodoModel

// todosync-bench: every whole-command figure is taken beside the git CLI doing the same work in
// the same run, interleaved, as a ratio of medians. Inputs are generated, never checked in.
//
//   scripts/bench.sh              full run (minutes)
//   scripts/bench.sh --quick      fewer sizes and runs
//   scripts/bench.sh --smoke      seconds, for CI: proves it builds and runs, no thresholds
//   scripts/bench.sh --sync-only  the sync row alone (quick settings), for working on sync
//   scripts/bench.sh --undo-only  the undo / redo / log rows alone
//   scripts/bench.sh --history-only the item-history rows alone (a 10,000-commit history)
//   scripts/bench.sh --watch-only the watch row alone (last save → commit)
//   scripts/bench.sh --parse-rows the parse + render rows alone (full sizes)
//   scripts/bench.sh --merge-rows the merge rows alone (full sizes, in turns, as in a full run,
//                                 with the linear-work reference: the lists cut into 1,000-item pieces)
//
// For profiling (valgrind --tool=callgrind or perf record on .build/release/todosync-bench):
//   --parse-only [N]   parse and render an N-item list (default 100,000) 5 times, printing each
//                      time and its page faults
//   --merge-only [N]   merge N-item lists (default 100,000; 1% edited per side) 7 times (REPS=n
//                      times; TRASH=1 sweeps 64 MB between merges, as the sizes taking turns do),
//                      printing each merge's time and page faults
//   --merge-notes-only [N] merge N small notes (default 2,000), one item edited a side, 3 times
//   --vault-sync-state DIR [N] write the vault sync row's starting state (N notes) into DIR
//   --vault-init-state DIR [N] write the vault init row's notes (N notes, no ids, no git) into DIR
//   --sync-state DIR [N]  write the sync row's starting state (remote.git, bob; N items) into DIR
//   --commit-state DIR write the commit / status rows' repository into DIR
//   --memory-state DIR write the memory row's repository (100,000 items, one edit) into DIR
//   --undo-state DIR [N] write the undo rows' repository (N units, default 10,000) into DIR
//   --history-state DIR [N] write the item-history rows' repository (N commits made with git
//                      fast-import, default 10,000, on a 10,000-item list) into DIR

let option = CommandLine.arguments.dropFirst().first.map { String($0.drop { $0 == "-" }) } ?? "full"
/// The item count given after a profiling option, 100,000 if none.
let profiledItems = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 100_000 : 100_000
if option == "merge-only" {
    let (base, ours, theirs) = Generate.mergeInputs(Generate.mergeTexts(items: profiledItems))
    for _ in 0..<(Int(ProcessInfo.processInfo.environment["REPS"] ?? "") ?? 7) {
        if ProcessInfo.processInfo.environment["TRASH"] != nil {
            var trash = [UInt8](repeating: 1, count: 64 << 20)
            for i in stride(from: 0, to: trash.count, by: 64) { trash[i] &+= 1 }
            precondition(trash[64] != 0)
        }
        Measure.printTimeAndFaults("merge") {
            precondition(ListMerge.merge(base: base, ours: ours, theirs: theirs).reports.isEmpty)
        }
    }
    exit(0)
}
if option == "merge-notes-only" {
    // A merge of N small notes (default 2,000), one item edited on each side: for profiling
    // the merge's cost per file.
    let notes = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 2_000 : 2_000
    func note(_ index: Int, _ edit: String) -> ListDocument {
        let id = { (n: Int) in
            "00000000-0000-4000-8000-"
                + String(String(n, radix: 16).reversed()).padding(toLength: 12, withPad: "0", startingAt: 0)
        }
        let text =
            "# Note \(index)\n\n- [ ] Task \(index)-a\(edit) <!-- id: \(id(2 * index)) -->\n- [ ] Task \(index)-b <!-- id: \(id(2 * index + 1)) -->\n"
        return ListDocument(path: "n\(index).md", bytes: Array(text.utf8))
    }
    let base = ListSet((0..<notes).map { note($0, "") })
    let ours = ListSet((0..<notes).map { note($0, $0 == 1 ? " ours" : "") })
    let theirs = ListSet((0..<notes).map { note($0, $0 == 2 ? " theirs" : "") })
    for _ in 0..<3 {
        Measure.printTimeAndFaults("merge") {
            precondition(ListMerge.merge(base: base, ours: ours, theirs: theirs).reports.isEmpty)
        }
    }
    exit(0)
}
if option == "parse-only" {
    let bytes = Array(Generate.list(items: profiledItems).utf8)
    for _ in 0..<5 {
        Measure.printTimeAndFaults("parse") {
            precondition(ListDocument(path: "TODO.md", bytes: bytes).render().count == bytes.count)
        }
    }
    exit(0)
}
if option == "commit-state", CommandLine.arguments.count > 2 {
    // The commit and status rows' repository: a 10,000-item list after 1,000 commits.
    try Generate.repository(at: CommandLine.arguments[2], commits: 1_000, listText: Generate.list(items: 10_000))
    exit(0)
}
if option == "memory-state", CommandLine.arguments.count > 2 {
    // The memory row's repository: a 100,000-item list (or the next argument's count),
    // committed, then one title edited.
    try MemoryBench.prepare(
        CommandLine.arguments[2],
        items: CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 100_000 : 100_000)
    exit(0)
}
if option == "undo-state", CommandLine.arguments.count > 2 {
    let units = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 10_000 : 10_000
    try Bench.unitHistory(at: CommandLine.arguments[2], units: units)
    exit(0)
}
if option == "vault-sync-state", CommandLine.arguments.count > 2 {
    // The vault sync row's starting state: remote.git and bob, in DIR (notes: 5,000 or the next argument).
    let directory = CommandLine.arguments[2],
        notes = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 5_000 : 5_000
    try Vault.generate(at: directory + "/origin", notes: notes)
    try shell("git", "init", "-q", "-b", "main", in: directory + "/origin")
    try shell("git", "add", "-A", in: directory + "/origin")
    try shell(
        "git", "-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "vault",
        in: directory + "/origin")
    try Vault.prepareSync(at: directory, origin: directory + "/origin", edits: 20)
    exit(0)
}
if option == "vault-init-state", CommandLine.arguments.count > 2 {
    // The vault init row's notes, as a user wrote them: no ids, no repository yet.
    let directory = CommandLine.arguments[2],
        notes = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 5_000 : 5_000
    try Vault.generate(at: directory, notes: notes, ids: false)
    try FileManager.default.removeItem(atPath: directory + "/.gitattributes")
    exit(0)
}
if option == "history-state", CommandLine.arguments.count > 2 {
    // The item-history rows' repository: 10,000 commits (or the next argument's count) made with
    // git fast-import on a 10,000-item list.
    try HistoryState.write(
        at: CommandLine.arguments[2],
        commits: CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 10_000 : 10_000)
    exit(0)
}
if option == "sync-state", CommandLine.arguments.count > 2 {
    // The sync row's starting state (remote.git and bob) in DIR: 10,000 items, or the next argument's count.
    let items = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 10_000 : 10_000
    try SyncSetup.prepare(CommandLine.arguments[2], items: items, editsPerSide: 100)
    exit(0)
}

let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
let todosync = binDirectory + "/todosync"
guard FileManager.default.isExecutableFile(atPath: todosync) else {
    FileHandle.standardError.write(
        Data("todosync-bench: build todosync first (it is looked for beside this program)\n".utf8))
    exit(1)
}
let work = FileManager.default.temporaryDirectory.appendingPathComponent("todosync-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }

var bench = Bench(
    mode: option == "merge-rows" || option == "parse-rows" ? .full : Bench.Mode(rawValue: option) ?? .quick,
    todosync: todosync, work: work)
if option == "sync-only" {
    try bench.sync()
} else if option == "undo-only" {
    try bench.undoRedoLog()
    try bench.undoAgainstTaskwarrior()
} else if option == "merge-rows" {
    bench.merge()
} else if option == "parse-rows" {
    bench.parseAndRender()
} else if option == "commands-only" {
    try bench.commands()
} else if option == "history-only" {
    try bench.history()
} else if option == "watch-only" {
    try bench.watch()
} else if option == "million-only" {
    try bench.million(items: CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 1_000_000 : 1_000_000)
} else if option == "vault-init-only" {
    try bench.vaultInit(notes: CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 5_000 : 5_000)
} else if option == "vault-only" {
    // `--vault-only 40000` for the larger vault.
    try bench.vault(notes: CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 5_000 : 5_000)
} else {
    bench.parseAndRender()
    try bench.commands()
    try bench.history()
    try bench.memory()
    try bench.undoRedoLog()
    try bench.undoAgainstTaskwarrior()
    bench.merge()
    try bench.sync()
    try bench.watch()
}

print(
    "Mode: \(option), \(bench.runs) run(s) per figure, medians; machine: \(ProcessInfo.processInfo.activeProcessorCount) cores"
)
print("")
print("| work | todosync | git, same run | ratio | target | |")
print("| --- | --- | --- | --- | --- | --- |")
bench.rows.forEach { print($0) }
