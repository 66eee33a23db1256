import Foundation
import Testing
import TestSupport
import TodoModel

/// `todosync resolve` after git merged lists line by line (no merge driver) and stopped with
/// conflict markers: real clones, real `git pull`, git as the witness.
@Suite struct ResolveTests {
    static let base = "# Shop\n- [ ] Milk ^milk\n- [ ] Bread ^bread\n- [ ] Eggs ^eggs\n\nSome prose.\n"

    /// Two clones whose edits of the same lines clash for git: ours renames Milk and Eggs,
    /// theirs renames Milk, checks Bread and edits the prose. Ours has pulled and git stopped.
    func conflicted(rebase: Bool = false) throws -> Fixture {
        let (_, ours, theirs) = try Remote.withTwoClones(seeding: ["TODO.md": withIDs(Self.base)])
        _ = try theirs.git("pull", "-q", "origin", "main")
        try theirs.write(
            "TODO.md",
            withIDs("# Shop\n- [ ] Oat milk ^milk\n- [x] Bread ^bread\n- [ ] Eggs ^eggs\n\nSome prose, edited.\n"))
        try theirs.commitAndPushWithGit("theirs")
        try ours.write(
            "TODO.md",
            withIDs("# Shop\n- [ ] Whole milk ^milk\n- [ ] Bread ^bread\n- [ ] Free-range eggs ^eggs\n\nSome prose.\n"))
        _ = try ours.git("commit", "-q", "-am", "ours")
        let pulled = try run(
            "/usr/bin/git", ["pull", rebase ? "--rebase" : "--no-rebase", "--no-edit", "origin", "main"], in: ours.path)
        #expect(pulled.status != 0)
        #expect(try ours.read("TODO.md").contains("<<<<<<<"))
        return ours
    }

    static let merged =
        "# Shop\n- [ ] Whole milk ^milk\n  todosync clash: this item was also renamed to: Oat milk\n- [x] Bread ^bread\n- [ ] Free-range eggs ^eggs\n\nSome prose, edited.\n"

    @Test func aMergeGitStoppedIsFinishedByItemAndGitCommitsIt() throws {
        let f = try conflicted()
        let status = try f.todosync("status")
        #expect(status.stdout.contains("A git merge stopped with lists in conflict: TODO.md."), "\(status.stdout)")
        #expect(status.stdout.contains("Run todosync resolve to merge them item by item, then git commit."))

        let resolved = try f.todosync("resolve")
        #expect(resolved.stdout.contains("Merged TODO.md item by item and staged it."))
        #expect(resolved.stdout.contains("\"Whole milk\" was renamed on both sides"))
        #expect(resolved.stdout.contains("Then finish the merge: git commit"))
        #expect(withShortIDs(try f.read("TODO.md")) == Self.merged)
        #expect(try f.git("ls-files", "--unmerged").isEmpty)
        #expect(try f.git("status", "--porcelain") == "M  TODO.md\n")

        // As after git add, git can bring the conflict back (its resolve-undo record).
        _ = try f.git("checkout", "-m", "--", "TODO.md")
        #expect(try f.git("ls-files", "--unmerged").split(separator: "\n").count == 3)
        _ = try f.todosync("resolve")
        #expect(withShortIDs(try f.read("TODO.md")) == Self.merged)

        _ = try f.git("commit", "-q", "--no-edit")
        #expect(try f.git("log", "-1", "--format=%P").split(separator: " ").count == 2)
        #expect(try f.git("show", "HEAD:TODO.md") == (try f.read("TODO.md")))
        try f.expectCleanAndSound()
        #expect(try f.todosync("status").stdout.contains("Nothing changed since the last commit."))
    }

    /// A list edited after git stopped is left exactly as it is (merging it from git's
    /// versions would drop the edits), named with what to do; git's version brought back, it
    /// is resolved.
    @Test func aListEditedSinceGitStoppedIsLeftAsItIs() throws {
        let f = try conflicted()
        let edited = try f.read("TODO.md").replacingOccurrences(of: "Free-range eggs", with: "Free-range eggs (six)")
        try f.write("TODO.md", edited)
        let refused = try f.todosync("resolve", expectStatus: 1)
        #expect(
            refused.stderr.contains("TODO.md: left in conflict: it was edited since git stopped"), "\(refused.stderr)")
        #expect(refused.stderr.contains("git checkout -m -- TODO.md"))
        #expect(try f.read("TODO.md") == edited)
        #expect(try f.git("ls-files", "--unmerged").split(separator: "\n").count == 3)
        _ = try f.git("checkout", "-m", "--", "TODO.md")
        _ = try f.todosync("resolve")
        #expect(withShortIDs(try f.read("TODO.md")) == Self.merged)
    }

    /// Stopped after the file is written but before git's index takes it (as `kill -9` would):
    /// resolve again finds the merged file, keeps it, and stages it.
    @Test func aResolveStoppedBeforeStagingIsFinishedByTheNext() throws {
        let f = try conflicted()
        let stopped = try run(
            todosyncBinary, ["resolve"], in: f.path, environment: ["TODOSYNC_TEST_STOP_AFTER": "files"])
        #expect(stopped.status == 86)
        #expect(withShortIDs(try f.read("TODO.md")) == Self.merged)
        #expect(try f.git("ls-files", "--unmerged").split(separator: "\n").count == 3)
        _ = try f.todosync("resolve")
        #expect(withShortIDs(try f.read("TODO.md")) == Self.merged)
        #expect(try f.git("ls-files", "--unmerged").isEmpty)
        _ = try f.git("commit", "-q", "--no-edit")
        try f.expectCleanAndSound()
    }

    @Test func aRebaseGitStoppedGoesOnAfterResolve() throws {
        let f = try conflicted(rebase: true)
        let resolved = try f.todosync("resolve")
        #expect(resolved.stdout.contains("Then finish the rebase: git rebase --continue"), "\(resolved.stdout)")
        let continued = try run(
            "/usr/bin/git", ["rebase", "--continue"], in: f.path, environment: ["GIT_EDITOR": "true"])
        #expect(continued.status == 0, "\(continued.stderr)")
        // Replayed onto theirs: this commit's side is "ours" in git's rebase.
        let text = withShortIDs(try f.read("TODO.md"))
        #expect(
            text.contains("- [x] Bread ^bread\n") && text.contains("Free-range eggs")
                && text.contains("Some prose, edited."), "\(text)")
        #expect(try f.git("rev-list", "--count", "HEAD").trimmingCharacters(in: .newlines) == "3")
        try f.expectCleanAndSound()
    }

    /// A file that is not a list stays in conflict for git; the list is resolved.
    @Test func aFileThatIsNotAListIsLeftToGit() throws {
        let (_, ours, theirs) = try Remote.withTwoClones(seeding: [
            "TODO.md": withIDs("- [ ] Milk ^milk\n"), "README.md": "Kept by Ann.\n",
        ])
        _ = try theirs.git("pull", "-q", "origin", "main")
        try theirs.write("TODO.md", withIDs("- [x] Milk ^milk\n"))
        try theirs.write("README.md", "Kept by Bob.\n")
        try theirs.commitAndPushWithGit("theirs")
        try ours.write("TODO.md", withIDs("- [ ] Oat milk ^milk\n"))
        try ours.write("README.md", "Kept by Cy.\n")
        _ = try ours.git("commit", "-q", "-am", "ours")
        _ = try run("/usr/bin/git", ["pull", "--no-rebase", "--no-edit", "origin", "main"], in: ours.path)

        // Named as git takes paths: from the folder todosync starts in.
        try FileManager.default.createDirectory(atPath: ours.path + "/notes", withIntermediateDirectories: true)
        let resolved = try ours.todosync("-C", "notes", "resolve", "../TODO.md", "../README.md")
        #expect(withShortIDs(try ours.read("TODO.md")) == "- [x] Oat milk ^milk\n")
        #expect(
            resolved.stderr.contains("README.md: left in conflict: not a list; resolve it with git"),
            "\(resolved.stderr)")
        #expect(try ours.git("ls-files", "--unmerged").contains("README.md"))
        #expect(!(try ours.git("ls-files", "--unmerged")).contains("TODO.md"))
    }

    /// Every case of the merge table through a real `git merge` with no driver (in each of
    /// git's marker styles): where git stops, resolve gives the lists sync and the driver give.
    @Test func everyCaseGitStopsOnIsResolvedAsSyncMergesIt() throws {
        let f = try Fixture(gitFiles: ["README.md": "lists\n"])
        var stopped = 0
        for (index, example) in mergeCases.enumerated() {
            let style = ["merge", "diff3", "zdiff3"][index % 3]
            _ = try f.git("config", "merge.conflictStyle", style)
            _ = try f.git("checkout", "-q", "--orphan", "base-\(index)")
            try f.write("TODO.md", withIDs(example.base))
            _ = try f.git("add", "-A")
            _ = try f.git("commit", "-q", "-m", "base")
            for (side, text) in [("theirs", example.theirs), ("ours", example.ours)] {
                _ = try f.git("checkout", "-q", "-b", "\(side)-\(index)", "base-\(index)")
                try f.write("TODO.md", withIDs(text))
                _ = try f.git("commit", "-q", "--allow-empty", "-am", side)
            }
            let merged = try run("/usr/bin/git", ["merge", "--no-edit", "theirs-\(index)"], in: f.path)
            guard merged.status != 0 else { continue }
            stopped += 1
            _ = try f.todosync("resolve")
            #expect(withShortIDs(try f.read("TODO.md")) == example.merged, "\(example.name), \(style)")
            _ = try f.git("commit", "-q", "--no-edit")
        }
        #expect(stopped > 20)
    }

    @Test func withNoGitMergeInProgressNothingIsTouched() throws {
        let f = try Fixture(gitFiles: [
            "TODO.md": withIDs("<<<<<<< HEAD\n- [ ] Milk ^milk\n=======\n- [ ] Oat milk ^milk\n>>>>>>> x\n")
        ])
        let before = try f.read("TODO.md")
        let refused = try f.todosync("resolve", expectStatus: 1)
        #expect(
            refused.stderr.contains("no git merge, rebase, cherry-pick or revert is in progress"), "\(refused.stderr)")
        #expect(refused.stderr.contains("delete the side you do not want and run todosync"))
        #expect(try f.read("TODO.md") == before)
    }
}
