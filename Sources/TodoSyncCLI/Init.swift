import ArgumentParser
import TodoSyncKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a repository of lists, or adopt an existing one.",
        discussion: """
            Creates a git repository in <dir> if there is none (branch main), writes a short example TODO.md if the folder holds no list, gives every item an id and commits.

            In an existing folder it adopts the Markdown files that hold task items, names them, and records which files are lists in .gitattributes (committed, so every clone agrees):
              - a folder of lists: `*.md todosync`, so every Markdown file with task items is a list, now and later;
              - a software project (a .github folder, a LICENSE, a build file, a CHANGELOG.md…): only the files adopted now, one line each (`/docs/plan.md todosync`).
            A project's own documents (files in dot-folders such as .github, templates, CHANGELOG.md, CONTRIBUTING.md…) are left alone, even when they hold checkboxes.

            A vault of thousands of notes is summed up per top-level folder (--verbose names every file); on a terminal, one line shows how far the adoption got.

            Which files are lists, at any time: every TODO.md (even empty), files the todosync attribute marks that hold task items, and files that carry todosync ids; never a file marked -todosync in .gitattributes, nor README.md. Ask git: git check-attr todosync -- FILE.

            Examples:
              todosync init ~/lists
              todosync init ~/lists --remote git@example.com:me/lists.git

            In every clone, init also sets up todosync's merge driver: .gitattributes hands Markdown files to it (`*.md merge=todosync`, committed) and the clone's git config says how to run it (merge.todosync.driver, which git never copies: in a plain git clone the first todosync command sets it up). Then git pull, git merge, git rebase and git cherry-pick merge lists item by item, as sync does; files that are not lists get git's own line merge.

            With --remote, init fetches first: a remote that holds lists is taken in as `git clone` would (no example list is written); an empty one gets the first commit pushed. A remote whose history is unrelated to a repository already here is refused, as sync refuses it. A folder that is no repository yet may hold lists of its own: a file the remote lacks is adopted; a Markdown file the remote also has becomes the remote's, with this folder's items and text that it lacks appended (nothing doubled, nothing lost), committed as one unit and reported. If init cannot finish (the remote is unreachable, another kind of file is in the way), the repository it began is taken away again.
            """)

    @Argument(help: "The folder for the lists (created if missing).")
    var directory: String = "."

    @Option(help: ArgumentHelp("Set up <url> as the remote 'origin' that sync uses.", valueName: "url"))
    var remote: String?

    @Flag(
        name: .shortAndLong,
        help: "Name every file adopted (a vault's thousands too), not only how many each folder holds.")
    var verbose = false

    @Flag(
        name: .customLong("no-verify"),
        help: "Skip the pre-commit, commit-msg and pre-push hooks, as git commit --no-verify does.")
    var noVerify = false

    func run() throws {
        // How a long adoption is getting on, on a terminal: one line rewritten in place, cleared
        // before the summary.
        let showsProgress = Console.decorates(2)
        let outcome = try runReportingErrors {
            defer { if showsProgress { Console.progress(nil) } }
            return try Workspace.initialize(
                at: directory, remote: remote, runsHooks: !noVerify, executable: Self.executable,
                configuration: RepositoryOption.workspaceConfiguration,
                progress: showsProgress ? { Console.progress($0) } : nil)
        }
        Console.warn(outcome.commit.unit.diagnostics)
        if let warning = outcome.commit.identityWarning { Console.warn(warning) }
        Console.out(
            outcome.createdRepository
                ? "Created a git repository in \(outcome.root)" : "Using the git repository in \(outcome.root)")
        if outcome.createdExampleList { Console.out("Wrote an example list: TODO.md") }
        for line in Self.summary("Lists", outcome.lists, verbose: verbose) { Console.out(line) }
        Console.out(
            outcome.isProject
                ? "  a software project: only these files and any TODO.md are lists (recorded in .gitattributes)"
                : "  every Markdown file with task items is a list (.gitattributes: *.md todosync)")
        if !outcome.leftAlone.isEmpty {
            for line in Self.summary(
                "Left alone, not lists (a project's own documents)", outcome.leftAlone, verbose: verbose)
            { Console.out(line) }
            Console.out(
                "  to make one a list: give it the line '/PATH todosync' in .gitattributes (no '-'), then run todosync")
        }
        if let remote = outcome.remote { Console.out("Remote origin: \(remote)") }
        if let joined = outcome.joined {
            if let commit = joined.fastForwardedTo {
                Console.out("Took in the lists of \(joined.upstream.name) [\(commit.short)], as a clone would.")
            } else if let merge = joined.mergeCommit {
                Console.out(
                    "Merged \(joined.upstream.name) [\(merge.short)]: \(Sync.count(joined.incoming.count, "change")) came in."
                )
            }
            for report in joined.reports { Console.out("  \(report)") }
        }
        for brought in outcome.broughtIn {
            var what: [String] = []
            if !brought.items.isEmpty { what.append(Sync.count(brought.items.count, "item")) }
            if brought.textLines > 0 { what.append(Sync.count(brought.textLines, "line") + " of text") }
            Console.out(
                what.isEmpty
                    ? "\(brought.path): this folder's own copy held nothing the remote's lacks"
                    : "\(brought.path): this folder's own \(what.joined(separator: " and ")) the remote's lacked, appended to it"
            )
        }
        if let commit = outcome.commit.commit {
            Console.out("[\(commit.short)] \(outcome.commit.message.summary)")
        } else {
            Console.out("The lists were already committed with ids; nothing to commit.")
        }
        if outcome.pushed, let joined = outcome.joined { Console.out("Pushed to \(joined.upstream.name).") }
        if outcome.mergeDriver {
            Console.out(
                "Merge driver: git pull, merge, rebase and cherry-pick merge lists item by item here (todosync merge-file)."
            )
        }
    }

    /// A few files by name; many (a vault) as a count per top-level folder, the largest first,
    /// so that adopting 40,000 notes prints a screenful. `verbose`: every file, one a line.
    static func summary(_ label: String, _ files: [String], verbose: Bool) -> [String] {
        if verbose { return ["\(label): \(files.count)"] + files.map { "  " + $0 } }
        if files.count <= 8 { return ["\(label): \(files.joined(separator: ", "))"] }
        var counts: [String: Int] = [:]
        for file in files {
            let folder = file.firstIndex(of: "/").map { String(file[...$0]) } ?? "(top level)"
            counts[folder, default: 0] += 1
        }
        let folders = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var lines = ["\(label): \(Sync.count(files.count, "file")) (--verbose names them)"]
        for (folder, count) in folders.prefix(folders.count > 12 ? 10 : 12) { lines.append("  \(folder) \(count)") }
        if folders.count > 12 {
            let rest = folders.dropFirst(10)
            lines.append("  … \(Sync.count(rest.reduce(0) { $0 + $1.value }, "file")) in \(rest.count) other folders")
        }
        return lines
    }

    /// How this program was run, for git to run it again as the merge driver: a path made
    /// absolute, or a bare name that git finds on PATH as the shell did.
    static var executable: String {
        let invoked = CommandLine.arguments.first ?? "todosync"
        guard invoked.contains("/") else { return invoked }
        guard !invoked.hasPrefix("/") else { return invoked }
        // NB: getcwd, not Foundation's FileManager: importing Foundation links its
        // internationalisation data into the program, which every command then loads.
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return invoked }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + invoked
    }
}
