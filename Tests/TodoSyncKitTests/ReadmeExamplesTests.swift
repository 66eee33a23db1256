import Foundation
import Testing
import TestSupport

/// README's item-command examples, taken from README.md as written and run in order by the
/// shell on a repository fresh from `todosync init`: each works as shown (issue 48: four of
/// nine failed on the lists init writes).
@Suite struct ReadmeExamplesTests {
    static let readme =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/README.md"

    /// The fenced block after "Item commands".
    static func itemCommandExamples() throws -> String {
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        guard let start = text.range(of: "Item commands, each one commit") else {
            throw TestFailure("README.md has no item-command examples")
        }
        let rest = text[start.upperBound...]
        guard let open = rest.range(of: "```\n"), let close = rest[open.upperBound...].range(of: "```\n") else {
            throw TestFailure("README.md's item-command examples are not in a fenced block")
        }
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test func theItemCommandExamplesRunAsWritten() throws {
        let examples = try Self.itemCommandExamples()
        #expect(examples.contains("todosync add") && examples.contains("todosync undo"), "\(examples)")
        let scratch = Scratch()
        let initialized = try run(todosyncBinary, ["init", scratch.path + "/lists"], in: scratch.path)
        #expect(initialized.status == 0, "\(initialized.stderr)")
        let lists = Fixture(existing: scratch, at: "lists")
        let before = lists.commitCount
        // Each line as the shell runs it, todosync found on PATH; the first failure stops it.
        let folder = URL(fileURLWithPath: todosyncBinary).deletingLastPathComponent().path
        let script = "set -eu\nexport PATH='\(folder)':\"$PATH\"\n" + examples
        let result = try run("/bin/bash", ["-c", script], in: lists.path)
        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")

        let text = try lists.read("TODO.md")
        for line in [
            "- [ ] Call Bob <!-- id: ", "- [x] Buy oat milk <!-- id: ", "the blue carton", "- [ ] Errands <!-- id: ",
            "Water plants",
        ] {
            #expect(text.contains(line), "\(line)\n\(text)")
        }
        #expect(!text.contains("Install todosync"))
        // `undo` took the batch back and `redo` put it back: one unit each.
        #expect(text.contains("- [ ] Pack bags <!-- id: ") && text.contains("  - [ ] Passport <!-- id: "), "\(text)")
        let lines = text.split(separator: "\n")
        let callBob = try #require(lines.firstIndex { $0.contains("Call Bob") })
        let tryIt = try #require(lines.firstIndex { $0.contains("Try todosync") })
        #expect(callBob < tryIt)
        // add ×3, done, edit, mv, rm, batch, undo, redo: one commit each.
        #expect(lists.commitCount == before + 10)
        try lists.expectCleanAndSound(except: ["?? plan.txt", "?? todo.ics"])
        #expect(try lists.read("todo.ics").hasPrefix("BEGIN:VCALENDAR\r\n"))
    }
}
