/// An Obsidian Tasks field written in an item's text: `⏫`, `📅 2026-12-01`, `🔁 every week`,
/// `🆔 abc123`. Read as Obsidian Tasks reads them (its emoji format), with an optional
/// variation selector after any emoji.
///
/// ```swift
/// TaskField.all(in: Array("Pay rent ⏫ 📅 2026-12-01".utf8)).map(\.kind)   // [.priority, .due]
/// ```
struct TaskField: Hashable, Sendable {
    typealias Kind = TaskFieldKind

    var kind: Kind
    /// Where the field stands in the scanned bytes: its emoji to the end of its value.
    var range: Range<Int>
    /// What it says, without its emoji and spacing (a date, a rule, an id; a priority's
    /// emoji), so that two ways of writing one value compare equal.
    var value: [UInt8]

    /// The fields in `bytes`, in order.
    static func all(in bytes: [UInt8]) -> [TaskField] {
        var result: [TaskField] = []
        var i = 0
        while i < bytes.count {
            if let field = match(bytes, at: i) {
                result.append(field)
                i = field.range.upperBound
            } else {
                i += 1
            }
        }
        return result
    }

    /// The field that starts at `i`, if one does.
    static func match(_ bytes: [UInt8], at i: Int) -> TaskField? {
        // NB: every field emoji starts with F0 9F or E2; most bytes of a title are neither.
        guard bytes[i] == 0xF0 || bytes[i] == 0xE2 else { return nil }
        for (emoji, kind) in emojis where hasPrefix(bytes, emoji, at: i) {
            var j = i + emoji.count
            if hasPrefix(bytes, variationSelector, at: j) { j += variationSelector.count }
            if kind == .priority {
                return endsWord(bytes, at: j) ? TaskField(kind: kind, range: i..<j, value: emoji) : nil
            }
            while j < bytes.count, bytes[j] == 0x20 { j += 1 }
            guard let end = kind.value.end(in: bytes, from: j), end > j else { return nil }
            let field = TaskField(kind: kind, range: i..<end, value: kind.value.normalized(bytes[j..<end]))
            if kind == .recurrence {
                // A rule runs on over words; it is a field only where nothing but fields follows.
                var next = end
                while next < bytes.count, bytes[next] == 0x20 { next += 1 }
                return next == bytes.count || match(bytes, at: next) != nil ? field : nil
            }
            return endsWord(bytes, at: end) ? field : nil
        }
        return nil
    }

    private static let emojis: [([UInt8], Kind)] =
        ([
            ("🔺", .priority), ("⏫", .priority), ("🔼", .priority), ("🔽", .priority), ("⏬", .priority),
            ("📅", .due), ("📆", .due), ("🗓", .due), ("🛫", .start), ("⏳", .scheduled), ("⌛", .scheduled),
            ("➕", .created), ("✅", .done), ("❌", .cancelled), ("🔁", .recurrence), ("🆔", .id),
            ("⛔", .dependsOn), ("🏁", .onCompletion),
        ] as [(String, Kind)]).map { (Array($0.0.utf8), $0.1) }

    private static let variationSelector: [UInt8] = [0xEF, 0xB8, 0x8F]

    /// Whether a field may end at `i`: the text ends, a space follows, or another emoji.
    private static func endsWord(_ bytes: [UInt8], at i: Int) -> Bool {
        i == bytes.count || bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] >= 0x80
    }

    private static func hasPrefix(_ bytes: [UInt8], _ prefix: [UInt8], at i: Int) -> Bool {
        guard i + prefix.count <= bytes.count else { return false }
        for k in 0..<prefix.count where bytes[i + k] != prefix[k] { return false }
        return true
    }

    /// The grammar of a field's value, as Obsidian Tasks' emoji format reads it.
    fileprivate enum Value {
        case none, date, taskID, taskIDs, rule, word

        /// The end of the value that starts at `j` (`j` itself if there is none).
        func end(in bytes: [UInt8], from j: Int) -> Int? {
            switch self {
            case .none:
                return j
            case .date:
                guard j + 10 <= bytes.count, CalendarDate(String(decoding: bytes[j..<(j + 10)], as: UTF8.self)) != nil
                else { return nil }
                return j + 10
            case .taskID:
                return Self.run(bytes, from: j, of: Self.isTaskIDByte)
            case .taskIDs:
                // `id`, then `, id` any number of times, spaces allowed around the commas.
                var end = Self.run(bytes, from: j, of: Self.isTaskIDByte)
                while true {
                    var k = end
                    while k < bytes.count, bytes[k] == 0x20 { k += 1 }
                    guard k < bytes.count, bytes[k] == UInt8(ascii: ",") else { return end }
                    k += 1
                    while k < bytes.count, bytes[k] == 0x20 { k += 1 }
                    let next = Self.run(bytes, from: k, of: Self.isTaskIDByte)
                    guard next > k else { return end }
                    end = next
                }
            case .rule:
                var end = Self.run(bytes, from: j) {
                    $0.isASCIILetter || $0.isDigit || $0 == 0x20 || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "!")
                }
                while end > j, bytes[end - 1] == 0x20 { end -= 1 }
                return end
            case .word:
                return Self.run(bytes, from: j) { $0.isASCIILetter }
            }
        }

        /// The value as compared: a rule or an action in lower case, a list without spaces.
        func normalized(_ value: ArraySlice<UInt8>) -> [UInt8] {
            switch self {
            case .rule, .word: value.map { $0.isASCIILetter ? $0 | 0x20 : $0 }
            case .taskIDs: value.filter { $0 != 0x20 }
            case .none, .date, .taskID: Array(value)
            }
        }

        private static func isTaskIDByte(_ byte: UInt8) -> Bool {
            byte.isASCIILetter || byte.isDigit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }

        private static func run(_ bytes: [UInt8], from j: Int, of accepted: (UInt8) -> Bool) -> Int {
            var end = j
            while end < bytes.count, accepted(bytes[end]) { end += 1 }
            return end
        }
    }
}

/// An Obsidian Tasks field, by kind: the cases in the order Obsidian Tasks writes them after the description.
public enum TaskFieldKind: Int, CaseIterable, Comparable, Sendable {
    case id, dependsOn, priority, recurrence, onCompletion, created, start, scheduled, due, cancelled, done

    public static func < (a: TaskFieldKind, b: TaskFieldKind) -> Bool { a.rawValue < b.rawValue }

    /// How people call the field, for reports.
    public var name: String {
        switch self {
        case .id: "task id"
        case .dependsOn: "depends-on list"
        case .priority: "priority"
        case .recurrence: "recurrence"
        case .onCompletion: "on-completion action"
        case .created: "created date"
        case .start: "start date"
        case .scheduled: "scheduled date"
        case .due: "due date"
        case .cancelled: "cancelled date"
        case .done: "done date"
        }
    }

    /// The emoji todosync writes for the field (Obsidian Tasks' first spelling); nil for
    /// priority, whose emoji is its value.
    var emoji: String? {
        switch self {
        case .id: "🆔"
        case .dependsOn: "⛔"
        case .priority: nil
        case .recurrence: "🔁"
        case .onCompletion: "🏁"
        case .created: "➕"
        case .start: "🛫"
        case .scheduled: "⏳"
        case .due: "📅"
        case .cancelled: "❌"
        case .done: "✅"
        }
    }

    /// Whether the field's value is a date.
    public var isDate: Bool { value == .date }

    fileprivate var value: TaskField.Value {
        switch self {
        case .priority: .none
        case .id: .taskID
        case .dependsOn: .taskIDs
        case .recurrence: .rule
        case .onCompletion: .word
        case .created, .start, .scheduled, .due, .cancelled, .done: .date
        }
    }
}
