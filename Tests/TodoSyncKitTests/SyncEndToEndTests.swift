import Foundation
import Testing
import TestSupport

/// Sync through real repositories: a `git daemon` server and plain paths, with the git CLI
/// as the witness.
@Suite struct SyncEndToEndTests {
    @Test func twoClonesEditingDifferentItemsMergeThroughGitDaemon() throws {
        let remote = try Remote()
        try remote.serve()
        let alice = try remote.clone(seeding: ["TODO.md": withIDs("# Home\n- [ ] Milk ^milk\n- [ ] Bread ^bread\n")])
        let bob = try remote.clone()
        try alice.write("TODO.md", withIDs("# Home\n- [x] Milk ^milk\n- [ ] Bread ^bread\n- [ ] Call Bob\n"))
        try bob.write("TODO.md", withIDs("# Home\n- [ ] Milk ^milk\n- [ ] Rye bread ^bread\n"))
        let first = try alice.sync()
        #expect(first.stdout.contains("Pushed to origin/main."))
        let second = try bob.sync()
        #expect(second.stdout.contains("Merged origin/main"))
        #expect(second.stdout.contains("Check \"Milk\""))
        try alice.sync()

        let expected = "# Home\n- [x] Milk ^milk\n- [ ] Rye bread ^bread\n- [ ] Call Bob"
        #expect(withShortIDs(try alice.read("TODO.md")).hasPrefix(expected))
        #expect(try alice.read("TODO.md") == bob.read("TODO.md"))
        #expect(try bob.git("log", "-1", "--format=%P").split(separator: " ").count == 2)
        let message = try bob.git("log", "-1", "--format=%B")
        #expect(message.hasPrefix("Sync with origin/main: "))
        #expect(message.contains("Todosync-Unit: sync"))
        // The server holds what both clones hold.
        #expect(try git("rev-parse", "main", in: remote.path) == bob.git("rev-parse", "HEAD"))
        try git("fsck", "--strict", in: remote.path)
        for clone in [alice, bob] { try clone.expectCleanAndSound() }
    }

    /// A list file added with plain git on one clone while the other has a commit of its own:
    /// the sync merges it in (it used to fail on every retry: "index does not contain
    /// travel.md at stage 0").
    @Test func aListAddedOnTheOtherCloneMergesIntoADivergedClone() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": "- [ ] Buy milk\n"])
        try bob.write("travel.md", "- [ ] Book flights\n")
        _ = try bob.git("add", "travel.md")
        try bob.commitAndPushWithGit("Plan travel")
        try alice.write("TODO.md", try alice.read("TODO.md").replacingOccurrences(of: "[ ] Buy", with: "[x] Buy"))
        try alice.todosync()
        try alice.sync()
        #expect(try alice.read("travel.md").hasPrefix("- [ ] Book flights <!-- id: "))
        #expect(try alice.read("TODO.md").hasPrefix("- [x] Buy milk"))
        try alice.expectCleanAndSound()
        try bob.sync()
        #expect(try bob.read("travel.md") == alice.read("travel.md"))
        try bob.expectCleanAndSound()
    }

    /// A large list both sides changed: their version and the base's are read on other
    /// threads and parsed reusing ours; the merge holds both edits, item by item.
    @Test func aLargeListBothSidesChangedMergesByItem() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": Fixture.numberedList(12_000)])
        try alice.todosync("done", "Task number 5 to do")
        try alice.sync()
        try bob.todosync("edit", "Task number 11990 to do", "--title", "Task number 11990 done soon")
        let traced = try run(todosyncBinary, ["sync"], in: bob.path, environment: ["TODOSYNC_TRACE": "1"])
        #expect(traced.status == 0, "\(traced.stderr)")
        #expect(traced.stderr.contains("read ahead: TODO.md of"), "\(traced.stderr)")
        let merged = try bob.read("TODO.md")
        #expect(merged.contains("- [x] Task number 5 to do") && merged.contains("- [ ] Task number 11990 done soon"))
        #expect(merged.components(separatedBy: "\n- [").count == 12_000)
        #expect(try bob.git("show", "HEAD:TODO.md") == merged)
        try bob.expectCleanAndSound()
        try alice.sync()
        #expect(try alice.read("TODO.md") == merged)
    }

    @Test func syncWithoutPushMergesAndLeavesTheRemoteAlone() throws {
        let (remote, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs("- [ ] A ^a\n- [ ] B ^b\n")])
        try alice.write("TODO.md", withIDs("- [x] A ^a\n- [ ] B ^b\n"))
        try alice.sync()
        let before = try git("rev-parse", "main", in: remote.path)
        try bob.write("TODO.md", withIDs("- [ ] A ^a\n- [x] B ^b\n"))
        let result = try bob.sync("--no-push")
        #expect(result.stdout.contains("Not pushed"))
        #expect(withShortIDs(try bob.read("TODO.md")) == "- [x] A ^a\n- [x] B ^b\n")
        #expect(try git("rev-parse", "main", in: remote.path) == before)
        #expect(try bob.todosync("status").stdout.contains("Ahead of origin/main by 2 commits"))
    }

    /// The remote's URLs as git rewrites them: fetched from where `insteadOf` points, pushed
    /// to where `pushInsteadOf` points, as `git pull` and `git push` would.
    @Test func insteadOfAndPushInsteadOfRouteFetchesAndPushesAsGitDoes() throws {
        let (remote, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs("- [ ] A ^a\n")])
        let mirror = remote.scratch.path + "/mirror"
        _ = try git("clone", "-q", "--bare", remote.path, mirror + "/lists.git", in: remote.scratch.path)
        try bob.write("TODO.md", withIDs("- [ ] A ^a\n- [ ] From Bob ^b\n"))
        try bob.sync()
        _ = try alice.git("remote", "set-url", "origin", "lists:lists.git")
        _ = try alice.git("config", "url.\(remote.scratch.path)/.insteadOf", "lists:")
        _ = try alice.git("config", "url.\(mirror)/.pushInsteadOf", "lists:")
        try alice.write("TODO.md", withIDs("- [x] A ^a\n"))
        try alice.sync()
        #expect(withShortIDs(try alice.read("TODO.md")) == "- [x] A ^a\n- [ ] From Bob ^b\n")
        #expect(try git("rev-parse", "main", in: mirror + "/lists.git") == (try alice.git("rev-parse", "HEAD")))
        #expect(try git("rev-parse", "main", in: remote.path) == (try bob.git("rev-parse", "HEAD")))
    }

    @Test func anUnreachableRemoteKeepsTheLocalCommitAndFails() throws {
        let remote = try Remote()
        let alice = try remote.clone(seeding: ["TODO.md": withIDs("- [ ] A ^a\n")])
        _ = try alice.git("remote", "set-url", "origin", remote.scratch.path + "/missing.git")
        try alice.write("TODO.md", withIDs("- [x] A ^a\n"))
        let result = try alice.todosync("sync", expectStatus: 1)
        #expect(result.stderr.contains("there is no repository at"))
        #expect(alice.lastSubject == "Check \"A\"")
        try alice.expectCleanAndSound()

        _ = try alice.git("remote", "set-url", "origin", "git://127.0.0.1:9/nothing.git")
        let network = try alice.todosync("sync", expectStatus: 1)
        #expect(network.stderr.contains("fetching from origin"))
        #expect(network.stderr.contains("your local commits are safe"))
    }

    @Test func aCloneLeftOnAnEmptyBranchIsToldWhereTheListsAreAndChangesNothing() throws {
        // The remote's HEAD names a branch it does not have (a bare repository made with
        // another default branch): git clone leaves bob on an empty 'master'.
        let remote = try Remote()
        let alice = try remote.clone(seeding: ["TODO.md": withIDs("- [ ] A ^a\n")])
        try git("symbolic-ref", "HEAD", "refs/heads/master", in: remote.path)
        let bob = try remote.clone()
        let before = try git("rev-parse", "main", in: remote.path)
        let advice = "'master' has no commits yet, but origin/main has: run git switch main, then todosync"

        #expect(try bob.todosync().stdout == advice + ".\n")
        let status = try bob.todosync("status").stdout
        #expect(status == "On branch master\n" + advice + ".\n")
        let sync = try bob.todosync("sync", expectStatus: 1)
        #expect(sync.stderr.contains("origin has no branch 'master' to sync with"))
        #expect(sync.stderr.contains("hint: " + advice))
        let command = try bob.todosync("done", "A", expectStatus: 1)
        #expect(command.stderr.contains("there are no lists here yet") && command.stderr.contains("hint: " + advice))
        #expect(bob.commitCount == 0)
        #expect(try git("rev-parse", "main", in: remote.path) == before)
        #expect(try git("for-each-ref", "--format=%(refname)", "refs/heads", in: remote.path) == "refs/heads/main\n")

        // Taking the advice works.
        _ = try bob.git("switch", "-q", "main")
        #expect(try bob.todosync("sync").stdout.contains("Already in sync with origin/main."))
        #expect(try bob.read("TODO.md") == alice.read("TODO.md"))

        // A repository with no commits and no remote branches is simply empty.
        let empty = try Fixture()
        #expect(
            try empty.todosync().stdout
                == "No lists here yet: write a list (e.g. TODO.md with \"- [ ] Buy milk\") and run todosync.\n")
    }

    @Test func itemsAddedWithPlainGitGetTheSameIdsOnEveryClone() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs("- [ ] A ^a\n")])
        // Bob edits with plain git only: an item without an id.
        try bob.write("TODO.md", withIDs("- [ ] A ^a\n- [ ] Plain item\n"))
        try bob.commitAndPushWithGit("plain edit")
        try alice.write("TODO.md", withIDs("- [x] A ^a\n"))
        try alice.sync()
        let merged = try alice.read("TODO.md")
        #expect(merged.contains("- [ ] Plain item <!-- id: "))
        // Bob runs todosync on his own commit: it derives the same id, so nothing doubles.
        try bob.todosync()
        try bob.sync()
        #expect(try bob.read("TODO.md") == merged)
        #expect(try bob.read("TODO.md").components(separatedBy: "Plain item").count == 2)
        try alice.sync()
        #expect(try alice.read("TODO.md") == bob.read("TODO.md"))
    }

    @Test func anItemThatLostItsIdInAPlainEditIsMatchedBackByTitle() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            "TODO.md": withIDs("- [ ] Keep ^keep\n- [ ] Fragile ^frag\n")
        ])
        try bob.write("TODO.md", withIDs("- [ ] Keep ^keep\n- [ ] Fragile\n"))  // id comment deleted
        try bob.commitAndPushWithGit("lost an id")
        try alice.write("TODO.md", withIDs("- [ ] Keep ^keep\n- [x] Fragile ^frag\n"))
        try alice.sync()
        #expect(withShortIDs(try alice.read("TODO.md")) == "- [ ] Keep ^keep\n- [x] Fragile ^frag\n")
    }

    @Test func aPastedCopyAndADamagedIdAreSettledBeforeMerging() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs("- [ ] A ^a\n- [ ] B ^b\n")])
        try bob.write("TODO.md", withIDs("- [ ] A ^a\n- [x] B ^b\n"))
        try bob.sync()
        // Alice pastes a copy of A (same id twice) and damages B's id comment.
        let damaged = withIDs("- [ ] A ^a\n- [ ] A ^a\n- [ ] B ^b\n").replacingOccurrences(
            of: "<!-- id: \(shortIDText("b"))", with: "<!- id: \(shortIDText("b"))")
        try alice.write("TODO.md", damaged)
        let result = try alice.sync()
        #expect(result.stderr.contains("used twice"))
        let text = try alice.read("TODO.md")
        #expect(text.components(separatedBy: "<!-- id: \(shortIDText("a")) -->").count == 2)
        #expect(withShortIDs(text).hasSuffix("- [x] B ^b\n"))
        #expect(Set(try alice.ids(in: "TODO.md")).count == 3)
    }

    @Test func otherFilesMergeWithGitAndAConflictInThemChangesNothing() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            "TODO.md": withIDs("- [ ] A ^a\n"), "notes.txt": "one\ntwo\nthree\n",
        ])
        try bob.write("notes.txt", "one\ntwo\nthree\nfour\n")
        try bob.write("TODO.md", withIDs("- [x] A ^a\n"))
        _ = try bob.git("commit", "-q", "-am", "bob")
        try bob.sync()
        try alice.write("notes.txt", "zero\none\ntwo\nthree\n")
        _ = try alice.git("commit", "-q", "-am", "alice")
        try alice.write("TODO.md", withIDs("- [ ] A, renamed ^a\n"))
        try alice.sync()
        #expect(try alice.read("notes.txt") == "zero\none\ntwo\nthree\nfour\n")
        #expect(withShortIDs(try alice.read("TODO.md")) == "- [x] A, renamed ^a\n")
        try alice.expectCleanAndSound()

        // Now both change the same line of notes.txt: git cannot merge it; nothing changes.
        try bob.sync()
        try bob.write("notes.txt", "ONE\n")
        _ = try bob.git("commit", "-q", "-am", "bob 2")
        try bob.sync()
        try alice.write("notes.txt", "uno\n")
        _ = try alice.git("commit", "-q", "-am", "alice 2")
        let head = alice.head
        let failed = try alice.todosync("sync", expectStatus: 1)
        #expect(failed.stderr.contains("git cannot merge notes.txt"))
        #expect(alice.head == head)
        #expect(try alice.read("notes.txt") == "uno\n")
        try alice.expectCleanAndSound()
    }

    /// Incoming changes to a file the user is editing (uncommitted): refused, naming the file,
    /// with git's advice; the edit and the branch stay as they were.
    @Test func anIncomingChangeToAFileWithUncommittedEditsNamesTheFile() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            "TODO.md": withIDs("- [ ] A ^a\n"), "notes.txt": "one\n",
        ])
        try bob.write("notes.txt", "one\ntwo\n")
        try bob.commitAndPushWithGit("Notes")
        try alice.write("notes.txt", "one, being edited\n")
        let head = alice.head
        let refused = try alice.todosync("sync", expectStatus: 1)
        #expect(
            refused.stderr.contains(
                "your uncommitted changes to notes.txt would be overwritten by the incoming change"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("git stash"))
        #expect(try alice.read("notes.txt") == "one, being edited\n")
        #expect(alice.head == head)
    }
}
