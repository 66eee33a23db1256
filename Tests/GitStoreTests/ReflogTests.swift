import Foundation
import Testing
import TestSupport
@testable import GitStore

/// The branch reflog as todosync reads it, against `git reflog` reading the same file.
@Suite struct ReflogTests {
    static let prefixes = [
        "commit: ", "commit (initial): ", "commit (amend): ", "revert: ", "cherry-pick: ", "todosync: ",
    ]

    /// What git says the reflog of `reference` holds: each entry's new id and message, newest first.
    func gitReflog(_ reference: String, in directory: String) throws -> [(id: String, message: String)] {
        try git("reflog", "show", "--format=%H%x09%gs", reference, "--", in: directory).split(separator: "\n").map {
            line in
            let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    func expectSameAsGit(_ reference: String, repository: Repository, directory: String) throws {
        let entries = try gitReflog(reference, in: directory)
        let read = try repository.reflogTargets(of: reference, withMessagesStartingWith: Self.prefixes)
        #expect(read.total == entries.count)
        let wanted = entries.filter { entry in Self.prefixes.contains { entry.message.hasPrefix($0) } }.map(\.id)
        #expect(read.oldestFirst.reversed().map(\.description) == wanted)
    }

    @Test func readsTheCommitsMadeHereNewestFirstAsGitDoes() throws {
        let scratch = Scratch()
        let path = scratch.path
        try git("init", "-q", "-b", "main", in: path)
        for (index, message) in ["First", "Second ✅ with a\ttab", "Third"].enumerated() {
            try Data("line \(index)\n".utf8).write(to: URL(fileURLWithPath: path + "/TODO.md"))
            try git("add", "TODO.md", in: path)
            try git("commit", "-q", "-m", message, in: path)
        }
        try git("commit", "-q", "--amend", "-m", "Third, reworded", in: path)
        try git("revert", "--no-edit", "HEAD", in: path)
        try git("reset", "-q", "--hard", "HEAD~2", in: path)
        try git("branch", "side", "HEAD~1", in: path)
        try git("checkout", "-q", "side", in: path)
        try Data("side\n".utf8).write(to: URL(fileURLWithPath: path + "/side.md"))
        try git("add", "side.md", in: path)
        try git("commit", "-q", "-m", "Side", in: path)
        try git("checkout", "-q", "main", in: path)
        try git("cherry-pick", "side", in: path)
        try git("merge", "-q", "--no-edit", "side", in: path)

        let repository = try Repository.open(at: path)
        // A commit libgit2 makes writes the reflog in its own hand.
        let head = try repository.commit(#require(try repository.commitID(named: "HEAD")))
        let made = try repository.createCommit(
            tree: head.tree, parents: [head.id], message: "Made by libgit2\n",
            author: Signature(name: "A", email: "a@example.com", time: 1_790_000_000, offsetMinutes: 0),
            committer: Signature(name: "A", email: "a@example.com", time: 1_790_000_000, offsetMinutes: 0))

        try expectSameAsGit("refs/heads/main", repository: repository, directory: path)
        try expectSameAsGit("refs/heads/side", repository: repository, directory: path)
        let main = try repository.reflogTargets(of: "refs/heads/main", withMessagesStartingWith: Self.prefixes)
        #expect(main.oldestFirst.last == made)
        #expect(main.total == 9)
    }

    @Test func aWorktreeReadsItsBranchFromTheCommonDirectory() throws {
        let scratch = Scratch()
        let path = scratch.path + "/main"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main", in: path)
        try git("commit", "-q", "--allow-empty", "-m", "First", in: path)
        try git("worktree", "add", "-q", "-b", "elsewhere", scratch.path + "/other", in: path)
        try git("commit", "-q", "--allow-empty", "-m", "In the worktree", in: scratch.path + "/other")
        let repository = try Repository.open(at: scratch.path + "/other")
        try expectSameAsGit("refs/heads/elsewhere", repository: repository, directory: scratch.path + "/other")
        #expect(
            try repository.reflogTargets(of: "refs/heads/elsewhere", withMessagesStartingWith: Self.prefixes)
                .oldestFirst.count == 1)
    }

    /// A reflog far longer than one read, with lines of every length (one longer than a read),
    /// against a naive reading of the same text.
    @Test func aLongReflogIsReadPieceByPieceAsAWholeReadingWouldReadIt() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        var generator = SeededGenerator(seed: 33)
        let messages = [
            "todosync: Check \"Milk\"", "commit: Reword", "pull: Fast-forward", "reset: moving to HEAD~1",
            "todosync sync: Sync with origin/main",
        ]
        var text = ""
        for index in 0..<4_000 {
            let id = String((0..<40).map { _ in "0123456789abcdef".randomElement(using: &generator)! })
            var message =
                messages.randomElement(using: &generator)!
                + String(repeating: "é", count: Int.random(in: 0..<200, using: &generator))
            if index == 1_234 { message += String(repeating: "x", count: 100_000) }
            text +=
                "\(String(repeating: "0", count: 40)) \(id) Ann <ann@example.com> \(1_790_000_000 + index) +0000\t\(message)\n"
        }
        try FileManager.default.createDirectory(
            atPath: scratch.path + "/.git/logs/refs/heads", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: scratch.path + "/.git/logs/refs/heads/main"))

        let naive = text.split(separator: "\n").reversed().filter { line in
            let message = line.split(separator: "\t", maxSplits: 1)[1]
            return Self.prefixes.contains { message.hasPrefix($0) }
        }.map { String($0.dropFirst(41).prefix(40)) }
        let read = try repository.reflogTargets(of: "refs/heads/main", withMessagesStartingWith: Self.prefixes)
        #expect(read.total == 4_000)
        #expect(read.oldestFirst.reversed().map(\.description) == naive)
    }

    @Test func noReflogIsNoEntriesAndALineBeingWrittenIsLeftOut() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        #expect(try repository.reflogTargets(of: "refs/heads/main", withMessagesStartingWith: Self.prefixes).total == 0)

        let (a, b, c) = (
            String(repeating: "a", count: 40), String(repeating: "B", count: 40), String(repeating: "c", count: 40)
        )
        let zero = String(repeating: "0", count: 40)
        let text = [
            "\(zero) \(a) Ann <ann@example.com> 1790000000 +0100\tcommit (initial): First\n",
            "not a reflog line\n",
            "\(a) \(b) Ann <ann@example.com> 1790000060 +0100\n",  // git wrote lines without a message once
            "\(b) \(a) Ann <ann@example.com> 1790000120 +0100\treset: moving to HEAD~1\n",
            "\(a) \(c) Ann <ann@example.com> 1790000180 +0100\ttodosync: Check \"Milk\"\n",
            "\(c) \(b) Ann <ann@example.com> 1790000240 +0100\tcommit: half wri",
        ].joined()
        try FileManager.default.createDirectory(
            atPath: scratch.path + "/.git/logs/refs/heads", withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: scratch.path + "/.git/logs/refs/heads/main"))
        let read = try repository.reflogTargets(of: "refs/heads/main", withMessagesStartingWith: Self.prefixes)
        #expect(read.oldestFirst.map(\.description) == [a, c])
        #expect(read.total == 4)
    }
}
