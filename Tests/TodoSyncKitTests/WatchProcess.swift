import Foundation
import TestSupport

/// A `todosync watch` running in a fixture, its output kept in files of its own
/// (files, not pipes: the test reads them while it runs). Stopped with SIGTERM when released.
final class WatchProcess {
    let process = Process()
    private let logs = Scratch()
    private let output: String
    private let errors: String

    init(in fixture: Fixture, _ arguments: [String] = [], environment: [String: String] = [:]) throws {
        output = logs.path + "/watch.out"
        errors = output + ".err"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.executableURL = URL(fileURLWithPath: todosyncBinary)
        process.arguments = ["watch"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: fixture.path)
        var variables = ProcessInfo.processInfo.environment
        for (key, value) in [
            "GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
            "GIT_COMMITTER_NAME": "Test Committer", "GIT_COMMITTER_EMAIL": "committer@example.com",
            "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C", "TODOSYNC_LOCK_TIMEOUT": "60",
        ] {
            variables[key] = value
        }
        variables.merge(environment) { _, new in new }
        process.environment = variables
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        try waitUntil("watch started", timeout: 20) { self.stdout.contains("Watching ") }
    }

    deinit { _ = try? stop() }

    var stdout: String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }

    /// SIGTERM, then its exit status.
    @discardableResult
    func stop() throws -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        do {
            try waitUntil("watch stopped", timeout: 30) { !self.process.isRunning }
        } catch {
            kill(process.processIdentifier, SIGKILL)
            throw error
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Polls `condition` until it holds; throws (saying `what`) after `timeout` seconds.
func waitUntil(_ what: String, timeout: Double, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return }
        guard Date() < deadline else { throw TestFailure("timed out waiting for: \(what)") }
        usleep(20_000)
    }
}
