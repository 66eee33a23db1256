import Foundation
import Testing
@testable import TodoModel

/// The Obsidian Tasks fields of an item's line, read the way Obsidian Tasks reads them and
/// independently of the parser: patterns matched at the end of the text, one after another,
/// before the id comment and then after it; of a kind written twice, the one nearest the start
/// of the line is its value. The oracle of the field merge laws.
struct FieldValues {
    /// What each field says (a date, a priority's emoji, a rule in lower case) and how it is written.
    var first: [TaskField.Kind: (value: String, raw: String)] = [:]
    /// The line's text without the box, the id comment and the fields: its words.
    var words: [Substring] = []
    /// Every field read, in the order read.
    private var read: [TaskField.Kind] = []

    nonisolated(unsafe) private static let patterns: [(TaskField.Kind, Regex<(Substring, Substring)>)] = [
        (.priority, /([🔺⏫🔼🔽⏬])\x{FE0F}?$/),
        (.due, /[📅📆🗓]\x{FE0F}? *(\d{4}-\d{2}-\d{2})$/),
        (.start, /🛫\x{FE0F}? *(\d{4}-\d{2}-\d{2})$/),
        (.scheduled, /[⏳⌛]\x{FE0F}? *(\d{4}-\d{2}-\d{2})$/),
        (.created, /➕\x{FE0F}? *(\d{4}-\d{2}-\d{2})$/),
        (.done, /✅\x{FE0F}? *(\d{4}-\d{2}-\d{2})$/),
        (.cancelled, /❌\x{FE0F}? *(\d{4}-\d{2}-\d{2})$/),
        (.recurrence, /🔁\x{FE0F}? *([a-zA-Z0-9, !]+)$/),
    ]

    /// `line`: an item's line as in the file.
    init(line: String) {
        let box = line.firstRange(of: /\[[ xX]\]/)!.upperBound
        let text = line[box...]
        let parts = text.split(separator: /<!-- id: [0-9A-Fa-f-]+ -->/, maxSplits: 1, omittingEmptySubsequences: false)
        var words: [Substring] = []
        for part in parts {
            var rest = Substring(part.trimmingCharacters(in: .whitespaces))
            var firstInThisPart = Set<TaskField.Kind>()
            var matched = true
            while matched {
                matched = false
                for (kind, pattern) in Self.patterns {
                    guard let match = rest.firstMatch(of: pattern) else { continue }
                    read.append(kind)
                    // Read from the end: the one read last is nearest the start, and the part
                    // before the comment comes first.
                    if first[kind] == nil || firstInThisPart.contains(kind) {
                        firstInThisPart.insert(kind)
                        first[kind] = (
                            kind == .recurrence
                                ? match.1.lowercased().trimmingCharacters(in: .whitespaces) : String(match.1),
                            String(match.0)
                        )
                    }
                    rest = Substring(rest[..<match.range.lowerBound].trimmingCharacters(in: .whitespaces))
                    matched = true
                    break
                }
            }
            words += rest.split(separator: " ")
        }
        self.words = words
    }

    /// How many fields of `kind` the line ends its parts with.
    func count(_ kind: TaskField.Kind) -> Int { read.count { $0 == kind } }
}

/// The field laws for one kind of field of one merged item: `versions` are base, ours, theirs
/// and the merge. Returns whether the field clashed (both sides changed it differently).
@discardableResult
func expectFieldLaws(
    _ kind: TaskField.Kind, _ versions: [FieldValues], reports: [MergeReport], notes: String, holdingValues: Bool = true
) -> Bool {
    let (old, mine, other, now) = (versions[0], versions[1], versions[2], versions[3])
    // No more fields of a kind than both sides wrote (a second one typed by hand on each side
    // is kept from each).
    let counts = versions.map { $0.count(kind) }
    #expect(counts[3] <= max(1, counts[1] + counts[2] - counts[0], counts[1], counts[2]), "\(kind) twice")
    guard holdingValues else { return false }
    let (was, a, b) = (old.first[kind]?.value, mine.first[kind]?.value, other.first[kind]?.value)
    if a == was { #expect(now.first[kind]?.value == b, "\(kind): only theirs changed it") }
    if b == was { #expect(now.first[kind]?.value == a, "\(kind): only ours changed it") }
    guard a != was, b != was, a != b else { return false }
    #expect(now.first[kind]?.value == a)
    #expect(
        reports.contains {
            $0.kind == .fieldClash(field: kind.name, kept: mine.first[kind]?.raw, other: other.first[kind]?.raw)
        })
    if let raw = other.first[kind]?.raw { #expect(notes.contains("the other side set the \(kind.name) to \(raw)")) }
    return true
}

extension ListSet {
    /// The line an item starts on, as text.
    func line(of item: TodoItem) -> String {
        String(decoding: self[item.file]!.lines[item.line - 1].content, as: UTF8.self)
    }
}
