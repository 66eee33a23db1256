import ArgumentParser
import TodoModel
import TodoSyncKit

struct Edit: ItemCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an item's title, notes, priority or due date, as one commit.",
        discussion: """
            Examples:
              todosync edit 0f6c --title "Buy oat milk" --notes "the blue carton"
              todosync edit "Call Bob" --priority none --due none
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(help: "A unique part of the item's title, or the first digits of its id.", completion: ItemCompletion.of(.all)) var item: String
    @Option(help: "The new title.") var title: String?
    @Option(help: ArgumentHelp("The new notes, replacing the old (use \\n for more lines; \"\" clears them).", valueName: "text"))
    var notes: String?
    @Option(help: ArgumentHelp("highest, high, medium, low, lowest, or none.", valueName: "level")) var priority: String?
    @Option(help: ArgumentHelp("YYYY-MM-DD, or none.", valueName: "date")) var due: String?

    func validate() throws {
        if title == nil, notes == nil, priority == nil, due == nil {
            throw ValidationError("say what to change: --title, --notes, --priority or --due")
        }
    }

    func request() throws -> ItemRequest {
        .edit(
            ItemQuery(item), title: title, notes: notes?.replacingOccurrences("\\n", with: "\n"),
            priority: try priority.map(parsePriority), due: try due.map(parseDue))
    }
}
