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

    /// The check before a write compares a piece at a time; it agrees with reading the whole
    /// file and comparing, at every size around a piece and for a change in any piece.
    @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 300_001])
    func holdsAgreesWithReadingTheWholeFile(size: Int) throws {
        let scratch = Scratch()
        let path = scratch.path + "/list.md"
        var generator = SeededGenerator(seed: UInt64(size) + 7)
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(try FileSystem.holds(path, bytes))
        #expect(try !FileSystem.holds(path, nil))
        #expect(try !FileSystem.holds(path, bytes + [10]))
        if size > 0 {
            #expect(try !FileSystem.holds(path, Array(bytes.dropLast())))
            for position in Set([0, size / 2, size - 1]) {
                var other = bytes
                other[position] ^= 1
                #expect(try !FileSystem.holds(path, other), "a change at \(position)")
                #expect(try FileSystem.holds(path, other) == (try FileSystem.read(path) == other))
            }
        }
        #expect(try FileSystem.holds(scratch.path + "/missing.md", nil))
        #expect(try !FileSystem.holds(scratch.path + "/missing.md", []))
    }

    #if os(Linux)
    @Test func readGoesOnPastTheSizeTheStatGave() throws {
        // The kernel's files say 0 bytes and hold more: the read grows its array as a file that
        // grows while read would need.
        let expected: [UInt8] = CommandLine.arguments.flatMap { Array($0.utf8) + [UInt8(0)] }
        #expect(try FileSystem.read("/proc/self/cmdline") == expected)
    }
    #endif

    /// A working folder and a git directory beside it, as the engine uses them.
    private func folders() throws -> (Scratch, ScratchFolder) {
        let scratch = Scratch()
        let folder = ScratchFolder(gitDirectory: scratch.path + "/.git")
        try folder.create()
        return (scratch, folder)
    }

    private func replace(
        _ scratch: Scratch, _ folder: ScratchFolder, _ name: String, with text: String?, ifStill expected: String?
    ) throws {
        try FileSystem.replace(
            scratch.path + "/" + name, with: text.map { Array($0.utf8) }, ifStill: expected.map { Array($0.utf8) },
            relativePath: name, scratch: folder)
    }

    /// Few files are flushed one by one, many (on this machine's disk) all at once: either
    /// way each prepared version holds its bytes with the file's permissions, and nothing shows
    /// in the working folder until it is swapped in.
    @Test(arguments: [3, 100])
    func preparedVersionsHoldTheirBytesUntilSwappedIn(count: Int) throws {
        let (scratch, folder) = try folders()
        var files: [(path: String, bytes: [UInt8], relativePath: String)] = []
        for index in 0..<count {
            let name = "n\(index % 4)/note\(index).md"
            try scratch.write(name, "old \(index)\n")
            chmod(scratch.path + "/" + name, index == 1 ? 0o600 : 0o644)
            files.append((scratch.path + "/" + name, Array("new \(index)\n".utf8), name))
        }
        let prepared = try FileSystem.prepare(files, scratch: folder)
        #expect(prepared.count == count)
        for (index, file) in files.enumerated() {
            let ready = try #require(prepared[file.relativePath])
            #expect(try FileSystem.read(ready.path) == file.bytes)
            #expect(
                (try FileManager.default.attributesOfItem(atPath: ready.path)[.posixPermissions] as? Int)
                    == (index == 1 ? 0o600 : 0o644))
            #expect(try scratch.read(file.relativePath) == "old \(index)\n")
        }
        for file in files {
            try FileSystem.replace(
                file.path, with: file.bytes, ifStill: Array(try scratch.read(file.relativePath).utf8),
                relativePath: file.relativePath,
                scratch: folder, prepared: prepared[file.relativePath])
        }
        #expect(try scratch.read("n1/note1.md") == "new 1\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.temporary) == [])
    }

    @Test func replaceRefusesAFileThatChangedSinceItWasRead() throws {
        let (scratch, folder) = try folders()
        try scratch.write("TODO.md", "- [ ] saved by the editor meanwhile\n")
        let error = #expect(throws: TodoSyncError.self) {
            try replace(scratch, folder, "TODO.md", with: "ours", ifStill: "- [ ] as read\n")
        }
        #expect(error?.isChangedMeanwhile == true)
        #expect(try scratch.read("TODO.md") == "- [ ] saved by the editor meanwhile\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == [".git", "TODO.md"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.temporary) == [])
    }

    @Test func replaceKeepsPermissionsAndLeavesNoTemporaryFile() throws {
        let (scratch, folder) = try folders()
        try scratch.write("TODO.md", "old\n")
        chmod(scratch.path + "/TODO.md", 0o600)
        try replace(scratch, folder, "TODO.md", with: "new\n", ifStill: "old\n")
        #expect(try scratch.read("TODO.md") == "new\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path + "/TODO.md")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == [".git", "TODO.md"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.temporary) == [])
    }

    @Test func replaceCreatesOnlyWhenTheFileIsStillAbsent() throws {
        let (scratch, folder) = try folders()
        try replace(scratch, folder, "new.md", with: "x", ifStill: nil)
        #expect(try scratch.read("new.md") == "x")
        #expect(throws: TodoSyncError.self) { try replace(scratch, folder, "new.md", with: "y", ifStill: nil) }
        #expect(try scratch.read("new.md") == "x")
    }

    @Test func removeTakesOnlyTheBytesThatWereRead() throws {
        let (scratch, folder) = try folders()
        try scratch.write("old.md", "saved meanwhile\n")
        #expect(throws: TodoSyncError.self) { try replace(scratch, folder, "old.md", with: nil, ifStill: "as read\n") }
        #expect(try scratch.read("old.md") == "saved meanwhile\n")
        try replace(scratch, folder, "old.md", with: nil, ifStill: "saved meanwhile\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/old.md"))
    }

    @Test func theReplacedFileIsKeptUntilTheNextWriteAndRecoveredIfWrittenTo() throws {
        let (scratch, folder) = try folders()
        try scratch.write("TODO.md", "as read\n")
        try replace(scratch, folder, "TODO.md", with: "ours\n", ifStill: "as read\n")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.replaced)
        #expect(kept.count == 1)
        // Left alone, it goes at the next write.
        #expect(folder.sweep() == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.replaced) == [])

        try replace(scratch, folder, "TODO.md", with: "ours again\n", ifStill: "ours\n")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.replaced).first)
        // An editor that had the old file open writes its save into it after the swap.
        try Data("the editor's last save\n".utf8).write(to: URL(fileURLWithPath: folder.replaced + "/" + name))
        let recovered = folder.sweep()
        #expect(recovered.count == 1)
        #expect(
            try String(contentsOfFile: try #require(recovered.first), encoding: .utf8) == "the editor's last save\n")
        #expect(try scratch.read("TODO.md") == "ours again\n")
    }
}
