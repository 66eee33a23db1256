import ArgumentParser
import TodoSyncKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        let workspace = try runReportingErrors {
            try Workspace.open(at: directory, configuration: workspaceConfiguration)
        }
        // A fresh git clone: its first command sets up the merge driver its lists ask for.
        if let done = workspace.setUpMergeDriverIfAsked(executable: Init.executable) { Console.warn(done) }
        return workspace
    }
}

extension RepositoryOption {
    /// The engine's settings from todosync's environment switches (the CLI alone reads them):
    /// `TODOSYNC_LOCK_TIMEOUT` and `TODOSYNC_OBJECT_READ_TIMEOUT` (seconds),
    /// `TODOSYNC_REMOTE_TIMEOUT` (before `git config todosync.remoteTimeout`),
    /// `TODOSYNC_USERNAME` and `TODOSYNC_PASSWORD` (https, after git's credential helpers), and
    /// `TODOSYNC_TRACE` (phase timings), and for tests `TODOSYNC_TEST_WATCH_LIMIT` (folders
    /// watch may watch).
    /// Read once: the environment does not change while the command runs.
    static let workspaceConfiguration: WorkspaceConfiguration = {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        var configuration = WorkspaceConfiguration()
        if let seconds = variable("TODOSYNC_LOCK_TIMEOUT").flatMap(Double.init) { configuration.lockTimeout = seconds }
        if let seconds = variable("TODOSYNC_OBJECT_READ_TIMEOUT").flatMap(Double.init) {
            configuration.objectReadTimeout = seconds
        }
        configuration.remoteTimeout = variable("TODOSYNC_REMOTE_TIMEOUT")
        configuration.httpsUser = variable("TODOSYNC_USERNAME")
        configuration.httpsPassword = variable("TODOSYNC_PASSWORD")
        configuration.watchedFolderLimit = variable("TODOSYNC_TEST_WATCH_LIMIT").flatMap { Int($0) }
        configuration.traces = variable("TODOSYNC_TRACE") != nil
        return configuration
    }()
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
