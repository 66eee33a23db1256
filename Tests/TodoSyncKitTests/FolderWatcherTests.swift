import Foundation
import Testing
import TestSupport
@testable import TodoSyncKit

/// Both folder watchers (inotify, and stamps compared on a timer where inotify is missing) see
/// what editors do: a save in place, a rename over the file, a new folder, a deletion.
@Suite struct FolderWatcherTests {
    enum Kind: CaseIterable { case inotify, polling }

    private func makeWatcher(_ kind: Kind, root: String) throws -> FolderWatcher {
        switch kind {
        case .polling: return PollingFolderWatcher(root: root)
        case .inotify:
            #if os(Linux)
            return try InotifyFolderWatcher(root: root)
            #else
            return PollingFolderWatcher(root: root)
            #endif
        }
    }

    /// Waits for changes until `path` is among them.
    private func waitFor(_ path: String, folder: Bool = false, in watcher: FolderWatcher, stop: Int32) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if case .changed(let paths, let folders) = try watcher.wait(until: deadline, stopDescriptor: stop),
                paths.contains(path), !folder || folders.contains(path)
            {
                return
            }
        }
        throw TestFailure("\(path) not reported")
    }

    @Test(arguments: Kind.allCases) func seesSavesRenamesFoldersAndDeletions(kind: Kind) throws {
        let scratch = Scratch()
        try scratch.write("TODO.md", "- [ ] A\n")
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let watcher = try makeWatcher(kind, root: scratch.path)
        try watcher.watch(folders: [""])
        #expect(try watcher.wait(until: .now + .milliseconds(300), stopDescriptor: ends[0]) == .timedOut)

        try scratch.write("TODO.md", "- [ ] A\n- [ ] B\n")
        try waitFor("TODO.md", in: watcher, stop: ends[0])
        try scratch.write("TODO.md~new", "- [ ] C\n")
        #expect(rename(scratch.path + "/TODO.md~new", scratch.path + "/TODO.md") == 0)
        try waitFor("TODO.md", in: watcher, stop: ends[0])

        #expect(mkdir(scratch.path + "/work", 0o755) == 0)
        try waitFor("work", folder: true, in: watcher, stop: ends[0])
        try watcher.watch(folders: ["", "work"])
        try scratch.write("work/Plan.md", "- [ ] D\n")
        try waitFor("work/Plan.md", in: watcher, stop: ends[0])
        #expect(unlink(scratch.path + "/work/Plan.md") == 0)
        try waitFor("work/Plan.md", in: watcher, stop: ends[0])

        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try watcher.wait(until: nil, stopDescriptor: ends[0]) == .stopRequested)
    }
}
