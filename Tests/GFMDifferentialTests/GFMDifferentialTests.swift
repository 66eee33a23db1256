import Foundation
import Synchronization
import TestSupport
import Testing
@testable import TodoModel

/// todosync's task items against cmark-gfm's (Debian's `cmark-gfm`, the engine behind GitHub's
/// rendering): the same lines, the same boxes, the same nesting, on a fixed-seed generated
/// corpus and on the GFM spec's block-structure examples (as they are, and with a box put
/// after every list marker). The only differences allowed are the ones docs/FORMAT.md lists
/// ("Where todosync differs from GitHub"), each filtered out below by name.
@Suite struct GFMDifferentialTests {
    @Test func generatedDocumentsHaveTheTaskItemsGitHubShows() throws {
        var corpus = GeneratedMarkdown(seed: UInt64(ProcessInfo.processInfo.environment["GFM_SEED"] ?? "30") ?? 30)
        try expectSameTasks(in: corpus.documents(2_500))
    }

    @Test func specExamplesHaveTheTaskItemsGitHubShows() throws {
        try #require(
            FileManager.default.fileExists(atPath: CmarkGFM.specPath),
            "the GFM spec is missing: scripts/test.sh installs Debian's cmark-gfm, which ships it")
        let examples = try CmarkGFM.specExamples()
        // Tabs through lists: some three hundred examples.
        #expect(examples.count > 250)
        try expectSameTasks(in: examples + examples.map(withBoxes))
    }

    /// The lines a commit warns about as looking like tasks (`NearMissTask`) are no tasks on
    /// GitHub either: the warning never calls a task a near miss.
    @Test func nearMissesAreNoTasksOnGitHubEither() throws {
        let cmark = try #require(
            CmarkGFM.executable,
            "cmark-gfm is not installed (Debian: apt-get install cmark-gfm); scripts/test.sh installs it")
        let lines = [
            "-[ ] Buy milk", "1.[x] Call Bob", "- [] Buy milk", "- [X ] Buy milk", "- [ x] Buy milk",
            "  * [  ] Buy milk",
            "- [ ]Buy milk", "[ ] Buy milk", "[x] Buy milk",
        ]
        for line in lines {
            for text in ["\(line)\n", "Prose above.\n\(line)\n", "- [ ] Groceries\n  \(line)\n"] {
                let bytes = Array(text.utf8)
                let warned = Set(ListDocument(path: "TODO.md", bytes: bytes).diagnostics.map(\.line))
                let tasks = Set(try CmarkGFM.tasks(in: bytes, using: cmark).map(\.line))
                let lineNumber = text.split(separator: "\n").firstIndex { $0.hasSuffix(line) }.map { $0 + 1 }
                #expect(lineNumber.map(warned.contains) == true, "\(text.debugDescription): not warned about")
                #expect(lineNumber.map(tasks.contains) == false, "\(text.debugDescription): cmark-gfm shows a task")
            }
        }
    }

    /// Puts `[ ] ` (or `[x] `) after the first list marker of each line.
    private func withBoxes(_ example: String) -> String {
        var checked = false
        return example.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let match = line.firstMatch(of: /^([ \t>]*(?:[-+*]|[0-9]{1,9}[.)])[ \t]+)(?=\S)/) else {
                return String(line)
            }
            checked.toggle()
            return match.1 + (checked ? "[x] " : "[ ] ") + line[match.range.upperBound...]
        }.joined(separator: "\n")
    }

    private func expectSameTasks(in documents: [String]) throws {
        let cmark = try #require(
            CmarkGFM.executable,
            "cmark-gfm is not installed (Debian: apt-get install cmark-gfm); scripts/test.sh installs it")
        let differences = Mutex<[String]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in stride(from: worker, to: documents.count, by: 2) {
                let bytes = Array(documents[index].utf8)
                do {
                    let theirs = Self.withoutDocumentedDifferences(
                        try CmarkGFM.tasks(in: bytes, using: cmark), in: bytes)
                    let ours = Self.tasks(in: bytes)
                    if Set(theirs) != Set(ours) {
                        differences.withLock {
                            $0.append(
                                "\(documents[index].debugDescription)\n  cmark-gfm: \(theirs)\n  todosync:  \(ours)")
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let found = differences.withLock { $0 }
        #expect(
            found.isEmpty,
            "\(found.count) of \(documents.count) documents differ; the first:\n\(found.prefix(8).joined(separator: "\n"))"
        )
    }

    private static func tasks(in bytes: [UInt8]) -> [CmarkGFM.Task] {
        let document = ListDocument(path: "TODO.md", bytes: bytes)
        return document.nodes.map { node in
            CmarkGFM.Task(
                line: node.line + 1, isChecked: document.isDone(node: document.nodes.firstIndex(of: node)!),
                parentLine: node.parent.map { document.nodes[$0].line + 1 })
        }
    }

    /// cmark-gfm 0.29 checks a box when `[x]` stands anywhere on the line (it searches the
    /// whole line); todosync, like later cmark-gfm versions, reads the box. The box is the
    /// line's first `[`, the task's marker being the first thing on its line.
    private static func readingTheBox(_ task: CmarkGFM.Task, in lines: [ArraySlice<UInt8>]) -> CmarkGFM.Task {
        let line = lines[task.line - 1]
        guard let box = line.firstIndex(of: UInt8(ascii: "[")), box + 1 < line.endIndex else { return task }
        var read = task
        read.isChecked = line[box + 1] == UInt8(ascii: "x") || line[box + 1] == UInt8(ascii: "X")
        return read
    }

    /// cmark-gfm's tasks less the differences docs/FORMAT.md lists: a task todosync does not
    /// take is left out, and the tasks under it are under the task around it.
    private static func withoutDocumentedDifferences(_ tasks: [CmarkGFM.Task], in bytes: [UInt8]) -> [CmarkGFM.Task] {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let byLine = Dictionary(tasks.map { ($0.line, $0) }, uniquingKeysWith: { first, _ in first })
        let dropped = Set(tasks.filter { isDocumentedDifference($0, in: lines) }.map(\.line))
        return tasks.filter { !dropped.contains($0.line) }.map { task in
            var kept = readingTheBox(task, in: lines)
            while let parent = kept.parentLine, dropped.contains(parent) {
                kept.parentLine = byLine[parent]?.parentLine
            }
            return kept
        }
    }

    /// Tabs as the spaces they stand for (tab stops every 4 columns).
    private static func expandingTabs(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "\t" {
                result += String(repeating: " ", count: 4 - result.unicodeScalars.count % 4)
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The differences docs/FORMAT.md lists, each with its reason there.
    private static func isDocumentedDifference(_ task: CmarkGFM.Task, in lines: [ArraySlice<UInt8>]) -> Bool {
        let line = lines[task.line - 1]
        // cmark-gfm 0.29 also marks a plain list item as a task when a later line inside it
        // looks like a task line without being a list item (`1234567890. [x] a`: ten digits);
        // todosync reads a task from its own first line.
        let text = expandingTabs(String(decoding: line, as: UTF8.self))
        guard let head = text.firstMatch(of: /^ *(?:[-+*]|[0-9]{1,9}[.)]) {1,4}\[[ xX]\][ \x{0B}\x{0C}]/) else {
            return true
        }
        // A box with no text after it is no item until it has some.
        if text[head.range.upperBound...].allSatisfy({ $0 == " " || $0 == "\u{0B}" || $0 == "\u{0C}" }) { return true }
        // YAML front matter holds no items.
        if lines.first.map(Array.init) == Array("---".utf8),
            let close = lines.dropFirst().firstIndex(where: {
                Array($0) == Array("---".utf8) || Array($0) == Array("...".utf8)
            }),
            task.line - 1 < close
        {
            return true
        }
        return false
    }
}
