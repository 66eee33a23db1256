import ArgumentParser
import TodoSyncKit

/// `-C DIR`, as git has it: run as if started in DIR.
struct RepositoryOption: ParsableArguments {
    @Option(name: .customShort("C"), help: ArgumentHelp("Run as if todosync was started in <dir>.", valueName: "dir"))
    var directory: String = "."

    func openWorkspace() throws -> Workspace {
        try Self.openWorkspace(at: directory)
    }

    static func openWorkspace(at directory: String) throws -> Workspace {
        try runReportingErrors { try Workspace.open(at: directory) }
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
