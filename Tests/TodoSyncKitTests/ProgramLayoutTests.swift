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
            if lines.contains(where: { ["import Foundation", "@_exported import Foundation", "internal import Foundation"].contains($0) }) {
                importing.append(file)
            }
        }
        #expect(importing.isEmpty, "import FoundationEssentials or use POSIX instead: \(importing)")
    }
}
