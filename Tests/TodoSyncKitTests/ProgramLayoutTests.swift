import Foundation
import Testing

/// What the program's sources may depend on, checked in the sources themselves.
@Suite struct ProgramLayoutTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources").path

    /// Foundation (not FoundationEssentials) brings its internationalisation data into the
    /// program: twice its size, and most of every command's start-up, loaded for nothing.
    @Test func noModuleOfTheProgramImportsFoundation() throws {
        var importing: [String] = []
        let files = FileManager.default.enumerator(atPath: Self.sources)?.compactMap { $0 as? String } ?? []
        #expect(files.contains("TodoSyncCLI/TodoSync.swift"), "the sources are found: \(Self.sources)")
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if lines.contains(where: {
                ["import Foundation", "@_exported import Foundation", "internal import Foundation"].contains($0)
            }) {
                importing.append(file)
            }
        }
        #expect(importing.isEmpty, "import FoundationEssentials or use POSIX instead: \(importing)")
    }

    /// The library reads none of todosync's environment switches: the program decides
    /// (`WorkspaceConfiguration`, `Workspace.stuckWorkHandler`, `Workspace.afterWriteStep`), and
    /// only the CLI reads `TODOSYNC_…`.
    @Test func onlyTheCommandReadsTodosyncsEnvironmentSwitches() throws {
        var reading: [String] = []
        let files = FileManager.default.enumerator(atPath: Self.sources)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !file.hasPrefix("TodoSyncCLI/") {
            let text = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8)
            if text.contains("getenv(\"TODOSYNC_") || text.contains("\"TODOSYNC_TRACE=") { reading.append(file) }
        }
        #expect(files.contains("TodoSyncKit/Trace.swift"), "the sources are found: \(Self.sources)")
        #expect(reading.isEmpty, "pass it in as WorkspaceConfiguration from the CLI instead: \(reading)")
    }

    /// One voice (docs/CLI.md): every error todosync makes says what to do, in a hint.
    @Test func everyErrorTodosyncMakesHasAHint() throws {
        var without: [String] = []
        let files = FileManager.default.enumerator(atPath: Self.sources)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = Array(try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8))
            let opening = Array("TodoSyncError(")
            var index = 0
            while index + opening.count <= text.count {
                guard Array(text[index..<(index + opening.count)]) == opening else {
                    index += 1
                    continue
                }
                // The call's arguments, to its closing parenthesis.
                var depth = 1, end = index + opening.count
                while end < text.count, depth > 0 {
                    if text[end] == "(" { depth += 1 } else if text[end] == ")" { depth -= 1 }
                    end += 1
                }
                let call = String(text[index..<end])
                let isDeclaration = index >= 5 && String(text[(index - 5)..<index]).hasSuffix("init")
                if !isDeclaration, !call.contains("hint:") {
                    without.append("\(file): \(call.prefix(80))")
                }
                index = end
            }
        }
        #expect(without.isEmpty, "\(without.joined(separator: "\n"))")
    }
}
