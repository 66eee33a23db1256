import ArgumentParser
import TodoModel
import TodoSyncKit

struct Settle: ItemCommand {
    static let configuration = CommandConfiguration(
        commandName: "settle",
        abstract: "Settle an item's clash by keeping one version, as one commit.",
        discussion: """
            A sync (or git's merge through todosync's driver) that finds an item changed differently on both sides keeps both, visibly, and calls it a clash: lines both sides rewrote stand between 'todosync clash' comments, a title or field set differently keeps this side's value with the other in a 'todosync clash:' note. todosync status lists every clash not yet settled, with its versions numbered. Settle one by choosing what stays; or edit the file (keep the lines you want, delete the clash comments and notes) and run todosync.

            For a title or a field, 1 is what the item holds and 2 what the note says the other side wrote (the item's other fields stay as they are). For lines, the versions count from the top of the block; 'all' keeps every version's lines, in order. A version that holds a task item is never dropped: move that item out first, or keep all.

            Examples:
              todosync settle milk --keep 2     take the other side's title of the item "milk"
              todosync settle trip --keep all   keep both versions of the notes, without the clash comments
            """)

    @OptionGroup var repository: CommittingOptions
    @Argument(
        help: "A unique part of the item's title, or the first digits of its id.", completion: ItemCompletion.of(.all))
    var item: String
    @Option(
        help: ArgumentHelp("Which version stays: 1, 2 (or a later version of lines), or all.", valueName: "version"))
    var keep: String

    func validate() throws {
        _ = try choice()
    }

    func choice() throws -> ClashChoice {
        if keep == "all" || keep == "both" { return .all }
        guard let number = Int(keep), number >= 1 else {
            throw ValidationError(
                "--keep takes a version number (1, 2, …) or all, not \"\(keep)\"; todosync status shows the versions")
        }
        return .version(number)
    }

    func request() throws -> ItemRequest { .settle(ItemQuery(item), keep: try choice()) }
}
