/// git's own line-by-line merge of three files (`git merge-file`, what git does for a file
/// with no merge driver), for the files todosync's merge driver is handed that are not lists.
public enum GitMergeFile {
    /// Merges `base`→`other` into `current` (written in place, with conflict markers where
    /// lines clash, labelled `labels`: current, base, other); the number of conflicts.
    public static func run(
        current: String, base: String, other: String, labels: [String], markerSize: Int
    ) throws(GitError) -> Int {
        var arguments = ["git", "merge-file", "--marker-size=\(markerSize)"]
        for label in labels { arguments += ["-L", label] }
        let result = try ChildProcess.run(arguments + ["--", current, base, other], input: [])
        guard let status = result.status, status >= 0, status < 128 else {
            throw GitError(code: -1, message: "git merge-file failed: \(result.errors)", function: "git merge-file")
        }
        return Int(status)
    }

    /// The merge `run` makes, printed rather than written (`git merge-file -p`): what git's own
    /// merge leaves in a file it cannot merge.
    public static func printed(
        current: String, base: String, other: String, markerSize: Int
    ) throws(GitError) -> [UInt8] {
        let result = try ChildProcess.run(
            ["git", "merge-file", "-p", "--marker-size=\(markerSize)", "--", current, base, other], input: [])
        guard let status = result.status, status >= 0, status < 128 else {
            throw GitError(code: -1, message: "git merge-file failed: \(result.errors)", function: "git merge-file")
        }
        return result.output
    }
}
