import GitStore
import Testing
import TestSupport
@testable import TodoModel
@testable import TodoSyncKit

/// The one write path (`Workspace.apply`) run against the strict in-memory store: the order of
/// its writes, and what each expectation that fails leaves behind, without a disk.
@Suite struct WritePathTests {
    static let branch = "refs/heads/main"

    /// A store on a commit of two lists, checked out.
    static func store() -> (MemoryStore, Commit) {
        let store = MemoryStore()
        let head = store.makeCommit(["TODO.md": "- [ ] a\n", "work.md": "- [ ] w\n", "notes.txt": "n\n"])
        store.checkOut(head)
        return (store, head)
    }

    /// A plan that adds an item to each list, as an item command's would.
    static func plan(on head: Commit, _ store: MemoryStore) -> WritePlan {
        let todo = Array("- [ ] a\n- [ ] b\n".utf8), work = Array("- [ ] w\n- [ ] x\n".utf8)
        return WritePlan(
            branch: branch, expectedHead: head.id,
            target: .new(
                WritePlan.NewCommit(
                    parents: [head.id], baseTree: head.tree, lists: ["TODO.md": todo, "work.md": work], modes: [:],
                    message: CommitMessage(summary: "Add \"b\" and \"x\""))),
            files: [
                WritePlan.FileWrite(path: "TODO.md", expected: store.files["TODO.md"], final: todo),
                WritePlan.FileWrite(path: "work.md", expected: store.files["work.md"], final: work),
            ],
            reflogMessage: "todosync: test")
    }

    static func apply(_ plan: WritePlan, to store: MemoryStore) throws(TodoSyncError) -> (AppliedPlan, [String]) {
        var notices: [String] = []
        let applied = try Workspace.apply(plan, to: store, notices: &notices)
        return (applied, notices)
    }

    @Test func aPlanIsWrittenInTheOneFixedOrder() throws {
        let (store, head) = Self.store()
        let (applied, notices) = try Self.apply(Self.plan(on: head, store), to: store)
        #expect(notices.isEmpty)
        #expect(
            store.log == [
                "check locks", "read \(Self.branch)", "expect TODO.md", "expect work.md",
                "blob TODO.md", "blob work.md", "tree", "commit", "journal",
                "replace TODO.md", "replace work.md", "move \(Self.branch)", "index", "remove journal",
            ])
        let commit = try #require(applied.commit)
        #expect(store.refs[Self.branch] == commit)
        #expect(
            store.texts(of: commit) == [
                "TODO.md": "- [ ] a\n- [ ] b\n", "work.md": "- [ ] w\n- [ ] x\n", "notes.txt": "n\n",
            ])
        #expect(store.files["TODO.md"] == Array("- [ ] a\n- [ ] b\n".utf8))
        #expect(store.index["TODO.md"]?.blob == applied.listBlobs["TODO.md"])
        #expect(store.journal == nil)
        #expect(store.isSound)
    }

    @Test func aBlobStoredAheadIsNotWrittenAgain() throws {
        let (store, head) = Self.store()
        var plan = Self.plan(on: head, store)
        guard case .new(var new) = plan.target, case let bytes?? = new.lists["TODO.md"] else {
            throw TestFailure("a plan of a new commit")
        }
        new.storedBlobs = ["TODO.md": store.storeAhead(bytes)]
        plan.target = .new(new)
        let (applied, _) = try Self.apply(plan, to: store)
        #expect(!store.log.contains("blob TODO.md"))
        #expect(store.log.contains("blob work.md"))
        let commit = try #require(applied.commit)
        #expect(store.texts(of: commit)?["TODO.md"] == "- [ ] a\n- [ ] b\n")
        #expect(store.isSound)
    }

    @Test func aStoredBlobThatIsNotThereStopsTheWriteBeforeAnythingReferToIt() throws {
        let (store, head) = Self.store()
        var plan = Self.plan(on: head, store)
        guard case .new(var new) = plan.target else { throw TestFailure("a plan of a new commit") }
        new.storedBlobs = ["TODO.md": OID(hex: String(repeating: "ab", count: 20))!]
        plan.target = .new(new)
        #expect(throws: TodoSyncError.self) { try Self.apply(plan, to: store) }
        #expect(!store.log.contains("commit") && !store.log.contains("journal"))
        #expect(store.refs[Self.branch] == head.id)
        #expect(store.files["TODO.md"] == Array("- [ ] a\n".utf8))
    }

    @Test(arguments: ["index.lock", "refs/heads/main.lock", "HEAD.lock"])
    func aLockOfGitsRefusesBeforeAnyWrite(lock: String) throws {
        let (store, head) = Self.store()
        store.gitLocks = [lock]
        #expect(throws: TodoSyncError.self) { try Self.apply(Self.plan(on: head, store), to: store) }
        #expect(store.log == ["check locks"])
        #expect(store.refs[Self.branch] == head.id)
    }

    @Test(arguments: ["expect TODO.md", "blob TODO.md", "journal", "replace TODO.md", "replace work.md"])
    func anEditorsSaveBeforeAStepStopsTheWriteWithTheSaveKept(step: String) throws {
        let (store, head) = Self.store()
        let save = Array("- [ ] a\n- [ ] typed in the editor\n".utf8)
        store.before = { if $0 == step { store.files["work.md"] = save; store.files["TODO.md"] = save } }
        do {
            _ = try Self.apply(Self.plan(on: head, store), to: store)
            Issue.record("the write went through over the editor's save")
        } catch {
            #expect(error.isChangedMeanwhile)
        }
        // The branch did not move, the journal is gone, and the save is what the files hold.
        #expect(store.refs[Self.branch] == head.id)
        #expect(store.journal == nil)
        #expect(store.files["work.md"] == save)
        #expect(store.isSound)
    }

    @Test func aCommitMadeMeanwhileLeavesTheBranchAndSaysTheFilesHoldTheChange() throws {
        let (store, head) = Self.store()
        let other = store.makeCommit(["TODO.md": "- [ ] a\n"], parent: head.id, message: "made meanwhile")
        store.before = { if $0 == "move \(Self.branch)" { store.refs[Self.branch] = other.id } }
        #expect {
            try Self.apply(Self.plan(on: head, store), to: store)
        } throws: { error in
            (error as? TodoSyncError)?.message.contains("the list files hold the change, not committed") == true
        }
        #expect(store.refs[Self.branch] == other.id)
        #expect(store.journal == nil)
        #expect(store.files["TODO.md"] == Array("- [ ] a\n- [ ] b\n".utf8))
    }

    @Test func anIndexThatCannotBeWrittenKeepsTheJournalAndSaysSo() throws {
        let (store, head) = Self.store()
        store.failing = "index"
        let (applied, notices) = try Self.apply(Self.plan(on: head, store), to: store)
        #expect(store.refs[Self.branch] == applied.commit)
        #expect(store.journal?.target == applied.commit)
        #expect(notices.count == 1 && notices[0].contains("git's index could not be updated"))
    }

    @Test(arguments: ["blob work.md", "tree", "commit", "journal", "replace work.md"])
    func aFullDiskAtAnyWriteLeavesTheBranchAndIndexAsTheyWere(step: String) throws {
        let (store, head) = Self.store()
        let index = store.index.mapValues(\.blob)
        store.failing = step
        #expect(throws: TodoSyncError.self) { try Self.apply(Self.plan(on: head, store), to: store) }
        #expect(store.refs[Self.branch] == head.id)
        #expect(store.index.mapValues(\.blob) == index)
        #expect(store.journal == nil)
        #expect(store.isSound)
    }

    @Test(arguments: ["branch", "index"])
    func aWriteStoppedAfterTheBranchIsFinishedFromItsJournal(step: String) throws {
        // Stopped after the step: the operation that follows it fails, leaving the journal.
        let (store, head) = Self.store()
        store.failing = step == "branch" ? "index" : "remove journal"
        _ = try? Self.apply(Self.plan(on: head, store), to: store)
        store.failing = nil
        let journal = try #require(store.journal)
        var notices: [String] = []
        try Workspace.finishInterruptedWrite(in: store, notices: &notices)
        #expect(store.refs[Self.branch] == journal.target)
        #expect(store.journal == nil)
        #expect(store.index["TODO.md"]?.blob == journal.files["TODO.md"] ?? nil)
        #expect(notices.isEmpty)
        #expect(store.isSound)
    }

    @Test(arguments: [false, true])
    func aWriteStoppedAfterItsFilesIsFinishedUnlessTheyWereEditedSince(edited: Bool) throws {
        // What a stop right after the files leaves: the objects, the journal, the new files.
        let (store, head) = Self.store()
        let plan = Self.plan(on: head, store)
        guard case .new(let new) = plan.target else { throw TestFailure("the plan makes a commit") }
        var lists = ["notes.txt": "n\n"]
        for (path, bytes) in new.lists { lists[path] = String(decoding: bytes ?? [], as: UTF8.self) }
        let commit = store.makeCommit(lists, parent: head.id)
        var files: [String: OID?] = [:]
        for file in plan.files { files[file.path] = try store.blobID(of: file.final ?? [], path: file.path) }
        try store.writeJournal(WriteJournal(branch: Self.branch, expected: head.id, target: commit.id, files: files))
        for file in plan.files { store.files[file.path] = file.final }
        let typed = Array("- [ ] a\n- [ ] b\n- [ ] typed after the stop\n".utf8)
        if edited { store.files["TODO.md"] = typed }

        var notices: [String] = []
        try Workspace.finishInterruptedWrite(in: store, notices: &notices)
        #expect(store.journal == nil)
        // Finished only where every file still holds what the write put there; otherwise the
        // files stay as they are, for the next commit to take in as edits.
        #expect(store.refs[Self.branch] == (edited ? head.id : commit.id))
        #expect(notices.count == (edited ? 0 : 1))
        if edited { #expect(store.files["TODO.md"] == typed) }
        #expect(store.isSound)
    }

    @Test func aSyncChangesAListOutsideTheSparseCheckoutInTheIndexOnly() throws {
        let (store, head) = Self.store()
        store.files["work.md"] = nil
        store.skippingWorktree = ["work.md"]
        let theirs = store.makeCommit(
            ["TODO.md": "- [ ] a\n", "work.md": "- [ ] w\n- [ ] x\n", "notes.txt": "n\n"], parent: head.id)
        var plan = WritePlan(
            branch: Self.branch, expectedHead: head.id, target: .existing(theirs),
            files: [
                WritePlan.FileWrite(
                    path: "work.md", expected: Array("- [ ] w\n".utf8), final: Array("- [ ] w\n- [ ] x\n".utf8))
            ],
            reflogMessage: "todosync sync: fast-forward")
        // Anything but a sync refuses, naming the way in.
        #expect {
            try Self.apply(plan, to: store)
        } throws: { error in
            (error as? TodoSyncError)?.hint?.contains("git sparse-checkout add work.md") == true
        }
        plan.updatesFilesOutsideSparseCheckout = true
        _ = try Self.apply(plan, to: store)
        #expect(store.refs[Self.branch] == theirs.id)
        #expect(store.files["work.md"] == nil)
        #expect(store.index["work.md"]?.skipsWorktree == true)
        #expect(store.index["work.md"]?.blob == store.trees[theirs.tree]?["work.md"]?.blob)
        #expect(store.isSound)
    }
}
