import Foundation
import Testing
import TestSupport
@testable import GitStore

@Suite struct RepositoryTests {
    let signature = Signature(name: "Ann Example", email: "ann@example.com", time: 1_790_000_000, offsetMinutes: 60)

    @Test func commitsThroughAPrivateIndexAndGitReadsIt() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        guard case .unborn(let branch) = try repository.head() else {
            throw TestFailure("a new repository has an unborn HEAD")
        }
        #expect(branch == "main")
        let blob = try repository.writeBlob(Array("- [ ] a\n".utf8))
        let tree = try repository.writeTree(
            base: nil, applying: ["lists/TODO.md": .write(blob: blob, mode: TreeChange.regularFileMode)])
        let first = try repository.createCommit(
            tree: tree, parents: [], message: "First\n", author: signature, committer: signature)
        #expect(
            try git("rev-parse", "HEAD", in: scratch.path).trimmingCharacters(in: .whitespacesAndNewlines)
                == first.description)
        #expect(try git("show", "HEAD:lists/TODO.md", in: scratch.path) == "- [ ] a\n")
        #expect(try git("log", "--format=%an <%ae> %s", in: scratch.path) == "Ann Example <ann@example.com> First\n")

        let commit = try repository.commit(first)
        let files = try repository.files(inTree: commit.tree) { $0.hasSuffix(".md") }
        #expect(files.map(\.path) == ["lists/TODO.md"])
        #expect(try repository.blob(files[0].blob) == Array("- [ ] a\n".utf8))
        #expect(try Repository.blobID(of: Array("- [ ] a\n".utf8)) == blob)
        try git("fsck", "--strict", in: scratch.path)
    }

    @Test func blobsWrittenOnOtherThreadsAreStoredAsGitStoresThem() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let contents = (0..<8).map { n in Array(String(repeating: "- [ ] item \(n)\n", count: 20_000 + n).utf8) }
        let writes = contents.map { BlobWrite(storing: $0, in: repository.gitDirectory) }
        for (write, bytes) in zip(writes, contents) {
            let id = try #require(try write.id())
            #expect(id == (try Repository.blobID(of: bytes)))
            #expect(try repository.blob(id) == bytes)
            #expect(try git("cat-file", "-s", id.description, in: scratch.path) == "\(bytes.count)\n")
        }
        try git("fsck", "--strict", in: scratch.path)
        let objects =
            FileManager.default.enumerator(atPath: scratch.path + "/.git/objects")?.compactMap { $0 as? String } ?? []
        #expect(!objects.contains { $0.contains("tmp_") })
    }

    /// A blob read on another thread gives the bytes a read on this one gives; a blob that is
    /// not there gives libgit2's error; one released unread is not waited for.
    @Test func aBlobReadOnAnotherThreadGivesTheSameBytes() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let bytes = Array(String(repeating: "- [ ] a long list\n", count: 80_000).utf8)
        let id = try repository.writeBlob(bytes)
        #expect(try BlobRead(reading: id, in: repository.gitDirectory).bytes() == bytes)
        let missing = try Repository.blobID(of: Array("never stored\n".utf8))
        #expect(throws: GitError.self) { try BlobRead(reading: missing, in: repository.gitDirectory).bytes() }
        _ = BlobRead(reading: id, in: repository.gitDirectory)
    }

    /// Many blobs at once are one pack (and its index), not a loose file each; fewer are loose.
    /// Blobs git has already are not packed again; the handle that wrote them reads them, and
    /// a tree and commit written through it on top pass git's fsck.
    @Test func manyBlobsAreStoredAsAPackThatGitAndTheWritingHandleRead() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        func objectFiles() -> (loose: Int, packs: Int) {
            let names =
                FileManager.default.enumerator(atPath: scratch.path + "/.git/objects")?.compactMap { $0 as? String }
                ?? []
            return (
                names.filter { $0.count == 41 && $0.dropFirst(2).first == "/" }.count,
                names.filter { $0.hasSuffix(".pack") }.count
            )
        }
        let few = (0..<3).map { (bytes: Array("- [ ] few \($0)\n".utf8), path: "few/\($0).md") }
        let fewIDs = try repository.writeBlobs(few)
        #expect(objectFiles().loose == 3 && objectFiles().packs == 0)

        // Past the threshold, with the three already stored among them and one blob twice.
        var many = (0..<Repository.packedBlobCount + 20).map { n in
            (bytes: Array("# Note \(n)\n\n- [ ] Task \(n)-a\n- [ ] Task \(n)-b\n".utf8), path: "notes/\(n).md")
        }
        many += few + [many[5]]
        let ids = try repository.writeBlobs(many)
        #expect(objectFiles().loose == 3 && objectFiles().packs == 1)
        #expect(Array(ids.suffix(4)) == fewIDs + [ids[5]])
        for (blob, id) in zip(many, ids) {
            #expect(id == (try Repository.blobID(of: blob.bytes)))
            #expect(try repository.blob(id) == blob.bytes)
        }
        let packs = scratch.path + "/.git/objects/pack"
        let index = try #require(
            try FileManager.default.contentsOfDirectory(atPath: packs).first { $0.hasSuffix(".idx") })
        let packed = try git("verify-pack", "-v", packs + "/" + index, in: scratch.path)
        #expect(packed.contains("blob"))
        #expect(!fewIDs.contains { packed.contains($0.description) }, "blobs git had are not packed again")

        var changes: [String: TreeChange] = [:]
        for (blob, id) in zip(many, ids) { changes[blob.path] = .write(blob: id, mode: TreeChange.regularFileMode) }
        let tree = try repository.writeTree(base: nil, applying: changes)
        let commit = try repository.createCommit(
            tree: tree, parents: [], message: "Many\n", author: signature, committer: signature)
        try git("update-ref", "refs/heads/main", commit.description, in: scratch.path)
        try git("fsck", "--strict", "--no-dangling", in: scratch.path)
        #expect(try git("show", "HEAD:notes/7.md", in: scratch.path) == "# Note 7\n\n- [ ] Task 7-a\n- [ ] Task 7-b\n")
    }

    /// A blob stored whole is the blob git stores (an empty file's too); one that is there
    /// already is left as it is (freshened), as git leaves it.
    @Test func blobsStoredWholeAreGitsAndOnesThereAlreadyAreKept() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        #expect(try repository.writeBlob([]).description == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
        let bytes = Array("- [ ] Milk\n".utf8)
        let id = try repository.writeBlob(bytes)
        try scratch.write("milk.md", "- [ ] Milk\n")
        #expect(id.description + "\n" == (try git("hash-object", "milk.md", in: scratch.path)))
        let path = scratch.path + "/.git/objects/" + id.description.prefix(2) + "/" + id.description.dropFirst(2)
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        #expect(try repository.writeBlob(bytes) == id)
        #expect(
            try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == before,
            "the same file, not written again")
        #expect(try repository.blob(id) == bytes)
        try git("fsck", "--strict", in: scratch.path)
    }

    @Test func aBlobWriteStoppedBetweenPiecesLeavesNothingBehind() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let bytes = Array(String(repeating: "- [ ] a long list\n", count: 50_000).utf8)
        var asked = 0
        #expect(
            try repository.writeBlob(bytes) {
                asked += 1; return asked > 3
            } == nil)
        #expect(asked == 4)
        #expect(try repository.writeBlob(bytes) { true } == nil)
        let objects =
            FileManager.default.enumerator(atPath: scratch.path + "/.git/objects")?.compactMap { $0 as? String } ?? []
        #expect(!objects.contains { $0.contains("tmp_") || $0.count == 41 })
        // Not stopped: the same blob git would store.
        let id = try #require(try repository.writeBlob(bytes) { false })
        #expect(id == (try Repository.blobID(of: bytes)))
        #expect(try git("cat-file", "-s", id.description, in: scratch.path) == "\(bytes.count)\n")

        // On its thread: a write is not put in place until its id is asked for, so a stop
        // leaves nothing behind however far it got; released unasked, it is stopped too.
        let other = Array(String(repeating: "- [ ] another list\n", count: 50_000).utf8)
        let otherID = try Repository.blobID(of: other).description
        let loose = scratch.path + "/.git/objects/" + otherID.prefix(2) + "/" + otherID.dropFirst(2)
        let write = BlobWrite(storing: other, in: repository.gitDirectory)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!FileManager.default.fileExists(atPath: loose))
        write.stop()
        #expect(try write.id() == nil)
        #expect(!FileManager.default.fileExists(atPath: loose))
        let kept = BlobWrite(storing: other, in: repository.gitDirectory)
        #expect(try kept.id()?.description == otherID)
        #expect(FileManager.default.fileExists(atPath: loose))
        // Released at once, a large write is stopped and over by the time the release returns.
        _ = BlobWrite(
            storing: Array(String(repeating: "- [ ] released at once\n", count: 300_000).utf8),
            in: repository.gitDirectory)
        let right =
            FileManager.default.enumerator(atPath: scratch.path + "/.git/objects")?.compactMap { $0 as? String } ?? []
        #expect(!right.contains { $0.contains("tmp_") })
        try git("fsck", "--strict", in: scratch.path)
        let after =
            FileManager.default.enumerator(atPath: scratch.path + "/.git/objects")?.compactMap { $0 as? String } ?? []
        #expect(!after.contains { $0.contains("tmp_") })
    }

    @Test func aBlobWriteThatFailsGivesGitsError() throws {
        let scratch = Scratch()
        let write = BlobWrite(storing: Array("x\n".utf8), in: scratch.path + "/no-repository")
        let error = #expect(throws: GitError.self) { try write.id() }
        #expect(error?.function == "git_repository_open_ext")
    }

    @Test func aCommitOnAStaleParentFailsWithGitsMessage() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let tree = try repository.writeTree(base: nil, applying: [:])
        let first = try repository.createCommit(
            tree: tree, parents: [], message: "a\n", author: signature, committer: signature)
        _ = try repository.createCommit(
            tree: tree, parents: [first], message: "b\n", author: signature, committer: signature)
        // HEAD moved on: a commit whose parent is the old HEAD must not replace it.
        let error = #expect(throws: GitError.self) {
            try repository.createCommit(
                tree: tree, parents: [first], message: "c\n", author: signature, committer: signature)
        }
        #expect(error?.function == "git_commit_create")
        #expect(error?.message.isEmpty == false)
        #expect(try git("log", "--format=%s", in: scratch.path) == "b\na\n")
    }

    @Test func listsReferencesByGlobAsGitDoes() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        #expect(try repository.referenceNames(matching: "refs/remotes/*") == [])
        let tree = try repository.writeTree(base: nil, applying: [:])
        let first = try repository.createCommit(
            tree: tree, parents: [], message: "a\n", author: signature, committer: signature)
        for name in [
            "refs/remotes/origin/work", "refs/remotes/origin/main", "refs/remotes/backup/main", "refs/tags/v1",
        ] {
            try git("update-ref", name, first.description, in: scratch.path)
        }
        try git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main", in: scratch.path)
        let expected = try git("for-each-ref", "--format=%(refname)", "refs/remotes/", in: scratch.path).split(
            separator: "\n"
        ).map(String.init).sorted()
        #expect(try repository.referenceNames(matching: "refs/remotes/*") == expected)
        #expect(expected.count == 4)
        #expect(
            try repository.referenceNames(matching: "refs/remotes/origin/*") == [
                "refs/remotes/origin/HEAD", "refs/remotes/origin/main", "refs/remotes/origin/work",
            ])
    }

    @Test func openingAFolderThatIsNoRepositoryIsNotFound() throws {
        let scratch = Scratch()
        let error = #expect(throws: GitError.self) { try Repository.open(at: scratch.path) }
        #expect(error?.isNotFound == true)
    }

    @Test func readsConfigAndIgnoreRules() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        try repository.setConfig("todosync.include", to: "lists/*.md")
        #expect(try repository.configStrings("todosync.include") == ["lists/*.md"])
        #expect(try repository.configString("todosync.nothing") == nil)
        try scratch.write(".gitignore", "drafts/\n")
        #expect(try repository.isIgnored("drafts/"))
        #expect(try !repository.isIgnored("TODO.md"))
    }

    /// Which candidate paths git's index does not hold, found in one pass over both in git's
    /// order of paths: the same as asking the index path by path, for names that sort apart
    /// only by their bytes (".", "-", "/", digits, composed and decomposed "é").
    @Test func untrackedPositionsAgreeWithAskingPathByPath() throws {
        let scratch = Scratch()
        _ = try Repository.create(at: scratch.path)
        let names = [
            "a-b.md", "a.md", "a/b.md", "a/c/d.md", "a0.md", "b.md", "caf\u{E9}.md", "cafe\u{301}.md", "z/TODO.md",
            "\u{1F4DD}.md",
        ]
        for name in names { try scratch.write(name, "- [ ] x\n") }
        for tracked in [[], names, ["a.md", "a/c/d.md", "cafe\u{301}.md", "\u{1F4DD}.md"], ["a-b.md", "z/TODO.md"]] {
            _ = try git("rm", "-rq", "--cached", "--ignore-unmatch", ".", in: scratch.path)
            if !tracked.isEmpty { _ = try run("/usr/bin/git", ["add", "--"] + tracked, in: scratch.path) }
            let reopened = try Repository.open(at: scratch.path)
            let sorted = names.sorted(by: PathOrder.precedes)
            // NB: by bytes: Swift's String calls the composed and decomposed names equal.
            let expected = sorted.indices.filter { position in
                !tracked.contains { Array($0.utf8) == Array(sorted[position].utf8) }
            }
            #expect(try reopened.untrackedPositions(among: sorted) == expected, "\(tracked)")
            #expect(expected.count == names.count - tracked.count)
            for position in sorted.indices {
                #expect(try reopened.isTracked(sorted[position]) == !expected.contains(position))
            }
        }
    }

    /// The paths two trees hold otherwise, as `git diff-tree -r` names them: contents and modes
    /// changed, files added and removed, a file become a folder and a folder a file, a link;
    /// folders alike on both sides skipped whole.
    @Test func changedPathsAreWhatGitDiffTreeNames() throws {
        let scratch = Scratch()
        let repository = try Repository.create(at: scratch.path)
        let first: [String: String] = [
            "same/a.md": "a", "same/deep/b.md": "b", "edit.md": "1", "mode.sh": "x", "gone.md": "g",
            "becomes/dir": "file",
            "dir/was.md": "w", "dir/kept.md": "k", "a.md": "a", "a/x.md": "x", "caf\u{E9}.md": "c",
        ]
        for (path, text) in first { try scratch.write(path, text) }
        _ = try git("add", "-A", in: scratch.path)
        _ = try git("commit", "-qm", "first", in: scratch.path)
        try scratch.write("edit.md", "2")
        _ = try git("update-index", "--chmod=+x", "mode.sh", in: scratch.path)
        try FileManager.default.removeItem(atPath: scratch.path + "/gone.md")
        try FileManager.default.removeItem(atPath: scratch.path + "/becomes/dir")
        try scratch.write("becomes/dir/inside.md", "now a folder")
        try FileManager.default.removeItem(atPath: scratch.path + "/dir")
        try scratch.write("dir", "now a file")
        try scratch.write("new/deep/c.md", "c")
        try scratch.write("a/x.md", "x2")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link.md", withDestinationPath: "a.md")
        _ = try git("add", "-A", in: scratch.path)
        _ = try git("commit", "-qm", "second", in: scratch.path)
        let trees = try ["HEAD~1", "HEAD"].map {
            try #require(
                OID(
                    hex: try git("rev-parse", "\($0)^{tree}", in: scratch.path).trimmingCharacters(
                        in: .whitespacesAndNewlines)))
        }
        let expected = try git(
            "-c", "core.quotepath=off", "diff-tree", "-r", "--name-only", "--no-renames", trees[0].description,
            trees[1].description, in: scratch.path
        )
        .split(separator: "\n").map(String.init)
        #expect(try repository.changedPaths(from: trees[0], to: trees[1]).sorted() == expected.sorted())
        #expect(try repository.changedPaths(from: trees[1], to: trees[0]).sorted() == expected.sorted())
        let all = try git(
            "-c", "core.quotepath=off", "ls-tree", "-r", "--name-only", trees[1].description, in: scratch.path
        ).split(separator: "\n").map(String.init)
        #expect(try repository.changedPaths(from: nil, to: trees[1]).sorted() == all.sorted())
        #expect(try repository.changedPaths(from: trees[1], to: trees[1]).isEmpty)
    }
}
