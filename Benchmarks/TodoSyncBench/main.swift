import Foundation
import TodoModel

// todosync-bench: every whole-command figure is taken beside the git CLI doing the same work in
// the same run, interleaved, as a ratio of medians. Inputs are generated, never checked in.
//
//   scripts/bench.sh            full run (minutes)
//   scripts/bench.sh --smoke    seconds, for CI: proves it builds and runs, no thresholds

enum Mode: String { case full, quick, smoke }

// `--parse-only`: parse a 100,000-item list 5 times and exit; for profiling the parser alone
// (valgrind --tool=callgrind .build/release/todosync-bench --parse-only).
// `--merge-only`: merge 100,000-item lists (1% edited per side) 3 times and exit; for profiling.
if CommandLine.arguments.dropFirst().first == "--merge-only" {
    let (base, ours, theirs) = Generate.mergeInputs(items: 100_000)
    for _ in 0..<3 { precondition(ListMerge.merge(base: base, ours: ours, theirs: theirs).reports.isEmpty) }
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "--parse-only" {
    let bytes = Array(Generate.list(items: 100_000).utf8)
    for _ in 0..<5 { precondition(ListDocument(path: "TODO.md", bytes: bytes).render().count == bytes.count) }
    exit(0)
}
let mode = CommandLine.arguments.dropFirst().first.flatMap { Mode(rawValue: String($0.drop { $0 == "-" })) } ?? .full
let runs = [Mode.full: 11, .quick: 5, .smoke: 1][mode]!
let listSizes = [Mode.full: [1_000, 10_000, 100_000], .quick: [1_000, 10_000], .smoke: [1_000]][mode]!
let bigList = mode == .smoke ? 1_000 : 10_000
let historyLength = mode == .smoke ? 10 : 1_000

let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
let todosync = binDirectory + "/todosync"
guard FileManager.default.isExecutableFile(atPath: todosync) else {
    FileHandle.standardError.write(Data("todosync-bench: build todosync first (it is looked for beside this program)\n".utf8))
    exit(1)
}
let work = FileManager.default.temporaryDirectory.appendingPathComponent("todosync-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }

var rows: [String] = []
@MainActor func row(_ cells: String...) { rows.append("| " + cells.joined(separator: " | ") + " |") }
func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f", a / b) }
func verdict(_ ok: Bool) -> String { ok ? "met" : "**missed**" }

// 1. Parse + render in process.
for size in listSizes {
    let bytes = Array(Generate.list(items: size).utf8)
    let seconds = Measure.inProcess(repeats: max(3, runs)) {
        let document = ListDocument(path: "TODO.md", bytes: bytes)
        precondition(document.render().count == bytes.count)
    }
    let rate = Double(bytes.count) / seconds / 1e6
    row("parse + render, \(size) items (\(bytes.count / 1024) KB)", String(format: "%.0f MB/s", rate), "", "", "≥ 300 MB/s", verdict(rate >= 300))
}

// 2 and 3. Commit after a one-line edit, and status with nothing changed.
let listText = Generate.list(items: bigList)
let origin = work + "/origin"
try Generate.repository(at: origin, commits: historyLength, listText: listText)
let ours = work + "/ours", theirs = work + "/git"
try shell("git", "clone", "-q", origin, ours, in: work)
try shell("git", "clone", "-q", origin, theirs, in: work)
for repo in [ours, theirs] {
    try shell("git", "config", "user.name", "Bench", in: repo)
    try shell("git", "config", "user.email", "bench@example.com", in: repo)
}
var current = listText
var commitOurs: [Double] = [], commitGit: [Double] = []
for run in 0..<runs {
    let item = (run * 7_919 + 13) % bigList
    current = current.replacingOccurrences(of: "Task \(item):", with: "Task \(item) (edited \(run)):")
    for repo in [ours, theirs] { try current.write(toFile: repo + "/TODO.md", atomically: false, encoding: .utf8) }
    // Alternate who goes first, so neither always meets a warm or cold cache.
    let order = run % 2 == 0 ? [true, false] : [false, true]
    for isOurs in order {
        if isOurs {
            commitOurs.append(try Measure.spawn([todosync], in: ours).seconds)
        } else {
            commitGit.append(try Measure.sequence([["git", "add", "TODO.md"], ["git", "commit", "-q", "-m", "x"]], in: theirs).seconds)
        }
    }
}
let commitRatio = Measure.median(commitOurs) / Measure.median(commitGit)
row("`todosync` after a one-line edit, \(bigList) items, \(historyLength) commits", ms(Measure.median(commitOurs)),
    ms(Measure.median(commitGit)) + " (`git add` + `git commit`)", ratio(Measure.median(commitOurs), Measure.median(commitGit)), "≤ 1.0", verdict(commitRatio <= 1.0))

var statusOurs: [Double] = [], statusGit: [Double] = []
for run in 0..<runs {
    let order = run % 2 == 0 ? [true, false] : [false, true]
    for isOurs in order {
        if isOurs { statusOurs.append(try Measure.spawn([todosync, "status"], in: ours).seconds) }
        else { statusGit.append(try Measure.spawn(["git", "status"], in: theirs).seconds) }
    }
}
let statusRatio = Measure.median(statusOurs) / Measure.median(statusGit)
row("`todosync status`, nothing changed, same repo", ms(Measure.median(statusOurs)), ms(Measure.median(statusGit)) + " (`git status`)",
    ratio(Measure.median(statusOurs), Measure.median(statusGit)), "≤ 1.0", verdict(statusRatio <= 1.0))

// Start-up alone, for reading the rows above.
var startOurs: [Double] = [], startGit: [Double] = []
for _ in 0..<runs {
    startOurs.append(try Measure.spawn([todosync, "--version"], in: work).seconds)
    startGit.append(try Measure.spawn(["git", "--version"], in: work).seconds)
}
row("start-up only (`--version`)", ms(Measure.median(startOurs)), ms(Measure.median(startGit)) + " (`git --version`)",
    ratio(Measure.median(startOurs), Measure.median(startGit)), "(reference)", "")

// Peak memory for the largest list, doing the full work of a pending edit.
let largest = listSizes.last!
let memoryRepo = work + "/memory"
let largeText = Generate.list(items: largest)
try Generate.repository(at: memoryRepo, commits: 2, listText: largeText)
try largeText.replacingOccurrences(of: "Task 1:", with: "Task 1 (edited):").write(toFile: memoryRepo + "/TODO.md", atomically: false, encoding: .utf8)
let memory = try Measure.spawn([todosync, "status"], in: memoryRepo)
let fileKB = largeText.utf8.count / 1024
row("peak memory, `todosync status` with an edit, \(largest) items", "\(memory.maxRSSKilobytes / 1024) MB",
    "file \(fileKB / 1024 > 0 ? "\(fileKB / 1024) MB" : "\(fileKB) KB")", String(format: "%.1f× the file", Double(memory.maxRSSKilobytes) / Double(fileKB)),
    "< 10× the file", verdict(Double(memory.maxRSSKilobytes) < 10 * Double(fileKB)))

row("`todosync undo` / `redo` / `log -n 20`, 100 vs 10,000 units", "pending", "", "", "≤ 1.3", "pending (undo: issue 4)")
// The three-way merge in process: 1% of the items edited on each side (renames on one, checks
// on the other), so the item-by-item path runs, not the unchanged-side shortcut.
var mergeSeconds: [Int: Double] = [:]
for size in [Mode.smoke: [1_000], .quick: [10_000], .full: [10_000, 100_000]][mode]! {
    let (base, oursSet, theirsSet) = Generate.mergeInputs(items: size)
    let seconds = Measure.inProcess(repeats: max(3, runs / 2)) {
        precondition(ListMerge.merge(base: base, ours: oursSet, theirs: theirsSet).reports.isEmpty)
    }
    mergeSeconds[size] = seconds
    let scale = mergeSeconds[size / 10].map { String(format: "%.1f× the %dk time", seconds / $0, size / 10_000) } ?? ""
    let ok = seconds < 1 && (mergeSeconds[size / 10].map { seconds / $0 <= 10 } ?? true)
    row("three-way merge, \(size) items, 1% edited per side (in process)", ms(seconds), "", scale, "≤ 10× the 10k time; < 1 s", verdict(ok))
}
row("`todosync sync`, 100 edits per side, 10,000 items", "pending", "`git pull` + `git push`", "", "≤ 1.0", "pending (not measured yet)")

print("Mode: \(mode.rawValue), \(runs) run(s) per figure, medians; machine: \(ProcessInfo.processInfo.activeProcessorCount) cores")
print("")
print("| work | todosync | git, same run | ratio | target | |")
print("| --- | --- | --- | --- | --- | --- |")
rows.forEach { print($0) }
