import Foundation
import Testing
import TestSupport

/// The repository's own rules, as git applies them (issue 31, point 6).
@Suite struct RepositoryRulesTests {
    static let secret = "Call the lawyer about the will"

    /// A list under a clean/smudge filter (git-crypt style; rot13 here) is refused: todosync
    /// cannot run the filter, and committing what it reads would put the plain text into history.
    @Test func aListUnderAFilterIsRefusedAndNothingLeaks() throws {
        // Marked as `todosync init` marks a folder of lists.
        let fixture = try Fixture(listsRepository: false)
        _ = try fixture.git("config", "filter.crypt.clean", "tr a-zA-Z n-za-mN-ZA-M")
        _ = try fixture.git("config", "filter.crypt.smudge", "tr a-zA-Z n-za-mN-ZA-M")
        try fixture.write(".gitattributes", "*.md todosync\nprivate/** filter=crypt\n")
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        try fixture.write("private/plans.md", "- [ ] Book the trip\n")
        _ = try fixture.git("add", "-A")
        _ = try fixture.git("commit", "-qm", "plain git, filtered")
        let head = fixture.head
        try fixture.write("private/plans.md", "- [ ] Book the trip\n- [ ] \(Self.secret)\n")

        let refused = try fixture.todosync(expectStatus: 1)
        #expect(refused.stderr.contains("private/plans.md is a list under git's filter 'crypt'"), "\(refused.stderr)")
        #expect(refused.stderr.contains("/private/plans.md -todosync"), "\(refused.stderr)")
        try fixture.todosync("add", "Leak", "--file", "private/new.md", expectStatus: 1)
        #expect(fixture.head == head)
        let objects = try fixture.git("cat-file", "--batch-all-objects", "--batch")
        #expect(!objects.contains(Self.secret) && !objects.contains("Book the trip"))

        // Left to git, as the hint says: todosync goes on with the other lists.
        try fixture.write(".gitattributes", "*.md todosync\nprivate/** filter=crypt\n/private/plans.md -todosync\n")
        _ = try fixture.git("commit", "-qm", "leave plans to git", ".gitattributes")
        try fixture.todosync()
        #expect(try fixture.ids(in: "TODO.md").count == 1)
        #expect(try fixture.ids(in: "private/plans.md").isEmpty)
        #expect(!(try fixture.git("cat-file", "--batch-all-objects", "--batch")).contains(Self.secret))
    }
}
