import ArgumentParser
import TodoModel
import TodoSyncKit

struct Done: ItemCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Check an item off, as one commit.",
        discussion: """
            Examples:
              todosync done milk            the one item whose title holds "milk"
              todosync done 0f6c            the item whose id starts 0F6C
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(
        help: "A unique part of the item's title, or the first digits of its id.", completion: ItemCompletion.of(.open))
    var item: String

    func request() throws -> ItemRequest { .setDone(ItemQuery(item), true) }
}

struct Reopen: ItemCommand {
    static let configuration = CommandConfiguration(
        commandName: "reopen",
        abstract: "Uncheck an item, as one commit.",
        discussion: "Example:\n  todosync reopen milk")

    @OptionGroup var repository: CommittingOptions
    @Argument(
        help: "A unique part of the item's title, or the first digits of its id.", completion: ItemCompletion.of(.done))
    var item: String

    func request() throws -> ItemRequest { .setDone(ItemQuery(item), false) }
}
