import Foundation
import Synchronization
import TestSupport
import Testing
@testable import TodoModel

/// Item commands against cmark-gfm as the witness (docs/FORMAT.md, "Item commands"): on
/// generated lists, each command either changes the task tree GitHub shows exactly as it says
/// (the tree before with the command applied by a deliberately naive reference) or is refused;
/// undoing it (the merge undo runs) gives the file back byte for byte.
///
/// `COMMAND_CASES` and `COMMAND_SEED` set how many cases and which; the suite runs a few
/// hundred, a long run tens of thousands.
@Suite struct ItemCommandWitnessTests {
    @Test func itemCommandsChangeExactlyWhatTheyNameAsGitHubReadsIt() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = Int(environment["COMMAND_CASES"] ?? "") ?? 600
        let seed = UInt64(environment["COMMAND_SEED"] ?? "") ?? 47
        let cmark = try #require(
            CmarkGFM.executable,
            "cmark-gfm is not installed (Debian: apt-get install cmark-gfm); scripts/test.sh installs it")
        let failures = Mutex<[String]>([])
        let tally = Mutex<[String: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in stride(from: worker, to: count, by: 2) {
                var random = SeededGenerator(seed: seed &* 1_000_003 &+ UInt64(index))
                let outcome: Outcome
                do {
                    outcome = try Self.runCase(&random, cmark: cmark)
                } catch {
                    outcome = .failed("\(error)")
                }
                switch outcome {
                case .failed(let why): failures.withLock { $0.append("case \(index): \(why)") }
                case .counted(let key): tally.withLock { $0[key, default: 0] += 1 }
                }
            }
        }
        let found = failures.withLock { $0 }
        let counts = tally.withLock { $0 }
        #expect(
            found.isEmpty,
            "\(found.count) of \(count) cases failed; the first:\n\(found.prefix(5).joined(separator: "\n\n"))")
        // Most commands are carried out: a refusal is for a real reason, not a habit.
        let applied = counts["applied", default: 0]
        #expect(applied * 10 >= count * 7, "only \(applied) of \(count) commands applied: \(counts)")
        if environment["COMMAND_CASES"] != nil { print("item command witness: \(counts)") }
    }

    enum Outcome {
        case failed(String)
        /// applied, refused (with the error's kind), skipped (generated text the parsers read apart).
        case counted(String)
    }

    private static func runCase(_ random: inout SeededGenerator, cmark: URL) throws -> Outcome {
        var generator = GeneratedList(random: random)
        let plain = Int.random(in: 0..<3, using: &generator.random) == 0
        let main = generator.document(plain: plain)
        let other = Int.random(in: 0..<4, using: &generator.random) == 0 ? generator.document(plain: plain) : nil
        var documents = [ListDocument(path: "TODO.md", bytes: Array(main.utf8))]
        if let other { documents.append(ListDocument(path: "other.md", bytes: Array(other.utf8))) }
        let before = ListSet(documents)
        // Both parsers must read the lists alike before the command (the differential test's
        // ground); a generated text they read apart is left out and counted.
        var witnessBefore: [String: [WitnessTask]] = [:]
        for document in before.documents.values {
            let tasks = try witnessTasks(document.render(), cmark: cmark)
            guard tasks.map(\.id) == document.nodeIDs, tasks.allSatisfy({ $0.id != nil }) else {
                if ProcessInfo.processInfo.environment["COMMAND_SHOW_REFUSALS"] != nil {
                    print(
                        "SKIPPED: \(tasks) vs \(document.nodeIDs.map { $0.map { String($0.description.prefix(4)) } ?? "nil" })\n\(String(decoding: document.render(), as: UTF8.self).debugDescription)"
                    )
                }
                return .counted("skipped")
            }
            witnessBefore[document.path] = tasks
        }
        let ids = before.documents.values.flatMap { $0.nodeIDs.compactMap { $0 } }
        guard !ids.isEmpty else { return .counted("skipped") }
        let command = generator.command(ids: ids, files: Array(before.documents.keys))
        random = generator.random
        let description =
            "\(command)\n--- TODO.md\n\(main.debugDescription)"
            + (other.map { "\n--- other.md\n\($0.debugDescription)" } ?? "")

        let after: ListSet
        do {
            after = try command.apply(to: before)
        } catch {
            switch error {
            case .insideItself: return .counted("refused: inside itself")
            case .invalidNotes: return .counted("refused: notes")
            case .cannotLand, .wouldChange:
                // Lists with no code, HTML or lazy lines have no block to take an item in.
                if plain { return .failed("refused on a plain list: \(error)\n\(description)") }
                if ProcessInfo.processInfo.environment["COMMAND_SHOW_REFUSALS"] != nil {
                    print("REFUSED: \(error)\n\(description)\n")
                }
                return .counted("refused: \(String(describing: error).prefix { $0 != ":" })")
            default: return .failed("refused: \(error)\n\(description)")
            }
        }

        // The witness: GitHub's task tree after, against the tree before with the change.
        let expected = Self.expected(witnessBefore, after: command, in: before)
        for path in Set(before.documents.keys).union(after.documents.keys).sorted() {
            let bytes = after[path]?.render() ?? []
            let tasks = try witnessTasks(bytes, cmark: cmark)
            let want = expected[path] ?? []
            if tasks != want {
                return .failed(
                    "\(path): cmark-gfm reads\n  \(tasks)\nexpected\n  \(want)\n\(description)\n--- after\n\(String(decoding: bytes, as: UTF8.self).debugDescription)"
                )
            }
        }
        if case .setNotes(let id, let notes) = command, let item = after.items[id] {
            let wanted = ListDocument.noteTexts(notes).map { String(decoding: $0, as: UTF8.self) }
            let read = ListDocument.noteTexts(item.notes).map { String(decoding: $0, as: UTF8.self) }
            if wanted != read {
                return .failed(
                    "notes read back as \(read.debugDescription), not \(wanted.debugDescription)\n\(description)")
            }
        }
        // Undo as `todosync undo` does it: the unit's change merged back out.
        let undone = ListMerge.merge(base: after, ours: after, theirs: before, keepingOurs: true).lists
        for path in before.documents.keys where undone[path]?.render() != before[path]?.render() {
            return .failed(
                "undo did not give \(path) back:\n\(String(decoding: undone[path]?.render() ?? [], as: UTF8.self).debugDescription)\n\(description)"
            )
        }
        return .counted("applied")
    }

    /// One task as cmark-gfm reads it: the id written on its line, its box, its parent's id.
    struct WitnessTask: Hashable, CustomStringConvertible {
        var id: ItemID?
        var isChecked: Bool
        var parent: ItemID?

        var description: String {
            (id.map { String($0.description.prefix(4)) } ?? "????") + (isChecked ? "x" : "")
                + (parent.map { "^" + $0.description.prefix(4) } ?? "")
        }
    }

    /// cmark-gfm's tasks, each named by the id comment on its line (read with a pattern, not
    /// todosync's parser). A byte order mark is taken off first: cmark-gfm 0.29 does not see
    /// a task on a first line that starts with one (todosync and GitHub do).
    static func witnessTasks(_ bytes: [UInt8], cmark: URL) throws -> [WitnessTask] {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let tasks = try CmarkGFM.tasks(in: text, using: cmark)
        var lines: [[UInt8]] = [[]]
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == 0x0A || byte == 0x0D {
                if byte == 0x0D, index + 1 < text.count, text[index + 1] == 0x0A { index += 1 }
                lines.append([])
            } else {
                lines[lines.count - 1].append(byte)
            }
            index += 1
        }
        func id(atLine line: Int) -> ItemID? {
            guard line >= 1, line <= lines.count else { return nil }
            let text = String(decoding: lines[line - 1], as: UTF8.self)
            guard let match = text.firstMatch(of: /<!-- id: ([0-9A-Fa-f-]{36}) -->/) else { return nil }
            return ItemID(parsing: String(match.1))
        }
        return tasks.map {
            WitnessTask(id: id(atLine: $0.line), isChecked: $0.isChecked, parent: $0.parentLine.flatMap(id(atLine:)))
        }
    }

    /// The naive reference: each file's task list (preorder, each with its parent) with the
    /// command applied.
    static func expected(
        _ before: [String: [WitnessTask]], after command: Command, in lists: ListSet
    ) -> [String: [WitnessTask]] {
        var files = before
        func locate(_ id: ItemID) -> (String, Int)? {
            for (path, tasks) in files {
                if let index = tasks.firstIndex(where: { $0.id == id }) { return (path, index) }
            }
            return nil
        }
        func subtreeEnd(_ tasks: [WitnessTask], _ index: Int) -> Int {
            var inside: Set<ItemID?> = [tasks[index].id]
            var end = index + 1
            while end < tasks.count, inside.contains(tasks[end].parent) {
                inside.insert(tasks[end].id)
                end += 1
            }
            return end
        }
        func take(_ id: ItemID) -> [WitnessTask] {
            guard let (path, index) = locate(id) else { return [] }
            let end = subtreeEnd(files[path]!, index)
            let taken = Array(files[path]![index..<end])
            files[path]!.removeSubrange(index..<end)
            return taken
        }
        func put(_ tasks: [WitnessTask], at placement: Placement) {
            var tasks = tasks
            switch placement {
            case .end(let file):
                tasks[0].parent = nil
                files[file, default: []] += tasks
            case .under(let anchor):
                guard let (path, index) = locate(anchor) else { return }
                tasks[0].parent = anchor
                files[path]!.insert(contentsOf: tasks, at: subtreeEnd(files[path]!, index))
            case .firstUnder(let anchor):
                guard let (path, index) = locate(anchor) else { return }
                tasks[0].parent = anchor
                files[path]!.insert(contentsOf: tasks, at: index + 1)
            case .before(let anchor):
                guard let (path, index) = locate(anchor) else { return }
                tasks[0].parent = files[path]![index].parent
                files[path]!.insert(contentsOf: tasks, at: index)
            case .after(let anchor):
                guard let (path, index) = locate(anchor) else { return }
                tasks[0].parent = files[path]![index].parent
                files[path]!.insert(contentsOf: tasks, at: subtreeEnd(files[path]!, index))
            case .atLine: break
            }
        }
        switch command {
        case .add(let id, _, let isDone, _, let placement):
            put([WitnessTask(id: id, isChecked: isDone, parent: nil)], at: placement)
        case .move(let id, let placement):
            put(take(id), at: placement)
        case .remove(let id):
            _ = take(id)
        case .setDone(let id, let done):
            if let (path, index) = locate(id) { files[path]![index].isChecked = done }
        default:
            break
        }
        return files
    }
}

/// Lists shaped as people write them: every marker, three ways of indenting, depth 0-3,
/// notes (plain, lazy, fenced code, HTML, plain sub-items), loose lists, headings and
/// paragraphs between lists, CRLF, no final newline, a byte order mark. `plain`: no code, HTML
/// or lazy lines, so no block can take an item in.
struct GeneratedList {
    var random: SeededGenerator
    private var serial = 0

    init(random: SeededGenerator) { self.random = random }

    enum Indenting: CaseIterable { case contentColumn, four, tab }

    mutating func document(plain: Bool) -> String {
        var lines: [String] = []
        for section in 0..<Int.random(in: 1...3, using: &random) {
            // A list's last line continues lazily into a paragraph right under it.
            if plain, !lines.isEmpty { lines.append("") }
            if section > 0 || chance(4) { lines.append(pick(["# Heading", "## Sub", "Some prose.", ""])) }
            if chance(3), lines.last != "" {
                lines.append(pick(["Intro text", "Notes:"]))
            } else if !lines.isEmpty, chance(2) {
                lines.append("")
            }
            list(depth: 0, indent: "", plain: plain, into: &lines)
        }
        if chance(5) { lines += ["", "Closing prose."] }
        if !plain, chance(5) { lines.append("Prose right under the list.") }
        let ending = chance(5) ? "\r\n" : "\n"
        var text = lines.joined(separator: ending)
        if !chance(6) { text += ending }
        if chance(12) { text = "\u{FEFF}" + text }
        return text
    }

    private mutating func list(depth: Int, indent: String, plain: Bool, into lines: inout [String]) {
        let bullet = pick(["-", "-", "*", "+", "1.", "1.", "1)"])
        let ordered = bullet.hasSuffix(".") || bullet.hasSuffix(")")
        let start = ordered && chance(6) ? 3 : 1
        let indenting = pick(Indenting.allCases)
        let loose = chance(5)
        let count = Int.random(in: 1...(depth == 0 ? 4 : 3), using: &random)
        for index in 0..<count {
            let marker = ordered ? "\(start + index)\(bullet.last!)" : bullet
            let id = ItemID(high: random.next(), low: random.next())
            serial += 1
            let title =
                pick(["Buy milk", "Call Bob", "Plan *trip*", "Pay rent ⏫ 📅 2026-12-01", "`code` item", "a | b"])
                + " \(serial)"
            lines.append(indent + marker + " " + (chance(4) ? "[x]" : "[ ]") + " " + title + " <!-- id: \(id) -->")
            let inner: String
            switch indenting {
            case .contentColumn: inner = indent + String(repeating: " ", count: marker.count + 1)
            case .four:
                inner = indent + (marker.count + 1 > 4 ? String(repeating: " ", count: marker.count + 1) : "    ")
            case .tab:
                // A tab that falls short of the item's text would make its notes lazy lines.
                let columns = (indent + "\t").reduce(0) { $1 == "\t" ? $0 + 4 - $0 % 4 : $0 + 1 }
                let text = indent.reduce(0) { $1 == "\t" ? $0 + 4 - $0 % 4 : $0 + 1 } + marker.count + 1
                inner = columns >= text ? indent + "\t" : indent + String(repeating: " ", count: marker.count + 1)
            }
            notes(inner: inner, plain: plain, into: &lines)
            if depth < 3, chance(3) { list(depth: depth + 1, indent: inner, plain: plain, into: &lines) }
            if loose, index < count - 1 { lines.append("") }
        }
    }

    private mutating func notes(inner: String, plain: Bool, into lines: inout [String]) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: lines.append(inner + "a note")
        case 2: lines += [inner + "first note", "", inner + "second note"]
        case 3: lines.append(inner + "- plain sub-item")
        case 4 where !plain: lines.append("lazy continuation")
        case 5 where !plain: lines += [inner + "```", inner + "- [ ] in code", inner + "```"]
        case 6 where !plain: lines += [inner + "<div>", inner + "html", ""]
        case 7 where !plain: lines += [inner + "```", inner + "left open"]
        default: break
        }
    }

    /// A command on these items, drawn as a user would type them (every placement).
    mutating func command(ids: [ItemID], files: [String]) -> Command {
        let target = pick(ids)
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:
            return .add(
                id: ItemID(high: random.next(), low: random.next()), title: "New item", isDone: chance(5),
                notes: chance(4) ? pick(Self.noteTexts) : "", at: placement(ids: ids, files: files))
        case 2, 3, 4:
            return .move(target, to: placement(ids: ids, files: files))
        case 5, 6:
            return .remove(target)
        case 7:
            return .setNotes(target, pick(Self.noteTexts))
        case 8:
            return .retitle(target, pick(["Renamed", "Renamed ⏫", "x"]))
        default:
            return .setDone(target, chance(2))
        }
    }

    static let noteTexts = [
        "plain note", "", "two\nlines", "a\n\nb", "```", "```\ncode\n```", "<div>", "- [ ] sub", "a\r- [ ] evil", "---",
        "1. step", "    indented", "- plain", "> quote", "a\r\nb", "===",
    ]

    private mutating func placement(ids: [ItemID], files: [String]) -> Placement {
        let anchor = pick(ids)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .end(file: pick(files + ["new.md"]))
        case 1: return .under(anchor)
        case 2: return .before(anchor)
        default: return .after(anchor)
        }
    }

    private mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &random) == 0 }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
}
