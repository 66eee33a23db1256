import Foundation
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
                        first[kind] = (kind == .recurrence ? match.1.lowercased().trimmingCharacters(in: .whitespaces) : String(match.1), String(match.0))
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

extension ListSet {
    /// The line an item starts on, as text.
    func line(of item: TodoItem) -> String {
        String(decoding: self[item.file]!.lines[item.line - 1].content, as: UTF8.self)
    }
}
