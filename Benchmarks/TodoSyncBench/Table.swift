import Foundation

/// The settings every section reads, and the rows they add.
struct Bench {
    enum Mode: String { case full, quick, smoke }

    let mode: Mode
    let todosync: String
    let work: String
    /// `RUNS=n` sets it (a row near its budget needs more runs than the machine's noise).
    var runs: Int {
        ProcessInfo.processInfo.environment["RUNS"].flatMap { Int($0) } ?? [Mode.full: 11, .quick: 5, .smoke: 1][mode]!
    }
    var listSizes: [Int] { [Mode.full: [1_000, 10_000, 100_000], .quick: [1_000, 10_000], .smoke: [1_000]][mode]! }
    var bigList: Int { mode == .smoke ? 1_000 : 10_000 }
    var historyLength: Int { mode == .smoke ? 10 : 1_000 }

    private(set) var rows: [String] = []

    mutating func row(_ cells: String...) { rows.append("| " + cells.joined(separator: " | ") + " |") }
}

func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f", a / b) }
func verdict(_ ok: Bool) -> String { ok ? "met" : "**missed**" }

/// Runs both sides once per run, each first in turn, so neither always meets a warm or cold
/// cache; `prepare` sets up each run before either side.
func interleaved(
    runs: Int, prepare: (Int) throws -> Void = { _ in }, ours: () throws -> Void, git: () throws -> Void
) rethrows {
    for run in 0..<runs {
        try prepare(run)
        if run % 2 == 0 { try ours(); try git() } else { try git(); try ours() }
    }
}
