import ArgumentParser
import TodoModel
import TodoSyncKit

struct Edit: ItemCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an item's title, notes or fields (priority, dates, recurrence), as one commit.",
        discussion: """
            Examples:
              todosync edit 0f6c --title "Buy oat milk" --notes "the blue carton"
              todosync edit "Call Bob" --priority none --due none
              todosync edit "Weekly review" --recurrence "every week on Friday" --scheduled fri
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(
        help: "A unique part of the item's title, or the first digits of its id.", completion: ItemCompletion.of(.all))
    var item: String
    @Option(help: "The new title.") var title: String?
    @Option(
        help: ArgumentHelp(
            "The new notes, replacing the old (use \\n for more lines; \"\" clears them).", valueName: "text"))
    var notes: String?
    @OptionGroup(title: "Obsidian Tasks fields") var fields: FieldOptions

    func validate() throws {
        if title == nil, notes == nil, fields.isEmpty {
            throw ValidationError(
                "say what to change: --title, --notes, --priority, --due, --start, --scheduled or --recurrence")
        }
        if let title { try TitleCheck.validate(title) }
        _ = try fields.edits()
    }

    func request() throws -> ItemRequest {
        .edit(
            ItemQuery(item), title: title, notes: notes?.replacingOccurrences("\\n", with: "\n"),
            fields: try fields.edits())
    }
}
