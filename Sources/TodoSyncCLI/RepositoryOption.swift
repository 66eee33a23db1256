import ArgumentParser
import TodoSyncKit

/// `-C DIR`, as git has it: run as if started in DIR.
struct RepositoryOption: ParsableArguments {
    @Option(
        name: .customShort("C"),
        help: ArgumentHelp("Run as if todosync was started in <dir> (also before the command).", valueName: "dir"))
    var given: String?

    var directory: String { given ?? "." }

    func openWorkspace() throws -> Workspace {
        try Self.openWorkspace(at: directory)
    }

    static func openWorkspace(at directory: String) throws -> Workspace {
        let workspace = try runReportingErrors { try Workspace.open(at: directory) }
        // A fresh git clone: its first command sets up the merge driver its lists ask for.
        if let done = workspace.setUpMergeDriverIfAsked(executable: Init.executable) { Console.warn(done) }
        return workspace
    }
}

/// `-C DIR` and `--no-verify`, for the commands that commit or push.
struct CommittingOptions: ParsableArguments {
    @OptionGroup var location: RepositoryOption

    @Flag(
        name: .customLong("no-verify"),
        help: "Skip the pre-commit, commit-msg and pre-push hooks, as git commit --no-verify does.")
    var noVerify = false

    var directory: String { location.directory }

    func openWorkspace() throws -> Workspace {
        let workspace = try location.openWorkspace()
        workspace.runsHooks = !noVerify
        return workspace
    }
}

/// Runs engine work; a `TodoSyncError` is printed with its hint and exits with status 1.
func runReportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as TodoSyncError {
        Console.fail(error)
        throw ExitCode.failure
    }
}

/// Runs engine work on a workspace as `runReportingErrors` does; what the workspace noticed
/// (a stopped write finished, a save kept aside, a file it cannot read) is printed either way.
func runReportingErrors<T>(on workspace: Workspace, _ body: () throws -> T) throws -> T {
    defer { workspace.notices.forEach { Console.warn($0) } }
    return try runReportingErrors(body)
}
