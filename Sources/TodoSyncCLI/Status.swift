import ArgumentParser
import TodoSyncKit

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show, item by item, what changed since the last commit.",
        discussion: """
            Changes no list and makes no commit. Each line names what happened to one item and where it stands (file:line). Run `todosync` to commit what it shows.
            """)

    @OptionGroup var repository: RepositoryOption

    func run() throws {
        try Self.perform(in: repository.directory)
    }

    static func perform(in directory: String) throws {
        if let answer = Workspace.answerFromStamps(status: true, in: directory) {
            answer.forEach(Console.out)
            return
        }
        let workspace = try RepositoryOption.openWorkspace(at: directory)
        let unit = try runReportingErrors(on: workspace) { try workspace.pending() }
        var report = header(workspace)
        Console.warn(unit.diagnostics)
        if unit.isEmpty {
            guard let nothingYet = nothingYet(workspace) else {
                report.append("Nothing changed since the last commit.")
                report.forEach(Console.out)
                workspace.recordCleanState(unit, report: { report })
                return
            }
            (report + nothingYet).forEach(Console.out)
            return
        }
        report.forEach(Console.out)
        if unit.changes.isEmpty {
            Console.out(unit.idsToWrite > 0 ? "No item changed." : "No item changed; the text around the items did, in \(unit.changedPaths.joined(separator: ", ")).")
        } else {
            Console.out("Changes since the last commit (\(unit.changes.count)):")
            for change in unit.changes {
                let place = change.kind == .removed ? "was \(change.item.file):\(change.item.line)" : "\(change.item.file):\(change.item.line)"
                Console.out("  \(change.phrase)  (\(place))")
            }
        }
        if unit.idsToWrite > 0 {
            Console.out("\(unit.idsToWrite) item\(unit.idsToWrite == 1 ? "" : "s") need\(unit.idsToWrite == 1 ? "s" : "") an id.")
        }
        Console.out("Run todosync to commit \(unit.changes.isEmpty && unit.idsToWrite > 0 ? "the ids" : "these changes").")
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
        default: return "\(name) and this branch have diverged: \(ahead) and \(behind) commits apart: run todosync sync to merge."
        }
    }
}
