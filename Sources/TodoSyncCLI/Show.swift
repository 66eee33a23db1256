import ArgumentParser
import TodoSyncKit

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "One unit's item changes in words: what a commit did to the lists.",
        discussion: """
            Any commit: a unit of todosync's, a commit made with plain git, a merge (its changes are what came in to this branch, against its first parent). The unit is named as git names a commit: an id from todosync log (or its first digits), HEAD, HEAD~2, a branch.

            Examples:
              todosync show                 the last commit
              todosync show 3f2a1c9
              todosync show HEAD~1 --json
            """)

    @OptionGroup var repository: RepositoryOption
    @Argument(help: "The commit (default HEAD).") var unit = "HEAD"
    @Flag(help: "Print a JSON object for scripts (schema: docs/CLI.md).") var json = false

    func run() throws {
        let workspace = try repository.openWorkspace()
        let shown = try runReportingErrors(on: workspace) { try workspace.show(unit) }
        let entry = shown.entry
        if json {
            Console.out(
                JSON.object([
                    ("commit", JSON.string(entry.commit.description)), ("summary", JSON.string(entry.summary)),
                    ("kind", JSON.string(entry.kind)), ("author", JSON.string(entry.author.name)),
                    ("email", JSON.string(entry.author.email)),
                    ("date", JSON.string(entry.authorDate)), ("madeHere", entry.madeHere ? "true" : "false"),
                    ("parents", JSON.strings(shown.parents.map(\.description))), ("files", JSON.strings(shown.files)),
                    ("changes", "[" + shown.changes.map { JSON.change($0) }.joined(separator: ",") + "]"),
                ]))
            return
        }
        let when = String(entry.authorDate.prefix(16)).replacingOccurrences("T", with: " ")
        let origin = entry.madeHere ? "made here" : "came in"
        let kind = entry.kind == "git" ? "a plain git commit" : entry.isMerge ? "a merge" : "a \(entry.kind) unit"
        Console.out("\(Console.paint(entry.commit.short, .bold))  \(entry.summary)")
        Console.out("\(entry.author.name) <\(entry.author.email)>, \(when) (\(kind), \(origin))")
        guard !shown.changes.isEmpty else {
            Console.out(
                shown.files.isEmpty
                    ? "No list changed." : "No item changed; the text of \(shown.files.joined(separator: ", ")) did.")
            return
        }
        Console.out("Changes (\(shown.changes.count)):")
        for change in shown.changes {
            let place =
                change.kind == .removed
                ? "was \(change.item.file):\(change.item.line)" : "\(change.item.file):\(change.item.line)"
            Console.out("  \(change.phrase)  (\(place))")
        }
    }
}
