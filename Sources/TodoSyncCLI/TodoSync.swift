import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

@main
struct TodoSync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todosync",
        abstract: "Keep Markdown TODO lists in git: stable item ids, one commit per edit session.",
        discussion: """
            Write checklists ("- [ ] Buy milk") in TODO.md or any Markdown file with any editor, then run `todosync`: it gives each new item an id (an invisible HTML comment at the end of its line) and makes one git commit that says in words what changed.

            Start with `todosync init`, or run todosync in any git repository. Which files are lists: Markdown files holding task items, except README.md; change it with `git config --add todosync.include 'lists/*.md'` or `todosync.exclude`.
            """,
        version: "0.1.0",
        subcommands: [Commit.self, Status.self, Sync.self, Init.self, Add.self, Done.self, Reopen.self, Edit.self, Move.self, Remove.self, Batch.self, List.self, Undo.self, Redo.self, Log.self],
        defaultSubcommand: Commit.self
    )

    /// The two runs that follow every save, `todosync` and `todosync status`, have no arguments to
    /// parse: they skip swift-argument-parser, whose reflection over the commands was ~2 ms of a
    /// 7.7 ms status. Anything else, `--help` included, goes through it.
    static func main() {
        #if canImport(Glibc)
        // glibc raises its mmap threshold after the first large free, so a list's arrays land in
        // the heap and stay resident when freed: a fixed threshold gives them back (a 100,000-item
        // status peaks at 79 MB instead of 97). At 1 MB, not lower: a 10,000-item list's arrays
        // stay in the heap, where 256 KB made each one fresh pages to fault in (~2 ms a commit).
        // Freed memory at the top of the heap is kept, not given back (glibc trims past 128 KB): a
        // command frees and allocates list-sized arrays in turn, and each trim made the next one
        // fresh pages to fault in (a quarter of the page faults of a commit).
        // NB: malloc.h is not in Swift's Glibc module; mallopt is looked up. M_MMAP_THRESHOLD is
        // -3, M_TRIM_THRESHOLD -1.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        if let symbol = dlsym(nil, "mallopt") {
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(-3, 1024 * 1024)
            _ = mallopt(-1, 256 * 1024 * 1024)
        }
        #endif
        let body: (() throws -> Void)?
        switch Array(CommandLine.arguments.dropFirst()) {
        case []: body = { try Commit.perform(in: ".", summary: nil) }
        case ["status"]: body = { try Status.perform(in: ".") }
        default: body = nil
        }
        guard let body else { return main(nil) }
        do { try body() } catch { exit(withError: error) }
    }
}
