import Foundation
import Testing
import TestSupport
@testable import GitStore
@testable import TodoModel
@testable import TodoSyncKit

/// The file of the items cache: read back whole, or not at all.
@Suite struct ItemsCacheFileTests {
    static let program = "stat 123 456 789 10 11 33261 /usr/local/bin/todosync"

    static func sample() throws -> ItemsCache {
        var cache = ItemsCache()
        let documents = [
            ListDocument(path: "a.md", bytes: Array(withIDs("# A\n- [ ] One ⏫ ^1\n  - [x] Two ^2\n").utf8)),
            ListDocument(path: "b/c.md", bytes: Array("Prose only.\n".utf8)),
        ]
        for (index, document) in documents.enumerated() {
            let stat = FileStat(
                ctime: Timestamp(seconds: 1_700_000_000 + Int32(index), nanoseconds: 5),
                mtime: Timestamp(seconds: -1, nanoseconds: 999_999_999),
                device: 2049, inode: UInt32.max, userID: 1000, groupID: 100, size: 4_000_000_000)
            let bytes = Array(document.render())
            cache.set(
                document.path, stat: stat, blob: try Repository.blobID(of: bytes),
                record: try #require(ItemRecords.encode(document)))
        }
        return cache
    }

    @Test func aCacheIsReadBackAsWritten() throws {
        let cache = try Self.sample()
        let decoded = try #require(ItemsCache(decoding: cache.encoded(program: Self.program), program: Self.program))
        #expect(decoded.paths == cache.paths)
        #expect(decoded.records.mapValues(Array.init) == cache.records.mapValues(Array.init))
        let entry = try #require(cache.paths["a.md"])
        #expect(
            decoded.record(at: "a.md", stat: entry.stat).map(Array.init) == cache.records[entry.blob].map(Array.init))
        var other = entry.stat
        other.ctime.nanoseconds += 1
        #expect(decoded.record(at: "a.md", stat: other) == nil)
    }

    @Test func aTruncatedDamagedOrForeignFileReadsAsNoCache() throws {
        let bytes = try Self.sample().encoded(program: Self.program)
        for cut in 0..<bytes.count { #expect(ItemsCache(decoding: Array(bytes[..<cut]), program: Self.program) == nil) }
        for offset in 0..<bytes.count {
            var damaged = bytes
            damaged[offset] ^= 0x20
            #expect(ItemsCache(decoding: damaged, program: Self.program) == nil, "a changed byte at \(offset)")
        }
        #expect(ItemsCache(decoding: bytes + [0], program: Self.program) == nil)
        #expect(
            ItemsCache(decoding: Array("todosync items 2\n".utf8) + bytes.dropFirst(17), program: Self.program) == nil)
        // Another build of todosync (rebuilt, upgraded) may parse otherwise: its cache is not read.
        #expect(ItemsCache(decoding: bytes, program: "stat 1 2 3 4 5 6 /usr/bin/todosync") == nil)
    }
}

/// `list`, commit, sync and undo in a vault give the answer git's own data and the files give,
/// whatever the items cache holds: nothing, what it should, entries for files changed since
/// (a note edited to the same size with its modification time put back, too), a truncated
/// file, garbage.
@Suite struct ItemsCacheVaultTests {
    /// Each item line of every Markdown list under `root`, as `file:line id box raw-title`
    /// (`-` for an item without an id yet), parsed here from the files.
    static func reference(_ clone: Fixture) throws -> [String] {
        var lines: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: clone.path)
        while let name = enumerator?.nextObject() as? String {
            if name == ".git" { enumerator?.skipDescendants() }
            guard name.hasSuffix(".md"), let data = FileManager.default.contents(atPath: clone.path + "/" + name) else {
                continue
            }
            let document = ListDocument(path: name, bytes: Array(data))
            for node in document.nodeIDs.indices {
                let id = document.id(ofNode: node)?.description ?? "-"
                lines.append(
                    "\(name):\(document.nodeLine(node) + 1) \(id) \(document.isDone(node: node) ? "x" : " ") \(document.title(ofNode: node))"
                )
            }
        }
        return lines.sorted()
    }

    /// What `todosync list --json` says, in the same form, and how many lists came from the cache.
    static func listed(_ clone: Fixture) throws -> (lines: [String], fromCache: Int) {
        let result = try run(todosyncBinary, ["list", "--json"], in: clone.path, environment: ["TODOSYNC_TRACE": "1"])
        guard result.status == 0 else { throw TestFailure("todosync list failed: \(result.stderr)") }
        let items = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let lines = items.map { item in
            let id = (item["id"] as? String) ?? "-"
            return
                "\(item["file"]!):\(item["line"]!) \(id) \((item["done"] as? Bool) == true ? "x" : " ") \(item["rawTitle"]!)"
        }
        let note = result.stderr.split(separator: "\n").first {
            $0.hasPrefix("todosync trace: lists from the items cache: ")
        }
        let fromCache = note.flatMap { Int($0.split(separator: " ")[7].dropLast()) } ?? -1
        return (lines.sorted(), fromCache)
    }

    static func cachePath(_ clone: Fixture) -> String { clone.path + "/.git/todosync/cache/items" }

    @Test func everyCommandAgreesWithTheFilesWhateverTheCacheHolds() throws {
        let (remote, alice, bob) = try Remote.withTwoClones(seeding: VaultSyncTests.seed())
        let lists = VaultSyncTests.notes * 3 / 4
        // Files are recorded once left alone long enough that a later change shows in the stat.
        usleep(2_100_000)

        // Absent: every file read, the cache written.
        let first = try Self.listed(bob)
        #expect(first.lines == (try Self.reference(bob)))
        #expect(first.fromCache == 0)
        #expect(FileManager.default.fileExists(atPath: Self.cachePath(bob)))
        // Present: the lists come from it, with the same answer.
        let second = try Self.listed(bob)
        #expect(second.lines == first.lines)
        #expect(second.fromCache == lists, "\(second.fromCache)")

        // Stale: items moved between notes both ways, checked, renamed; a note added, one
        // removed; one edited to the same size with its modification time put back.
        try VaultSyncTests.move("Task 0-a", from: 0, to: 1, in: bob)
        try VaultSyncTests.move("Task 1-b", from: 1, to: 0, in: bob)
        try VaultSyncTests.replace("- [ ] Task 2-b", "- [x] Task 2-b", inNote: 2, of: bob)
        try VaultSyncTests.replace("Task 6-a", "Task 6-a renamed", inNote: 6, of: bob)
        try bob.write("daily/new.md", "# New\n\n- [ ] Written today\n")
        try FileManager.default.removeItem(atPath: bob.path + "/" + VaultSyncTests.path(5))
        let racy = bob.path + "/" + VaultSyncTests.path(10)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: racy)[.modificationDate] as? Date)
        try VaultSyncTests.replace("- [ ] Task 10-a", "- [x] Task 10-a", inNote: 10, of: bob)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: racy)
        let stale = try Self.listed(bob)
        #expect(stale.lines == (try Self.reference(bob)))
        #expect(stale.lines.contains { $0.hasPrefix(VaultSyncTests.path(10)) && $0.contains(" x Task 10-a") })
        #expect(stale.lines.contains { $0.hasSuffix(" - \u{20} Written today") })

        // An item line pasted into another note, id and all: ids are worked out across every
        // list (one copy shown without an id), the answer the files alone give.
        let source = try bob.read(VaultSyncTests.path(40))
        let pasted = try #require(source.split(separator: "\n").first { $0.contains("Task 40-a ") })
        try bob.write(VaultSyncTests.path(41), try bob.read(VaultSyncTests.path(41)) + pasted + "\n")
        let withCache = try Self.listed(bob).lines
        let saved = try #require(FileManager.default.contents(atPath: Self.cachePath(bob)))
        try FileManager.default.removeItem(atPath: Self.cachePath(bob))
        #expect(try Self.listed(bob).lines == withCache)
        try saved.write(to: URL(fileURLWithPath: Self.cachePath(bob)))
        #expect(withCache.filter { $0.hasSuffix("Task 40-a") }.count == 2)
        #expect(withCache.filter { $0.hasSuffix(" - \u{20} Task 40-a") }.count == 1)

        // A commit with the stale cache: what it commits is what the files hold.
        try bob.todosync()
        #expect(try bob.git("status", "--porcelain").isEmpty)
        #expect(try VaultSyncTests.lists(at: "HEAD", of: bob).items.count == (try Self.reference(bob)).count)
        #expect(try Self.listed(bob).lines == (try Self.reference(bob)))

        // Damaged: truncated, then garbage in the middle.
        let whole = try #require(FileManager.default.contents(atPath: Self.cachePath(bob)))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: Self.cachePath(bob)))
        #expect(try Self.listed(bob).lines == (try Self.reference(bob)))
        var garbage = try #require(FileManager.default.contents(atPath: Self.cachePath(bob)))
        garbage.replaceSubrange(garbage.count / 2..<(garbage.count / 2 + 64), with: Data(repeating: 0xAB, count: 64))
        try garbage.write(to: URL(fileURLWithPath: Self.cachePath(bob)))
        #expect(try Self.listed(bob).lines == (try Self.reference(bob)))

        // Sync with the other clone (items moved both ways there too), then undo, each with
        // the cache as the last command left it.
        try VaultSyncTests.move("Task 20-a", from: 20, to: 21, in: alice)
        try VaultSyncTests.move("Task 21-b", from: 21, to: 20, in: alice)
        try VaultSyncTests.replace("Task 2-a", "Task 2-a from alice", inNote: 2, of: alice)
        try alice.write("projects/alice.md", "- [ ] From alice\n")
        try FileManager.default.removeItem(atPath: alice.path + "/" + VaultSyncTests.path(9))
        try alice.todosync()
        try alice.sync()
        try bob.sync()
        try alice.sync()
        #expect(alice.head == bob.head)
        let synced = try Self.listed(bob)
        #expect(synced.lines == (try Self.reference(bob)))
        #expect(synced.lines == (try Self.listed(alice)).lines)
        #expect(synced.lines.contains { $0.contains("Task 2-a from alice") })
        try bob.todosync("done", "Task 30-a")
        #expect(try Self.listed(bob).lines.contains { $0.hasSuffix(" x Task 30-a") })
        try bob.todosync("undo")
        let undone = try Self.listed(bob).lines
        #expect(undone == (try Self.reference(bob)))
        #expect(undone == synced.lines)

        // Absent again: the same answer from the files alone.
        let before = try Self.listed(bob).lines
        try FileManager.default.removeItem(atPath: Self.cachePath(bob))
        #expect(try Self.listed(bob).lines == before)
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
        #expect(try git("rev-parse", "main", in: remote.path).trimmingCharacters(in: .newlines) == alice.head)
    }
}
