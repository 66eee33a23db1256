import Foundation
import TestSupport
import TodoModel

/// Deterministic inputs: the same sizes give the same bytes on every run and machine.
enum Generate {
    /// A list of `items` items: a heading per 100, nesting, notes, prose, Unicode, priorities and
    /// due dates, each item with an id (as if todosync had run before).
    static func list(items: Int, seed: UInt64 = 42) -> String {
        var random = SeededGenerator(seed: seed)
        var out = "---\ntitle: Benchmark list\n---\n\n# Everything\n\n"
        let words = [
            "buy", "call", "fix", "write", "plan", "café", "review", "ship", "日本", "📦 parcel", "water", "book",
        ]
        for n in 0..<items {
            if n % 100 == 0 {
                out += "\n## Section \(n / 100)\n\nSome prose for section \(n / 100): naïve café ☕ text.\n\n"
            }
            let depth = n % 10 >= 7 ? 1 : 0
            let indent = String(repeating: "  ", count: depth)
            let box = random.next() % 3 == 0 ? "x" : " "
            let priority = ["", "", " ⏫", " 🔼", " 🔽"][Int(random.next() % 5)]
            let due = random.next() % 8 == 0 ? " 📅 2026-12-\(String(format: "%02d", 1 + n % 28))" : ""
            let word = words[Int(random.next() % UInt64(words.count))]
            out +=
                "\(indent)- [\(box)] Task \(n): \(word) the thing\(priority)\(due) <!-- id: \(ItemID.named("bench-\(n)")) -->\n"
            if n % 9 == 0 { out += "\(indent)  A note for item \(n), with details.\n" }
        }
        return out
    }

    /// The three lists of `mergeTexts`, parsed.
    static func mergeInputs(_ texts: MergeTexts) -> (base: ListSet, ours: ListSet, theirs: ListSet) {
        (lists(texts.base), lists(texts.ours), lists(texts.theirs))
    }

    /// The same three lists cut into pieces of `pieceItems` items, at the same items in each,
    /// every piece a list of its own: merged one after another, they are the merge's work with
    /// nothing that grows with the whole (the merge row's reference for linear work).
    static func mergePieces(_ texts: MergeTexts, pieceItems: Int) -> [(base: ListSet, ours: ListSet, theirs: ListSet)] {
        // Every tenth item is a top-level one (`list`): each piece starts with an item.
        precondition(pieceItems % 10 == 0)
        func cut(_ text: String) -> [ListSet] {
            var pieces: [[Substring]] = [[]]
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if let number = taskNumber(line), number > 0, number % pieceItems == 0 { pieces.append([]) }
                pieces[pieces.count - 1].append(line)
            }
            let texts = pieces.indices.map { pieces[$0].joined(separator: "\n") + ($0 == pieces.count - 1 ? "" : "\n") }
            precondition(texts.joined() == text, "the pieces must hold the whole list")
            return texts.map(lists)
        }
        let (base, ours, theirs) = (cut(texts.base), cut(texts.ours), cut(texts.theirs))
        return base.indices.map { (base[$0], ours[$0], theirs[$0]) }
    }

    typealias MergeTexts = (base: String, ours: String, theirs: String)

    /// A list of `items` items and two descendants with 1% of the items edited on each side
    /// (renamed on one, checked or unchecked on the other), so a merge takes the item-by-item path.
    static func mergeTexts(items: Int) -> MergeTexts {
        let text = list(items: items)
        // One pass over the lines (a replace per edit would scan 9 MB a thousand times).
        var oursLines: [Substring] = [], theirsLines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let number = taskNumber(line)
            oursLines.append(
                number.map { $0 % 100 == 3 } == true
                    ? Substring(line.replacingOccurrences(of: "Task \(number!): ", with: "Task \(number!) (renamed): "))
                    : line)
            let toggled =
                line.contains("- [ ]")
                ? line.replacingOccurrences(of: "- [ ]", with: "- [x]")
                : line.replacingOccurrences(of: "- [x]", with: "- [ ]")
            theirsLines.append(number.map { $0 % 100 == 57 } == true ? Substring(toggled) : line)
        }
        return (text, oursLines.joined(separator: "\n"), theirsLines.joined(separator: "\n"))
    }

    private static func lists(_ text: String) -> ListSet {
        ListSet([ListDocument(path: "TODO.md", bytes: Array(text.utf8))])
    }

    /// The n of a generated item line (`- [ ] Task n: …`), or nil for other lines.
    static func taskNumber(_ line: Substring) -> Int? {
        guard let range = line.range(of: "] Task ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// A repository of `commits` commits (fast-import), whose last commit adds `listText` as TODO.md.
    /// Earlier commits edit a small list, as a history of todosync units would.
    static func repository(at path: String, commits: Int, listText: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try shell("git", "init", "-q", "-b", "main", in: path)
        var stream = ""
        var time = 1_780_000_000
        func data(_ text: String) -> String { "data \(text.utf8.count)\n\(text)\n" }
        for index in 0..<max(0, commits - 1) {
            time += 60
            let small = (0...(index % 20)).map {
                "- [ ] history item \($0) edit \(index) <!-- id: \(ItemID.named("h-\($0)")) -->\n"
            }.joined()
            stream +=
                "commit refs/heads/main\ncommitter Bench <bench@example.com> \(time) +0000\n" + data("Edit \(index)")
            stream += "M 100644 inline history.md\n" + data(small)
        }
        time += 60
        stream +=
            "commit refs/heads/main\ncommitter Bench <bench@example.com> \(time) +0000\n" + data("Add the big list")
        stream += "M 100644 inline TODO.md\n" + data(listText) + "\n"
        try shell("git", "fast-import", "--quiet", in: path, input: stream)
        try shell("git", "reset", "-q", "--hard", "main", in: path)
    }
}

@discardableResult
func shell(_ arguments: String..., in directory: String, input: String? = nil) throws -> String {
    let result = try run("/usr/bin/env", arguments, in: directory, input: input)
    guard result.status == 0 else {
        throw BenchError("\(arguments.joined(separator: " ")) failed in \(directory): \(result.stderr)")
    }
    return result.stdout
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
