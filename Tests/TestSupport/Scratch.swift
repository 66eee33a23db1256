import Foundation

/// A temporary folder for one test, removed when the value is released.
public final class Scratch: @unchecked Sendable {
    public let path: String

    public init() {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("todosync-test-XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { fatalError("mkdtemp failed") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a file (folders included) below the scratch folder.
    public func write(_ relative: String, _ text: String) throws {
        try write(relative, bytes: Array(text.utf8))
    }

    public func write(_ relative: String, bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    public func read(_ relative: String) throws -> String {
        String(decoding: try readBytes(relative), as: UTF8.self)
    }

    public func readBytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path).appendingPathComponent(relative)))
    }
}

/// What a child process did.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs a program with a fixed identity, so tests do not depend on the machine's git config.
public func run(
    _ executable: String, _ arguments: [String], in directory: String, input: String? = nil,
    environment overrides: [String: String?] = [:]
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in [
        "GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
        "GIT_COMMITTER_NAME": "Test Committer", "GIT_COMMITTER_EMAIL": "committer@example.com",
        "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C",
    ] {
        environment[key] = value
    }
    for (key, value) in overrides { environment[key] = value }
    process.environment = environment
    let out = Pipe(), err = Pipe(), inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inPipe.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// The git CLI: the independent witness of what todosync wrote.
@discardableResult
public func git(_ arguments: String..., in directory: String) throws -> String {
    let result = try run("/usr/bin/git", arguments, in: directory)
    guard result.status == 0 else {
        throw TestFailure("git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
    }
    return result.stdout
}

/// The todosync binary built beside the test bundle.
public func todosync(_ arguments: String..., in directory: String, input: String? = nil) throws -> ProcessResult {
    try run(todosyncBinary, arguments, in: directory, input: input)
}

public let todosyncBinary: String = {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
        let path = candidate.appendingPathComponent("todosync").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/todosync").path
}()

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
