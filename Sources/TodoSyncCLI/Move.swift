import ArgumentParser
import TodoModel
import TodoSyncKit

struct Move: ItemCommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Move an item (with its notes and nested items), as one commit.",
        discussion: """
            Examples:
              todosync mv "Call Bob" --before "Pay rent"
              todosync mv milk --under Errands
              todosync mv Report --file work.md     to the end of another list
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(
        help: "A unique part of the item's title, or the first digits of its id.", completion: ItemCompletion.of(.all))
    var item: String
    @OptionGroup var place: PlaceOptions

    func validate() throws {
        if !place.isGiven { throw ValidationError("say where to: --under, --before, --after or --file") }
    }

    func request() throws -> ItemRequest { .move(ItemQuery(item), to: place.place) }
}

struct Remove: ItemCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove an item with its notes and nested items, as one commit (todosync undo brings it back).",
        discussion: "Example:\n  todosync rm \"Old idea\"")

    @OptionGroup var repository: CommittingOptions
    @Argument(
        help: "A unique part of the item's title, or the first digits of its id.", completion: ItemCompletion.of(.all))
    var item: String

    func request() throws -> ItemRequest { .remove(ItemQuery(item)) }
}
