import Foundation
import Testing
import TestSupport

/// `core.autocrlf` and the `text`/`eol` attributes, applied as git applies them on the way into
/// and out of the object store (issue 31, point 6). The witness: `git hash-object --path` gives
/// the blob `git add` would store for the working file, and `git status` sees nothing to commit.
@Suite struct LineEndingTests {
    /// The blob git would store for the working file `name`, as `git add` converts it.
    private func gitWouldStore(_ fixture: Fixture, _ name: String) throws -> String {
        try fixture.git("hash-object", "--path=\(name)", name).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func committedBytes(_ fixture: Fixture, _ name: String) throws -> String {
        try fixture.git("cat-file", "blob", "HEAD:\(name)")
    }

    private func expectStoredAsGitStoresIt(_ fixture: Fixture, _ name: String) throws {
        #expect(
            try gitWouldStore(fixture, name)
                == fixture.git("rev-parse", "HEAD:\(name)").trimmingCharacters(in: .whitespacesAndNewlines))
        let committed = try committedBytes(fixture, name)
        #expect(!committed.contains("\r"), "\(committed.debugDescription)")
        try fixture.expectCleanAndSound()
    }

    /// A Windows user's CRLF list under `core.autocrlf true`: stored with LF as git stores it,
    /// while the working file keeps its CRLF lines, also after an item command rewrites it.
    @Test func autocrlfStoresLFAndLeavesTheWorkingFileAsTyped() throws {
        let fixture = try Fixture()
        _ = try fixture.git("config", "core.autocrlf", "true")
        // One line pasted with a bare LF: git stores it alike, and todosync leaves it so.
        try fixture.write("TODO.md", "# Home\r\n\r\nPasted note\n- [ ] Buy milk\r\n- [ ] Call Bob\r\n")
        try fixture.todosync()
        #expect(try fixture.ids(in: "TODO.md").count == 2)
        let working = try fixture.read("TODO.md")
        #expect(working.components(separatedBy: "\r\n").count == 5, "\(working.debugDescription)")
        #expect(working.contains("\r\nPasted note\n- [ ] Buy milk"))
        try expectStoredAsGitStoresIt(fixture, "TODO.md")

        try fixture.todosync("done", "Buy milk")
        try fixture.todosync("add", "Water plants")
        let edited = try fixture.read("TODO.md")
        #expect(edited.contains("- [x] Buy milk") && edited.contains("Water plants"))
        #expect(
            edited.replacingOccurrences(of: "\r\n", with: "").filter { $0 == "\n" }.count == 1,
            "\(edited.debugDescription)")
        #expect(edited.contains("Pasted note\n"))
        try expectStoredAsGitStoresIt(fixture, "TODO.md")

        // Nothing left over: status agrees with git that the lists are committed.
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed since the last commit"))
        try fixture.todosync("undo")
        #expect(!(try fixture.read("TODO.md")).contains("Water plants"))
        try expectStoredAsGitStoresIt(fixture, "TODO.md")
    }

    /// `eol=crlf` in .gitattributes: every clone's working lists have CRLF, the history has LF;
    /// a sync merges the two sides and writes the merge in the working file's form.
    @Test func eolCRLFAttributesHoldThroughSync() throws {
        let (_, alice, bob) = try Remote.withTwoClones(seeding: [
            ".gitattributes": "*.md text eol=crlf\n",
            "TODO.md": "- [ ] Buy milk\n- [ ] Call Bob\n",
            "Work.md": "- [ ] File taxes\n",
        ])
        // git checked out bob's copy with CRLF; alice's stays as she typed it (LF).
        #expect(try bob.read("TODO.md") == "- [ ] Buy milk\r\n- [ ] Call Bob\r\n")
        try alice.todosync("done", "Buy milk")
        // A list only alice changed: bob's merge takes her version whole.
        try alice.todosync("done", "File taxes")
        try alice.sync()
        try bob.todosync("add", "Water plants")
        #expect(!(try bob.read("TODO.md")).replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        try bob.sync()
        let merged = try bob.read("TODO.md")
        #expect(merged.contains("- [x] Buy milk") && merged.contains("- [ ] Water plants"), "\(merged)")
        #expect(!merged.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "\(merged.debugDescription)")
        try expectStoredAsGitStoresIt(bob, "TODO.md")
        #expect(try bob.read("Work.md").hasPrefix("- [x] File taxes"))
        try expectStoredAsGitStoresIt(bob, "Work.md")
        #expect(try alice.git("rev-parse", "HEAD:Work.md") == bob.git("rev-parse", "HEAD:Work.md"))
        try bob.expectCleanAndSound()

        try alice.sync()
        #expect(try alice.read("TODO.md").contains("Water plants"))
        try expectStoredAsGitStoresIt(alice, "TODO.md")
        #expect(try alice.git("rev-parse", "HEAD:TODO.md") == bob.git("rev-parse", "HEAD:TODO.md"))
    }

    /// A list checked out with CRLF by plain git and never typed in: todosync sees no edit
    /// (the working file differs from the blob only as git's conversion makes it).
    @Test func aConvertedCheckoutIsNotAnEdit() throws {
        let fixture = try Fixture()
        try fixture.write(".gitattributes", "*.md text eol=crlf\n")
        _ = try fixture.git("add", ".gitattributes")
        _ = try fixture.git("commit", "-qm", "CRLF lists")
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        try fixture.todosync()
        _ = try fixture.git("rm", "-q", "--cached", "TODO.md")
        try FileManager.default.removeItem(atPath: fixture.path + "/TODO.md")
        _ = try fixture.git("checkout", "HEAD", "--", "TODO.md")
        #expect(try fixture.read("TODO.md").hasSuffix("\r\n"))
        // Touched since: git's index no longer vouches for the file by its stat.
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: fixture.path + "/TODO.md")
        let head = fixture.head
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed since the last commit"))
        try fixture.todosync()
        #expect(fixture.head == head)
        try expectStoredAsGitStoresIt(fixture, "TODO.md")
    }

    /// A conversion named only where a quick look could miss it (a subfolder's .gitattributes,
    /// the user's core.attributesFile) is applied all the same: the lists elsewhere are stored
    /// as read, these with LF, and a touched CRLF checkout is still no edit.
    @Test func aConversionNamedInASubfolderOrTheUsersAttributesFileIsApplied() throws {
        let fixture = try Fixture()
        try fixture.write("crlf/.gitattributes", "*.md text eol=crlf\n")
        try fixture.write("global-attributes", "windows/*.md text eol=crlf\n")
        _ = try fixture.git("config", "core.attributesFile", fixture.path + "/global-attributes")
        try fixture.write("TODO.md", "- [ ] Plain\n")
        try fixture.write("crlf/TODO.md", "- [ ] Buy milk\r\n- [ ] Call Bob\r\n")
        try fixture.write("windows/TODO.md", "- [ ] Defrag\r\n")
        _ = try fixture.git("add", "crlf/.gitattributes")
        try fixture.todosync()
        for name in ["TODO.md", "crlf/TODO.md", "windows/TODO.md"] {
            #expect(
                try gitWouldStore(fixture, name)
                    == fixture.git("rev-parse", "HEAD:\(name)").trimmingCharacters(in: .whitespacesAndNewlines),
                "\(name)")
            #expect(!(try committedBytes(fixture, name)).contains("\r"), "\(name)")
        }
        #expect(try fixture.read("crlf/TODO.md").contains("Call Bob <!--"), "the working file keeps CRLF and gets ids")
        let later = Date().addingTimeInterval(5)
        for name in ["crlf/TODO.md", "windows/TODO.md"] {
            try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: fixture.path + "/" + name)
        }
        let head = fixture.head
        #expect(try fixture.todosync("status").stdout.contains("Nothing changed since the last commit"))
        try fixture.todosync()
        #expect(fixture.head == head)
    }
}
