import ArgumentParser
import TodoModel
import TodoSyncKit

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show, item by item, what changed since the last commit.",
        discussion: """
            Changes no list and makes no commit. Each line names what happened to one item and where it stands (file:line). Run `todosync` to commit what it shows.
            """)

    @OptionGroup var repository: RepositoryOption
    @Flag(help: "Exit with status 2 when there is something to commit (0 when not), for scripts.") var exitCode = false
    @Flag(help: "Print a JSON object for scripts (schema: docs/CLI.md).") var json = false

    func run() throws {
        let pending = try Self.perform(in: repository.directory, json: json)
        if exitCode, pending { throw ExitCode(2) }
    }

    /// Reports what is pending; returns whether there is something to commit.
    @discardableResult
    static func perform(in directory: String, json: Bool = false) throws -> Bool {
        if !json,
            let answer = Workspace.answerFromStamps(
                status: true, in: directory, configuration: RepositoryOption.workspaceConfiguration)
        {
            answer.forEach(Console.out)
            return false
        }
        let workspace = try RepositoryOption.openWorkspace(at: directory)
        let unit = try runReportingErrors(on: workspace) { try workspace.pending() }
        if json {
            Console.out(Self.json(unit, workspace))
            return !unit.isEmpty
        }
        var report = header(workspace)
        let inProgress = workspace.operationInProgress()
        if let inProgress, !inProgress.listsInConflict.isEmpty {
            // The lists hold git's conflict markers: their "changes" are not worth listing.
            let paths = inProgress.listsInConflict.joined(separator: ", ")
            report.append("A git \(inProgress.operation) stopped with lists in conflict: \(paths).")
            report.append(
                "Run todosync resolve to merge them item by item, then \(Resolve.continuing(inProgress.operation)).")
            report.forEach(Console.out)
            return true
        }
        Console.warn(unit.diagnostics)
        report += clashLines(unit.clashes)
        if unit.isEmpty {
            guard let nothingYet = nothingYet(workspace) else {
                report.append("Nothing changed since the last commit.")
                report.forEach(Console.out)
                workspace.recordCleanState(unit, report: { report })
                return false
            }
            (report + nothingYet).forEach(Console.out)
            return false
        }
        report.forEach(Console.out)
        if unit.changes.isEmpty {
            Console.out(
                unit.idsToWrite > 0
                    ? "No item changed."
                    : "No item changed; the text around the items did, in \(unit.changedPaths.joined(separator: ", "))."
            )
        } else {
            Console.out("Changes since the last commit (\(unit.changes.count)):")
            for change in unit.changes {
                let place =
                    change.kind == .removed
                    ? "was \(change.item.file):\(change.item.line)" : "\(change.item.file):\(change.item.line)"
                Console.out("  \(change.phrase)  (\(place))")
            }
        }
        if unit.idsToWrite > 0 {
            Console.out(
                "\(unit.idsToWrite) item\(unit.idsToWrite == 1 ? "" : "s") need\(unit.idsToWrite == 1 ? "s" : "") an id."
            )
        }
        if let inProgress {
            Console.out(
                "A git \(inProgress.operation) is in progress: todosync commits once it is finished (\(Resolve.continuing(inProgress.operation)))."
            )
        } else {
            Console.out(
                "Run todosync to commit \(unit.changes.isEmpty && unit.idsToWrite > 0 ? "the ids" : "these changes").")
        }
        return true
    }

    /// The clashes a merge kept both ways and nobody has settled yet, each with its place.
    static func clashLines(_ clashes: [Clash]) -> [String] {
        guard !clashes.isEmpty else { return [] }
        var lines = ["Clashes to settle (\(clashes.count)): a merge kept both sides' versions:"]
        lines += clashes.map { "  " + $0.description }
        let byCommand = clashes.contains { $0.item != nil && $0.kind != .unfinished }
        lines.append(
            byCommand
                ? "Settle one with todosync settle <item> --keep 1, 2 or all (todosync settle --help), or edit the file and run todosync."
                : "Settle them by editing the file (keep the lines you want, delete the clash comments), then run todosync."
        )
        return lines
    }

    /// The report as one JSON object (docs/CLI.md).
    static func json(_ unit: PendingUnit, _ workspace: Workspace) -> String {
        let branch = (try? workspace.branch()) ?? nil
        let unborn = (try? workspace.unbornBranch()) ?? nil
        let divergence = unborn == nil ? try? workspace.divergence() : nil
        let upstream = divergence.map { divergence in
            JSON.object([
                ("name", JSON.string(divergence.upstream.name)),
                ("ahead", divergence.ahead.map(String.init) ?? "null"),
                ("behind", divergence.behind.map(String.init) ?? "null"),
            ])
        }
        return JSON.object([
            ("branch", branch.map(JSON.string) ?? "null"), ("upstream", upstream ?? "null"),
            ("clean", unit.isEmpty ? "true" : "false"),
            (
                "changes",
                "["
                    + unit.changes.map { JSON.change($0, hasID: !unit.idsNotYetWritten.contains($0.item.id)) }.joined(
                        separator: ",") + "]"
            ),
            ("idsToWrite", String(unit.idsToWrite)), ("changedFiles", JSON.strings(unit.changedPaths)),
            ("warnings", JSON.strings(unit.diagnostics.map(\.description) + workspace.notices)),
            ("clashes", "[" + unit.clashes.map(JSON.clash).joined(separator: ",") + "]"),
            (
                "gitOperation",
                workspace.operationInProgress().map {
                    JSON.object([
                        ("name", JSON.string($0.operation)), ("listsInConflict", JSON.strings($0.listsInConflict)),
                    ])
                } ?? "null"
            ),
        ])
    }

    /// The branch, and where it stands against its upstream: how a report starts.
    static func header(_ workspace: Workspace) -> [String] {
        let branch = (try? workspace.branch()) ?? nil
        var report = [branch.map { "On branch \($0)" } ?? "HEAD is detached"]
        // NB: a branch with no commits has nothing to set against its upstream (`nothingYet`).
        let unborn = (try? workspace.unbornBranch()) ?? nil
        if unborn == nil, let divergence = try? workspace.divergence() { report.append(describe(divergence)) }
        if let advice = workspace.mergeDriverAdvice() { report.append("Note: " + advice + ".") }
        return report
    }

    /// What `todosync` and `status` say, with nothing to commit, on a branch with no commits:
    /// where the lists are (a clone left on an empty branch), or that there are none yet; nil
    /// on a branch with commits.
    static func nothingYet(_ workspace: Workspace) -> [String]? {
        guard let unborn = (try? workspace.unbornBranch()) ?? nil else { return nil }
        if let advice = unborn.advice { return [advice + "."] }
        return ["No lists here yet: " + UnbornBranch.firstListHint + "."]
    }

    /// "Ahead of origin/main by 2 commits (as of the last sync)".
    static func describe(_ divergence: Divergence) -> String {
        let name = divergence.upstream.name
        guard let ahead = divergence.ahead, let behind = divergence.behind else {
            return "Syncs with \(name), not fetched yet: run todosync sync."
        }
        let plural = { (n: Int) in n == 1 ? "1 commit" : "\(n) commits" }
        switch (ahead, behind) {
        case (0, 0): return "Up to date with \(name) (as of the last sync)."
        case (_, 0): return "Ahead of \(name) by \(plural(ahead)) (as of the last sync): run todosync sync to push."
        case (0, _): return "Behind \(name) by \(plural(behind)) (as of the last sync): run todosync sync."
        default:
            return
                "\(name) and this branch have diverged: \(ahead) and \(behind) commits apart: run todosync sync to merge."
        }
    }
}
