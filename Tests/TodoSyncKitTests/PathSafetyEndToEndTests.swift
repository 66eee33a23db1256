import Foundation
import Testing
import TestSupport

/// Paths stay inside the repository (docs/FORMAT.md, "Which files are lists"): a list is never
/// read or written through a symbolic link, `--file` is taken relative to the current folder
/// and refused outside the working tree, and git's index only ever gets paths git accepts.
@Suite struct PathSafetyEndToEndTests {
    static let outsideList = "- [ ] A private note\n"

    /// A repository and, beside it, a folder outside it holding a list.
    private func fixtureWithOutsideFolder() throws -> (Fixture, Scratch) {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        try fixture.todosync()
        let outside = Scratch()
        try outside.write("private.md", Self.outsideList)
        try outside.write("dir/TODO.md", Self.outsideList)
        return (fixture, outside)
    }

    @Test func aCommittedSymbolicLinkIsNeverReadOrWrittenThrough() throws {
        let (fixture, outside) = try fixtureWithOutsideFolder()
        try FileManager.default.createSymbolicLink(
            atPath: fixture.path + "/notes.md", withDestinationPath: outside.path + "/private.md")
        _ = try fixture.git("add", "notes.md")
        _ = try fixture.git("commit", "-qm", "A peer's link")
        // The link is neither a list nor adopted: nothing to commit, no id written out there.
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed"))
        try fixture.todosync()
        #expect(try !fixture.todosync("list").stdout.contains("private note"))
        let refused = try fixture.todosync("add", "Leak", "--file", "notes.md", expectStatus: 1)
        #expect(refused.stderr.contains("notes.md is a symbolic link"), "\(refused.stderr)")
        try fixture.todosync("mv", "Buy milk", "--file", "notes.md", expectStatus: 1)
        #expect(try outside.read("private.md") == Self.outsideList)
        #expect(try fixture.git("cat-file", "-p", "HEAD:notes.md") == outside.path + "/private.md")
        #expect(fixture.commitCount == 3)
        try fixture.expectCleanAndSound()
    }

    @Test func aFolderThatIsASymbolicLinkIsNeverEntered() throws {
        let (fixture, outside) = try fixtureWithOutsideFolder()
        try FileManager.default.createSymbolicLink(
            atPath: fixture.path + "/elsewhere", withDestinationPath: outside.path + "/dir")
        let refused = try fixture.todosync("add", "Leak", "--file", "elsewhere/TODO.md", expectStatus: 1)
        #expect(refused.stderr.contains("elsewhere is a symbolic link"), "\(refused.stderr)")
        #expect(try outside.read("dir/TODO.md") == Self.outsideList)
        #expect(try !fixture.todosync("list").stdout.contains("private note"))
    }

    /// A list of the last commit whose folder became a link: refused, not followed.
    @Test func aListWhoseFolderBecameALinkIsRefused() throws {
        let fixture = try Fixture(gitFiles: ["home/TODO.md": "- [ ] Water plants\n"])
        try fixture.todosync()
        let outside = Scratch()
        try outside.write("TODO.md", Self.outsideList)
        try FileManager.default.removeItem(atPath: fixture.path + "/home")
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/home", withDestinationPath: outside.path)
        let refused = try fixture.todosync(expectStatus: 1)
        #expect(refused.stderr.contains("home/TODO.md is now behind a symbolic link (home)"), "\(refused.stderr)")
        try fixture.todosync("add", "Leak", "--file", "home/TODO.md", expectStatus: 1)
        #expect(try outside.read("TODO.md") == Self.outsideList)
        #expect(fixture.commitCount == 2)
    }

    @Test(arguments: ["../outside.md", "/tmp/outside.md", ".git/TODO.md", "sub/../../x.md", "."])
    func aPathOutsideTheWorkingTreeIsRefused(_ path: String) throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        try fixture.todosync()
        let refused = try fixture.todosync("add", "Stray", "--file", path, expectStatus: 1)
        #expect(
            refused.stderr.contains("outside the repository") || refused.stderr.contains("inside .git"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was changed"))
        #expect(fixture.commitCount == 2)
        try fixture.expectCleanAndSound()
    }

    /// `--file` is taken as git takes paths: from the current folder (`-C`), absolute or not,
    /// and git's index gets the path inside the working tree.
    @Test func fileNamesAreTakenFromTheCurrentFolder() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n", "work/TODO.md": "- [ ] Report\n"])
        try fixture.todosync()
        try fixture.todosync("add", "From the folder", "--file", "TODO.md", "-C", "work")
        #expect(try fixture.read("work/TODO.md").contains("From the folder"))
        try fixture.todosync("add", "Absolute", "--file", fixture.path + "/./work/../plans.md")
        #expect(try fixture.read("plans.md").contains("Absolute"))
        try fixture.todosync("mv", "Report", "--file", "../TODO.md", "-C", "work")
        #expect(try fixture.read("TODO.md").contains("Report"))
        #expect(try fixture.git("ls-files") == "TODO.md\nplans.md\nwork/TODO.md\n")
        _ = try fixture.git("commit", "--allow-empty", "-qm", "plain git afterwards")
        try fixture.expectCleanAndSound()
    }

    @Test func aBatchNamesTheLineWhosePathIsRefused() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        try fixture.todosync()
        let refused = try run(todosyncBinary, ["batch"], in: fixture.path, input: "add One\nadd Two --file ../x.md\n")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("line 2: ../x.md is outside the repository"), "\(refused.stderr)")
        #expect(fixture.commitCount == 2)
    }
}
