import Foundation
@testable import QuickStatus
import Testing
import TestSupport
@testable import TodoSyncKit

/// The clean-state note lets `todosync status` answer from file stamps alone: it must never
/// give the old answer after anything it was drawn from changed.
@Suite struct CleanStateTests {
    /// A committed repository: lists at the root and in a folder, a Markdown file without
    /// items, an ignored folder holding a list, an empty folder, a nested repository.
    private func committed() throws -> Fixture {
        let fixture = try Fixture()
        try fixture.write("TODO.md", "# Home\n- [ ] Buy milk\n- [x] Call Bob\n")
        try fixture.write("work/PLAN.md", "- [ ] Ship it\n")
        try fixture.write("notes.md", "No items here.\n")
        try fixture.write(".gitignore", "private/\n")
        try fixture.write("work/.gitattributes", "# nothing yet\n")
        try fixture.write("private/SECRET.md", "- [ ] Hidden\n")
        try FileManager.default.createDirectory(atPath: fixture.path + "/empty", withIntermediateDirectories: false)
        _ = try TestSupport.git("init", "-q", "vendor", in: fixture.path)
        try fixture.write("vendor/LIST.md", "- [ ] Theirs\n")
        try fixture.todosync()
        return fixture
    }

    /// Records a note as `status` would, trusting stamps up to the moment the workspace opens
    /// (the tool waits 2 s; tests wait one clock tick instead).
    private func record(_ fixture: Fixture) throws -> String {
        usleep(30_000)
        let workspace = try Workspace.open(at: fixture.path)
        let unit = try workspace.pending()
        #expect(unit.isEmpty)
        workspace.recordCleanState(
            unit, report: { ["On branch main", "Nothing changed since the last commit."] }, settleTime: 0)
        return workspace.root
    }

    enum Edit: String, CaseIterable, Sendable {
        case itemCheckedSameSize, listAddedAtRoot, listAddedInFolder, listAddedInEmptyFolder,
            itemsAddedToPlainMarkdown, listRemoved, ignoreRuleDropped, nestedRepositoryUnmade,
            plainGitCommit, branchSwitched, configExcludesAList, remoteTrackingRefMoved, bisectStarted,
            ignoredListTracked,
            attributesUnmarkAList, localAttributesUnmarkAList
    }

    private func apply(_ edit: Edit, to fixture: Fixture) throws {
        switch edit {
        case .itemCheckedSameSize:
            try fixture.write(
                "TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "[ ] Buy", with: "[x] Buy"))
        case .listAddedAtRoot: try fixture.write("NEW.md", "- [ ] New\n")
        case .listAddedInFolder: try fixture.write("work/NEW.md", "- [ ] New\n")
        case .listAddedInEmptyFolder: try fixture.write("empty/NEW.md", "- [ ] New\n")
        case .itemsAddedToPlainMarkdown: try fixture.write("notes.md", "- [ ] Now a list\n")
        case .listRemoved: try FileManager.default.removeItem(atPath: fixture.path + "/work/PLAN.md")
        case .ignoreRuleDropped: try fixture.write(".gitignore", "privat/\n")
        case .nestedRepositoryUnmade: try FileManager.default.removeItem(atPath: fixture.path + "/vendor/.git")
        case .plainGitCommit: _ = try fixture.git("commit", "-q", "--allow-empty", "-m", "plain git")
        case .branchSwitched: _ = try fixture.git("switch", "-q", "-c", "other")
        case .configExcludesAList: _ = try fixture.git("config", "--add", "todosync.exclude", "PLAN.md")
        case .remoteTrackingRefMoved: _ = try fixture.git("update-ref", "refs/remotes/origin/main", "HEAD")
        // A commit is refused while a git operation is in progress: its marks are stamped.
        case .bisectStarted: _ = try fixture.git("bisect", "start")
        // .gitignore does not apply to a tracked file: git's index is stamped.
        case .ignoredListTracked: _ = try fixture.git("add", "-f", "private/SECRET.md")
        // gitattributes decide which files are lists; written in place (as nano writes), the
        // folder's stamp stays as it was.
        case .attributesUnmarkAList: try fixture.save("work/.gitattributes", "PLAN.md -todosync\n", like: .nano)
        case .localAttributesUnmarkAList: try fixture.save(".git/info/attributes", "PLAN.md -todosync\n", like: .nano)
        }
    }

    @Test func aCleanTreeIsAnsweredFromStamps() throws {
        let fixture = try committed()
        let root = try record(fixture)
        #expect(CleanState.report(forRoot: root) == ["On branch main", "Nothing changed since the last commit."])
        // Reading a list does not disturb it, nor a git status that leaves git's index as it
        // was (git rewrites it while files are as new as it, within its clock's second).
        _ = try fixture.read("TODO.md")
        sleep(1)
        _ = try fixture.git("status", "--porcelain")
        _ = try record(fixture)
        _ = try fixture.git("status", "--porcelain")
        #expect(CleanState.report(forRoot: root) != nil)
        #expect(CleanState.report(forRoot: root + "/work") == nil)
    }

    /// A vault's note is megabytes (a stamp a file): it is read back like a small one (a cap of
    /// 1 MB made every status at 40,000 notes take the slow way and write the note again). A
    /// note past the cap is never written.
    @Test func aNoteOfMegabytesIsReadBack() throws {
        let fixture = try committed()
        let root = try record(fixture)
        let path = fixture.path + "/.git/" + CleanState.fileName
        let recorded = try #require(
            FileManager.default.contents(atPath: path).flatMap { CleanState(decoding: Array($0)) })
        // Stamps of paths that do not exist (as a folder's missing .gitignore is stamped), to megabytes.
        let absent = (0..<40_000).map {
            FileStamp(path: fixture.path + "/area\($0 % 400)/missing-file-\($0).gitignore", status: nil)
        }
        let large = CleanState(
            root: recorded.root, environment: recorded.environment, stamps: recorded.stamps + absent,
            report: recorded.report, commitReady: recorded.commitReady)
        let bytes = try #require(large.encoded())
        #expect(bytes.count > 2 << 20)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        #expect(CleanState.report(forRoot: root) == ["On branch main", "Nothing changed since the last commit."])
    }

    @Test(arguments: Edit.allCases) func anyEditItWasDrawnFromVoidsTheNote(_ edit: Edit) throws {
        let fixture = try committed()
        // "Up to date with origin/main" comes from the tracking ref: stamped when there is a remote.
        if edit == .remoteTrackingRefMoved { _ = try fixture.git("remote", "add", "origin", fixture.path) }
        let root = try record(fixture)
        #expect(CleanState.report(forRoot: root) != nil)
        try apply(edit, to: fixture)
        #expect(CleanState.report(forRoot: root) == nil, "\(edit)")
    }

    @Test func plainTodosyncIsAnsweredOnlyWhereACommitCouldRun() throws {
        let fixture = try committed()
        let root = try record(fixture)
        #expect(CleanState.answer(.commit, in: root) == ["Nothing changed since the last commit."])
        #expect(CleanState.answer(.status, in: root) == ["On branch main", "Nothing changed since the last commit."])
        // A folder inside the tree is not its root: the slow path finds the root.
        #expect(CleanState.answer(.status, in: root + "/work") == nil)
        // On a detached HEAD, status still holds but a commit would be refused.
        _ = try fixture.git("switch", "-q", "--detach", "HEAD")
        _ = try record(fixture)
        #expect(CleanState.answer(.status, in: root) != nil)
        #expect(CleanState.answer(.commit, in: root) == nil)
        // (Compared with the commit HEAD names, not with nothing.)
        #expect(try fixture.todosync("status").stdout == "HEAD is detached\nNothing changed since the last commit.\n")
        let refused = try fixture.todosync(expectStatus: 1)
        #expect(refused.stderr.contains("HEAD is detached"))
    }

    @Test func filesChangedJustBeforeAreNotTrusted() throws {
        let fixture = try committed()
        let workspace = try Workspace.open(at: fixture.path)
        let unit = try workspace.pending()
        var asked = false
        workspace.recordCleanState(
            unit,
            report: {
                asked = true; return ["clean"]
            })
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/.git/" + CleanState.fileName))
        // The report (which reads the upstream) is not even built for a note not written.
        #expect(!asked)
    }

    @Test func configThatIncludesOtherFilesKeepsTheNoteUnwrittenButTodosyncIncludeDoesNot() throws {
        let fixture = try committed()
        _ = try fixture.git("config", "--add", "todosync.include", "*.md")
        let root = try record(fixture)
        #expect(CleanState.report(forRoot: root) != nil)
        try FileManager.default.removeItem(atPath: fixture.path + "/.git/" + CleanState.fileName)
        _ = try fixture.git("config", "include.path", "../shared.gitconfig")
        _ = try record(fixture)
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/.git/" + CleanState.fileName))
    }

    @Test func aTreeWithSomethingToCommitIsNeverRecorded() throws {
        let fixture = try committed()
        try fixture.write("TODO.md", "- [ ] Buy milk\n- [ ] Without an id\n")
        usleep(30_000)
        let workspace = try Workspace.open(at: fixture.path)
        let unit = try workspace.pending()
        workspace.recordCleanState(unit, report: { ["clean"] }, settleTime: 0)
        #expect(!FileManager.default.fileExists(atPath: fixture.path + "/.git/" + CleanState.fileName))
    }

    @Test func aNoteForAnotherEnvironmentOrFolderIsIgnored() throws {
        let fixture = try committed()
        let root = try record(fixture)
        let path = fixture.path + "/.git/" + CleanState.fileName
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let note = try #require(CleanState(decoding: Array(bytes)))
        #expect(note.encoded().flatMap(CleanState.init(decoding:)) == note)
        var elsewhere = note
        elsewhere.environment[0] = "HOME=/elsewhere"
        try Data(#require(elsewhere.encoded())).write(to: URL(fileURLWithPath: path))
        #expect(CleanState.report(forRoot: root) == nil)
        var moved = note
        moved.root = "/somewhere/else"
        try Data(try #require(moved.encoded())).write(to: URL(fileURLWithPath: path))
        #expect(CleanState.report(forRoot: root) == nil)
        try Data("todosync clean-state 0\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(CleanState.report(forRoot: root) == nil)
    }

    @Test func theInstalledCommandAnswersTheSecondStatusFromTheNoteAndSeesTheNextEdit() throws {
        let fixture = try committed()
        // Past the 2 s a file must stand still before its stamp is trusted.
        usleep(2_100_000)
        let first = try fixture.todosync("status").stdout
        #expect(first == "On branch main\nNothing changed since the last commit.\n")
        let path = fixture.path + "/.git/" + CleanState.fileName
        let bytes = try #require(FileManager.default.contents(atPath: path))
        var note = try #require(CleanState(decoding: Array(bytes)))
        #expect(note.report == ["On branch main", "Nothing changed since the last commit."])
        // A note whose words differ shows which program answered.
        note.report = ["answered from the note"]
        try Data(try #require(note.encoded())).write(to: URL(fileURLWithPath: path))
        #expect(try fixture.todosync("status").stdout == "answered from the note\n")
        try fixture.write("TODO.md", try fixture.read("TODO.md").replacingOccurrences(of: "[ ] Buy", with: "[x] Buy"))
        let afterEdit = try fixture.todosync("status").stdout
        #expect(afterEdit.contains("Changes since the last commit (1):"))
        let porcelain = try fixture.git("status", "--porcelain")
        #expect(
            porcelain == " M TODO.md\n?? .gitignore\n?? notes.md\n?? vendor/\n?? work/.gitattributes\n", "\(porcelain)")
    }
}

/// A stamp written as a note line reads back the same, from its bytes.
@Suite struct FileStampLineTests {
    @Test func stampsReadBackFromTheirLines() {
        var random = SeededGenerator(seed: 5)
        for _ in 0..<500 {
            let status =
                Int.random(in: 0..<5, using: &random) == 0
                ? nil
                : FileStamp.Status(
                    size: Int64.random(in: 0...Int64.max, using: &random),
                    modified: Int64.random(in: Int64.min...Int64.max, using: &random),
                    changed: Int64.random(in: -1_000...Int64.max, using: &random),
                    inode: UInt64.random(in: 0...UInt64(Int64.max), using: &random),
                    device: UInt64.random(in: 0...1_000_000, using: &random),
                    mode: UInt32.random(in: 0...UInt32.max, using: &random))
            let stamp = FileStamp(path: "/a folder/b \(Int.random(in: 0...9, using: &random)).md", status: status)
            let line = Array(stamp.line.utf8)
            let space = line.firstIndex(of: 0x20)!
            #expect(FileStamp(key: line[..<space], rest: line[(space + 1)...]) == stamp)
            let text = Substring(stamp.line)
            #expect(FileStamp(key: text.prefix(4), rest: text.dropFirst(5)) == stamp)
        }
        for bad in [
            "stat 1 2 3", "stat 1 2 3 4 5 x /p", "stat 99999999999999999999 1 1 1 1 1 /p", "stats 1 2 3 4 5 6 /p",
        ] {
            let line = Array(bad.utf8), space = line.firstIndex(of: 0x20)!
            #expect(FileStamp(key: line[..<space], rest: line[(space + 1)...]) == nil, "\(bad)")
        }
    }
}

/// The note read back against the folder, the environment and each stamp as it is read: the
/// answer is the whole decode's, and any stamp that does not hold (first, last or between)
/// voids it.
@Suite struct CleanStateCheckedWhileReadTests {
    static let note = CleanState(
        root: "/r", environment: ["HOME=/h", "XDG_CONFIG_HOME="],
        stamps: (0..<5).map {
            FileStamp(
                path: "/r/n\($0).md",
                status: .init(size: Int64($0), modified: 1, changed: 2, inode: 3, device: 4, mode: 5))
        },
        report: ["Nothing changed since the last commit."], commitReady: true)

    @Test func aNoteWhoseStampsAllHoldIsTheWholeDecode() throws {
        let bytes = try #require(Self.note.encoded())
        #expect(CleanState(decoding: bytes, holdingFor: "/r", in: Self.note.environment) { _ in true } == Self.note)
        #expect(CleanState(decoding: bytes) == Self.note)
    }

    @Test(arguments: 0..<5) func oneStampThatDoesNotHoldVoidsIt(_ failing: Int) throws {
        let bytes = try #require(Self.note.encoded())
        var asked: [String] = []
        let read = CleanState(decoding: bytes, holdingFor: "/r", in: Self.note.environment) { stamp in
            asked.append(stamp.path)
            return stamp.path != "/r/n\(failing).md"
        }
        #expect(read == nil)
        // Checked in the note's order, up to the first that fails.
        #expect(asked == (0...failing).map { "/r/n\($0).md" })
    }

    @Test func anotherFolderOrEnvironmentVoidsIt() throws {
        let bytes = try #require(Self.note.encoded())
        #expect(CleanState(decoding: bytes, holdingFor: "/other", in: Self.note.environment) { _ in true } == nil)
        #expect(
            CleanState(decoding: bytes, holdingFor: "/r", in: ["HOME=/elsewhere", "XDG_CONFIG_HOME="]) { _ in true }
                == nil)
        #expect(
            CleanState(decoding: Array(bytes.dropLast()), holdingFor: "/r", in: Self.note.environment) { _ in true }
                == nil)
    }

    /// A vault's note: the first stamps checked in order, the rest of the files on two
    /// threads; any one of them changed (early, in either half, the very last) voids it.
    @Test func aVaultsNoteIsCheckedOnTwoThreadsAndAnyChangeVoidsIt() throws {
        let scratch = Scratch()
        let count = CleanState.checkedInOrder + 300
        for index in 0..<count { try scratch.write("n\(index).md", "- [ ] \(index)\n") }
        let holds = { (stamp: FileStamp) in FileStamp.take(stamp.path) == stamp }
        for changed in [3, CleanState.checkedInOrder + 10, CleanState.checkedInOrder + 200, count - 1] {
            let stamps = try (0..<count).map { try #require(FileStamp.take(scratch.path + "/n\($0).md")) }
            let note = CleanState(
                root: scratch.path, environment: ["HOME=/h"], stamps: stamps, report: ["Nothing changed."],
                commitReady: true)
            let bytes = try #require(note.encoded())
            #expect(
                CleanState(
                    decoding: bytes, holdingFor: scratch.path, in: ["HOME=/h"], checkingRestOnTwoThreads: true,
                    stampHolds: holds) == note)
            try scratch.write("n\(changed).md", "- [x] \(changed)\n")
            #expect(
                CleanState(
                    decoding: bytes, holdingFor: scratch.path, in: ["HOME=/h"], checkingRestOnTwoThreads: true,
                    stampHolds: holds) == nil, "\(changed)")
        }
    }
}
