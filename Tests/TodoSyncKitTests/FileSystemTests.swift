import Foundation
import Testing
import TestSupport
@testable import TodoSyncKit

@Suite struct FileSystemTests {
    @Test(arguments: [0, 1, 65_537, 1_000_003])
    func readGivesTheFileBytesExactly(size: Int) throws {
        let scratch = Scratch()
        var generator = SeededGenerator(seed: UInt64(size))
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileManager.default.createFile(atPath: scratch.path + "/list.md", contents: Data(bytes)))
        #expect(try FileSystem.read(scratch.path + "/list.md") == bytes)
        #expect(try FileSystem.read(scratch.path + "/missing.md") == nil)
    }

    #if os(Linux)
    @Test func readGoesOnPastTheSizeTheStatGave() throws {
        // The kernel's files say 0 bytes and hold more: the read grows its array as a file that
        // grows while read would need.
        let expected: [UInt8] = CommandLine.arguments.flatMap { Array($0.utf8) + [UInt8(0)] }
        #expect(try FileSystem.read("/proc/self/cmdline") == expected)
    }
    #endif

    @Test func replaceRefusesAFileThatChangedSinceItWasRead() throws {
        let scratch = Scratch()
        try scratch.write("TODO.md", "- [ ] saved by the editor meanwhile\n")
        let error = #expect(throws: TodoSyncError.self) {
            try FileSystem.replace(scratch.path + "/TODO.md", with: Array("ours".utf8), ifStill: Array("- [ ] as read\n".utf8))
        }
        #expect(error?.message.contains("changed while todosync was working; nothing was written or committed") == true)
        #expect(try scratch.read("TODO.md") == "- [ ] saved by the editor meanwhile\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["TODO.md"])
    }

    @Test func replaceKeepsPermissionsAndLeavesNoTemporaryFile() throws {
        let scratch = Scratch()
        try scratch.write("TODO.md", "old\n")
        chmod(scratch.path + "/TODO.md", 0o600)
        try FileSystem.replace(scratch.path + "/TODO.md", with: Array("new\n".utf8), ifStill: Array("old\n".utf8))
        #expect(try scratch.read("TODO.md") == "new\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path + "/TODO.md")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["TODO.md"])
    }

    @Test func replaceCreatesOnlyWhenTheFileIsStillAbsent() throws {
        let scratch = Scratch()
        try FileSystem.replace(scratch.path + "/new.md", with: Array("x".utf8), ifStill: nil)
        #expect(try scratch.read("new.md") == "x")
        #expect(throws: TodoSyncError.self) { try FileSystem.replace(scratch.path + "/new.md", with: Array("y".utf8), ifStill: nil) }
    }
}
