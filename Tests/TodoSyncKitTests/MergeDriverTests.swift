import Foundation
import Testing
import TestSupport

/// todosync's merge driver under plain git (issue 32): `git pull`, `merge` and `rebase` between
/// real clones merge lists item by item, as sync does.
@Suite struct MergeDriverTests {
    /// Two clones of a remote whose first commit holds `base` and the attribute `todosync init`
    /// writes, each set up with `todosync init` (which sets the driver in its git config).
    private func clones(base: String) throws -> (ours: Fixture, theirs: Fixture) {
        let remote = try Remote()
        let ours = try remote.clone(seeding: [
            "TODO.md": withIDs(base), ".gitattributes": "*.md merge=todosync\n*.markdown merge=todosync\n",
        ])
        let theirs = try remote.clone()
        for clone in [ours, theirs] {
            let set = try clone.todosync("init")
            #expect(set.stdout.contains("Merge driver:"), "\(set.stdout)")
        }
        return (ours, theirs)
    }

    /// Every case of the merge table through `git pull` gives the lists sync gives, never a
    /// conflict marker, and git goes on to commit the merge.
    @Test(arguments: mergeCases)
    func gitPullMergesTheTableAsSyncDoes(_ example: MergeCase) throws {
        let (ours, theirs) = try clones(base: example.base)
        try theirs.write("TODO.md", withIDs(example.theirs))
        _ = try theirs.git("commit", "-q", "--allow-empty", "-am", "theirs")
        _ = try theirs.git("push", "-q", "origin", "HEAD:main")
        try ours.write("TODO.md", withIDs(example.ours))
        _ = try ours.git("commit", "-q", "--allow-empty", "-am", "ours")

        let pulled = try run("/usr/bin/git", ["pull", "--no-rebase", "--no-edit", "origin", "main"], in: ours.path)
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        let merged = try ours.read("TODO.md")
        #expect(withShortIDs(merged) == example.merged)
        #expect(!merged.contains("<<<<<<<"))
        #expect(pulled.stderr.contains("todosync: warning: TODO.md:") == !example.reports.isEmpty, "\(pulled.stderr)")
        try ours.expectCleanAndSound()
        #expect(try ours.git("show", "HEAD:TODO.md") == merged)
    }

    /// A list typed with plain git: one clone's todosync gave its items ids, the other clone
    /// (plain git only) renamed one. `git pull` keeps one item, with its id and the new title.
    @Test func anItemIdentifiedOnOneCloneAndRenamedOnTheOtherStaysOneItem() throws {
        let (ours, theirs) = try clones(base: "- [ ] Milk\n- [ ] Bread\n")
        let identified = try ours.read("TODO.md")
        let ids = identified.matches(of: /<!-- id: ([0-9A-F-]{36}) -->/).map { String($0.output.1) }
        #expect(ids.count == 2, "\(identified)")
        _ = try theirs.git("reset", "-q", "--hard", "origin/main")
        try theirs.write("TODO.md", "- [ ] Oat milk\n- [ ] Bread\n")
        try theirs.commitAndPushWithGit("Oat milk")

        let pulled = try run("/usr/bin/git", ["pull", "--no-rebase", "--no-edit", "origin", "main"], in: ours.path)
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(
            try ours.read("TODO.md") == "- [ ] Oat milk <!-- id: \(ids[0]) -->\n- [ ] Bread <!-- id: \(ids[1]) -->\n")
        #expect(!pulled.stderr.contains("warning"), "\(pulled.stderr)")
        try ours.expectCleanAndSound()
    }

    /// `git pull --rebase` replays our commit through the driver too.
    @Test func gitPullRebaseMergesByItem() throws {
        let (ours, theirs) = try clones(base: "- [ ] Milk ^a\n- [ ] Bread ^b\n")
        try theirs.write("TODO.md", withIDs("- [ ] Oat milk ^a\n- [ ] Bread ^b\n- [ ] Eggs ^c\n"))
        try theirs.commitAndPushWithGit("theirs")
        try ours.write("TODO.md", withIDs("- [x] Milk ^a\n- [ ] Rye bread ^b\n"))
        _ = try ours.git("commit", "-q", "-am", "ours")
        let pulled = try run("/usr/bin/git", ["pull", "--rebase", "origin", "main"], in: ours.path)
        #expect(pulled.status == 0, "\(pulled.stdout)\(pulled.stderr)")
        #expect(withShortIDs(try ours.read("TODO.md")) == "- [x] Oat milk ^a\n- [ ] Rye bread ^b\n- [ ] Eggs ^c\n")
        #expect(try ours.git("rev-list", "--count", "HEAD").trimmingCharacters(in: .newlines) == "3")
        try ours.expectCleanAndSound()
    }

    /// A Markdown file that is not a list gets git's own line merge: conflict markers where
    /// lines clash, and git stops for the user.
    @Test func aFileThatIsNotAListGetsGitsLineMerge() throws {
        let (ours, theirs) = try clones(base: "- [ ] Milk ^a\n")
        try theirs.write("README.md", "# Lists\n\nKept by Ann.\n")
        _ = try theirs.git("add", "README.md")
        try theirs.commitAndPushWithGit("readme")
        _ = try ours.git("pull", "-q", "--no-rebase", "origin", "main")
        try theirs.write("README.md", "# Lists\n\nKept by Bob.\n")
        try theirs.commitAndPushWithGit("bob")
        try ours.write("README.md", "# Lists\n\nKept by Cleo.\n")
        _ = try ours.git("commit", "-q", "-am", "cleo")
        let pulled = try run("/usr/bin/git", ["pull", "--no-rebase", "--no-edit", "origin", "main"], in: ours.path)
        #expect(pulled.status != 0)
        #expect(pulled.stdout.contains("CONFLICT (content): Merge conflict in README.md"), "\(pulled.stdout)")
        let text = try ours.read("README.md")
        #expect(
            text.contains("<<<<<<< ours") && text.contains("Kept by Cleo.") && text.contains("Kept by Bob.")
                && text.contains(">>>>>>> theirs"), "\(text)")
    }

    /// A plain `git clone` (git copies no config) of lists whose .gitattributes names the
    /// driver: its first todosync command sets the driver up and says so, once; then plain
    /// `git pull` merges a rename on one side and a check on the other by item.
    @Test func aFreshCloneSetsUpTheDriverOnItsFirstCommand() throws {
        let remote = try Remote()
        let first = try remote.clone(seeding: [
            "TODO.md": withIDs("- [ ] Milk ^a\n- [ ] Bread ^b\n"), ".gitattributes": "*.md merge=todosync\n",
        ])
        try first.todosync("init")
        let plain = try remote.clone()
        #expect(try run("/usr/bin/git", ["config", "merge.todosync.driver"], in: plain.path).status != 0)
        let status = try plain.todosync("status")
        #expect(
            (status.stdout + status.stderr).contains("set up todosync's merge driver"),
            "\(status.stdout)\(status.stderr)")
        #expect(!(try plain.git("config", "merge.todosync.driver")).isEmpty)
        let again = try plain.todosync("status")
        #expect(!(again.stdout + again.stderr).contains("merge driver"), "said once")

        try first.todosync("edit", "Milk", "--title", "Oat milk")
        _ = try first.git("push", "-q")
        try plain.todosync("done", "Milk")
        _ = try plain.git("pull", "-q", "--no-rebase", "--no-edit")
        let merged = try plain.read("TODO.md")
        #expect(merged.contains("- [x] Oat milk <!-- id: "), "\(merged)")
        #expect(!merged.contains("<<<<<<<"), "\(merged)")
        try plain.expectCleanAndSound()
    }

    /// `todosync init` in a new folder records the driver in .gitattributes (committed).
    @Test func initRecordsTheDriverForEveryClone() throws {
        let scratch = Scratch()
        _ = try run(todosyncBinary, ["init", scratch.path + "/lists"], in: scratch.path)
        let lists = Fixture(existing: scratch, at: "lists")
        #expect(try lists.git("show", "HEAD:.gitattributes").contains("*.md merge=todosync"))
        #expect(try lists.git("check-attr", "merge", "--", "plans.md") == "plans.md: merge: todosync\n")
        try lists.expectCleanAndSound()
    }

    /// Run by a relative path, todosync names itself to git by the absolute one: git runs the
    /// driver from the repository's folder, not from where todosync was started.
    @Test func initRunByARelativePathSetsTheDriverByItsAbsolutePath() throws {
        let scratch = Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/bin/todosync", withDestinationPath: todosyncBinary)
        let result = try run("/bin/sh", ["-c", "bin/todosync init lists"], in: scratch.path)
        #expect(result.status == 0, "\(result.stderr)")
        let driver = try Fixture(existing: scratch, at: "lists").git("config", "merge.todosync.driver")
        #expect(driver.hasPrefix("'" + scratch.path + "/bin/todosync' merge-file"), "\(driver)")
    }
}
