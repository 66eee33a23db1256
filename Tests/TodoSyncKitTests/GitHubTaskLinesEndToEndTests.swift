import Foundation
import Testing
import TestSupport

/// The Markdown cases through the tool: ids go on exactly the lines GitHub (cmark-gfm,
/// the witness) shows as task items, and removing an item takes exactly its lines.
@Suite struct GitHubTaskLinesEndToEndTests {
    static let template = """
        ## Checklist
        * [ ] Tag the release
          * ```
            git tag v1
            ```
        * [ ] Tests pass
        * [ ] Docs updated
        1. Groceries
            - [ ] milk
        - [ ] Plan trip
            - Notes:
                - [ ] book flights
        <details>
        - [ ] inside HTML, not a task
        </details>

        Notes
        2. [ ] a paragraph line, not a task
        - [ ] Write report
          ```
          an unclosed fence ends with its item
        - [ ] Send report

        """

    @Test func idsGoOnTheLinesGitHubShowsAsTasks() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", Self.template)
        try fixture.todosync()
        let text = try fixture.read("TODO.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let withIDs = Set(lines.indices.filter { lines[$0].contains("<!-- id: ") }.map { $0 + 1 })
        #expect(withIDs == [2, 6, 7, 9, 10, 12, 19, 22])
        #expect(try githubTaskLines(Self.template) == withIDs)
        // Only id comments were added.
        #expect(text.replacing(#/ <!-- id: [0-9A-F-]+ -->/#, with: "") == Self.template)
        try fixture.expectCleanAndSound()
    }

    @Test func removingAnItemTakesExactlyItsLines() throws {
        let fixture = try Fixture()
        try fixture.write("TODO.md", Self.template)
        try fixture.todosync()
        try fixture.todosync("rm", "Write report")
        try fixture.todosync("rm", "Plan trip")
        let left = try fixture.read("TODO.md").replacing(#/ <!-- id: [0-9A-F-]+ -->/#, with: "")
        let expected = Self.template
            .replacingOccurrences(of: "- [ ] Write report\n  ```\n  an unclosed fence ends with its item\n", with: "")
            .replacingOccurrences(of: "- [ ] Plan trip\n    - Notes:\n        - [ ] book flights\n", with: "")
        #expect(left == expected)
        #expect(fixture.lastSubject == "Remove \"Plan trip\" and remove \"book flights\"")
        try fixture.expectCleanAndSound()
    }

    /// The 1-based lines cmark-gfm (GitHub's engine) renders as task items.
    private func githubTaskLines(_ markdown: String) throws -> Set<Int> {
        let cmark = try #require(CmarkGFM.executable, "cmark-gfm is not installed; scripts/test.sh installs it")
        return Set(try CmarkGFM.tasks(in: Array(markdown.utf8), using: cmark).map(\.line))
    }
}
