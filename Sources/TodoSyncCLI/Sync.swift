import ArgumentParser

import TodoModel
import TodoSyncKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Commit local edits, fetch, merge the remote's lists item by item, commit, push.",
        discussion: """
            The remote and branch are the current branch's upstream (git config branch.<name>.remote and .merge; `todosync init --remote URL` sets them up), or else the remote 'origin'. Addresses: a path or file:// (git's own upload-pack and receive-pack, so the remote's hooks run), ssh:// or user@host:path (your own ssh, as git runs it: ~/.ssh/config, agent, known_hosts), git://, and https:// (trust from http.sslCAInfo, credentials from git's credential helpers, then TODOSYNC_USERNAME and TODOSYNC_PASSWORD). docs/REMOTES.md has the details.

            The merge goes by item id and field, not by line: two people editing different items, or different fields of one item, never clash. A title renamed differently on both sides keeps this side's title and puts the other in the item's notes; lines both sides rewrote are kept twice between 'todosync clash' comments. Every clash is listed here and in the merge commit. Nothing is lost, and no git conflict markers are written.

            A remote whose history shares no commit with this branch (another repository at the same address, a second `todosync init`) is refused, as git refuses it; --allow-unrelated-histories merges the two anyway, keeping the items of both.

            If the remote moved while syncing, sync fetches and merges again (up to 3 times). If the remote cannot be reached, or sends nothing for a minute (git config todosync.remoteTimeout SECONDS), your local commit stays and sync exits with an error.

            Examples:
              todosync sync              commit, fetch, merge, push
              todosync sync --no-push    merge the remote's changes, push later
            """)

    @OptionGroup var repository: CommittingOptions

    @Flag(name: .customLong("push"), inversion: .prefixedNo, help: "Push the result to the remote.")
    var push = true

    @Flag(help: "Merge a remote whose history shares no commit with this branch (the items of both are kept).")
    var allowUnrelatedHistories = false

    @Flag(help: "Print a JSON object for scripts: what came in, clashes, whether it pushed (schema: docs/CLI.md).")
    var json = false

    func run() throws {
        let workspace = try repository.openWorkspace()
        let showProgress = Console.decorates(2)
        let handler: ((SyncProgress) -> Void)? = showProgress ? { Self.showProgress($0) } : nil
        let (push, unrelated) = (self.push, allowUnrelatedHistories)
        let outcome = try runReportingErrors(on: workspace) {
            try workspace.sync(push: push, allowUnrelatedHistories: unrelated, progress: handler)
        }
        if showProgress { Console.progress(nil) }
        if let advice = workspace.mergeDriverAdvice() { Console.warn(advice) }
        if json {
            Console.out(Self.json(outcome))
        } else {
            Self.tell(outcome, push: push)
        }
    }

    /// What a sync did, as one JSON object (docs/CLI.md).
    static func json(_ outcome: SyncOutcome) -> String {
        let local = outcome.localCommit.flatMap { local in
            local.commit.map { JSON.commit($0.description, summary: local.message.summary) }
        }
        return JSON.object([
            ("upstream", JSON.string(outcome.upstream.name)), ("localCommit", local ?? "null"),
            ("merge", JSON.commit(outcome.mergeCommit?.description)),
            ("fastForwardedTo", JSON.commit(outcome.fastForwardedTo?.description)),
            ("incoming", "[" + outcome.incoming.map { JSON.change($0) }.joined(separator: ",") + "]"),
            ("adoptCommit", JSON.commit(outcome.adoptCommit?.description)),
            ("clashes", JSON.strings(outcome.reports.map(\.description))),
            ("clashesCameIn", "[" + outcome.clashesCameIn.map(JSON.clash).joined(separator: ",") + "]"),
            ("pushed", outcome.pushed ? "true" : "false"), ("upToDate", outcome.isUpToDate ? "true" : "false"),
            ("warnings", JSON.strings(outcome.localCommit?.unit.diagnostics.map(\.description) ?? [])),
        ])
    }

    /// What a sync did, in words.
    static func tell(_ outcome: SyncOutcome, push: Bool) {
        if let local = outcome.localCommit, let commit = local.commit {
            Console.warn(local.unit.diagnostics)
            Console.out("Committed local edits [\(commit.short)] \(local.message.summary)")
        }
        let name = outcome.upstream.name
        if let merge = outcome.mergeCommit {
            Console.out("Merged \(name) [\(merge.short)]: \(Self.count(outcome.incoming.count, "change")) came in.")
        } else if let commit = outcome.fastForwardedTo {
            Console.out(
                "Fast-forwarded to \(name) [\(commit.short)]: \(Self.count(outcome.incoming.count, "change")) came in.")
        }
        for change in outcome.incoming.prefix(20) { Console.out("  \(change.phrase)") }
        if outcome.incoming.count > 20 {
            Console.out("  … and \(outcome.incoming.count - 20) more (git log -1 shows all)")
        }
        if let adopt = outcome.adoptCommit { Console.out("Wrote ids for items added with plain git [\(adopt.short)].") }
        if !outcome.reports.isEmpty {
            Console.out(Console.paint("Needs your eyes (nothing was lost):", .yellow))
            for report in outcome.reports { Console.out("  " + Console.paint("\(report)", .yellow)) }
            if let (here, there) = outcome.sideAuthors, !here.isEmpty || !there.isEmpty {
                Console.out("  Changed here by \(Self.names(here)); on \(name) by \(Self.names(there)).")
            }
        }
        if !outcome.clashesCameIn.isEmpty {
            let by = outcome.clashesBroughtBy.map { " (merged by \($0))" } ?? ""
            Console.out(Console.paint("Clashes came in\(by), both versions kept (nothing was lost):", .yellow))
            for clash in outcome.clashesCameIn { Console.out("  " + Console.paint(clash.description, .yellow)) }
        }
        if !outcome.reports.isEmpty || !outcome.clashesCameIn.isEmpty {
            Console.out(
                "  todosync status lists the clashes to settle; todosync settle <item> --keep 1, 2 or all settles one.")
        }
        if outcome.pushed {
            Console.out("Pushed to \(name).")
        } else if !push {
            Console.out("Not pushed (--no-push); run todosync sync to push.")
        }
        if outcome.isUpToDate {
            Console.out("Already in sync with \(name).")
        }
    }

    static func showProgress(_ progress: SyncProgress) {
        guard progress.total > 0 else { return }
        Console.progress("Transferring: \(progress.done)/\(progress.total) objects, \(progress.bytes / 1024) KiB")
    }

    /// "Ann", "Ann and Bob", "Ann, Bob and 2 others"; "someone" for none.
    static func names(_ names: [String]) -> String {
        switch names.count {
        case 0: return "someone"
        case 1: return names[0]
        case 2: return "\(names[0]) and \(names[1])"
        default: return "\(names[0]), \(names[1]) and \(count(names.count - 2, "other"))"
        }
    }

    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
