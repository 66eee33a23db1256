import ArgumentParser
import TodoModel
import TodoSyncKit

struct Add: ItemCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an item, as one commit (one undo unit).",
        discussion: """
            The item goes at the end of TODO.md (or the only list; TODO.md is made where there is no list yet) unless you say where. Words not in quotes are one title. Items are named by a part of their title (any case) or the first digits of their id (see todosync list).

            Examples:
              todosync add "Buy milk"
              todosync add Buy eggs
              todosync add "Call Bob" --under "Errands" --priority high --due 2026-12-01
              todosync add "Pay rent" --before "Call Bob" --notes "the new account"
              todosync add "Report" --file work.md
              todosync add "Water plants" --recurrence "every 3 days" --due tomorrow
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(help: "The item's title (one line); words not in quotes are joined with spaces.") var words: [String]

    var title: String { words.joined(separator: " ") }
    @OptionGroup var place: PlaceOptions
    @OptionGroup(title: "Obsidian Tasks fields") var fields: FieldOptions
    @Option(help: ArgumentHelp("Notes under the item (use \\n for more lines).", valueName: "text")) var notes: String?
    @Flag(help: "Add it already checked.") var done = false

    func validate() throws {
        guard !words.isEmpty else {
            throw ValidationError("Missing the item's title, as in: todosync add \"Buy milk\"")
        }
        try TitleCheck.validate(title)
        _ = try fields.edits()
    }

    func request() throws -> ItemRequest {
        .add(
            title: title, at: place.place, isDone: done, notes: (notes ?? "").replacingOccurrences("\\n", with: "\n"),
            fields: try fields.values())
    }
}

extension String {
    func replacingOccurrences(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// A title given on the command line: one line, not empty (a usage error, before any file is read).
enum TitleCheck {
    static func validate(_ title: String) throws {
        if title.allSatisfy({ $0 == " " || $0 == "\t" }) { throw ValidationError("a title cannot be empty") }
        if title.contains(where: \.isNewline) {
            throw ValidationError("a title is one line; put more text in the notes (--notes)")
        }
    }
}
