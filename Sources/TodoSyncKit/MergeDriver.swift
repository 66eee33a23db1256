import GitStore
import TodoModel

/// What git's merge driver did with one file.
public struct MergeDriverOutcome: Sendable {
    /// What the item merge kept or noted, as sync reports it.
    public var reports: [MergeReport] = []
    /// Conflicts git's line merge left marked in the file (0: clean).
    public var conflicts = 0
}

/// `todosync merge-file`, the merge driver git runs for files `.gitattributes` marks
/// `merge=todosync` (gitattributes(5), "Defining a custom merge driver"): three temporary
/// files, `current` (git's `%A`) to be overwritten with the result. A list merges item by item,
/// by sync's rules; any other file as git merges it without a driver (`git merge-file`).
public enum MergeDriver {
    /// The driver's name in `.gitattributes` (`merge=todosync`) and git's config (`merge.todosync.*`).
    public static let name = "todosync"

    public static func merge(
        base: String, current: String, other: String, path: String, markerSize: Int = 7,
        configuration: WorkspaceConfiguration = WorkspaceConfiguration()
    ) throws(TodoSyncError) -> MergeDriverOutcome {
        var versions: [[UInt8]] = []
        for file in [base, current, other] {
            guard let bytes = try FileSystem.read(file) else {
                throw TodoSyncError(
                    "\(file) does not exist",
                    hint: "todosync merge-file is run by git during a merge; see todosync merge-file --help")
            }
            versions.append(bytes)
        }
        guard try isList(path, versions, configuration) else {
            let conflicts = try git("merging \(path) line by line") {
                try GitMergeFile.run(
                    current: current, base: base, other: other, labels: ["ours", "base", "theirs"],
                    markerSize: markerSize)
            }
            return MergeDriverOutcome(conflicts: conflicts)
        }
        let merged = ListFileMerge.merge(path: path, base: versions[0], ours: versions[1], theirs: versions[2])
        // `current` is git's own temporary file, which git reads back and stores: no list of the
        // working tree is written here (so not through `Workspace.apply`).
        if merged.bytes != versions[1] { try FileSystem.writeAtomically(current, merged.bytes) }
        return MergeDriverOutcome(reports: merged.reports)
    }

    /// Whether any version of the file is a list, as the repository git runs the driver in
    /// decides (its attributes and todosync.include / exclude); by name alone outside one.
    private static func isList(
        _ path: String, _ versions: [[UInt8]], _ configuration: WorkspaceConfiguration
    ) throws(TodoSyncError) -> Bool {
        guard versions.allSatisfy({ $0.count <= ListDocument.maximumSize }) else { return false }
        let workspace: Workspace
        do {
            workspace = try Workspace.open(configuration: configuration)
        } catch {
            return ListFileSelector.isNamedTODO(path)
                || versions.contains { ListDocument(path: path, bytes: $0).hasIDs }
        }
        return try workspace.isAnyList(path, versions)
    }
}
