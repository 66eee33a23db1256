/// Priority and due date as they stand in a title (Obsidian Tasks style), and edits to them.
///
/// The fields stay in the text: `Pay rent ⏫ 📅 2026-12-01` has the plain title `Pay rent`.
struct TitleFields {
    var priority: Priority = .none
    var due: DueDate?
    /// The title without the priority emoji and the due field, spaces collapsed.
    var plainTitle: String

    private static let calendar: Unicode.Scalar = "\u{1F4C5}"  // 📅
    private static let variationSelector: Unicode.Scalar = "\u{FE0F}"

    init(title: String) {
        var priority = Priority.none
        var due: DueDate?
        var plain: [Unicode.Scalar] = []
        let scalars = Array(title.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if let found = Priority(scalar: scalar) {
                if priority == .none { priority = found }
                i += 1
                if i < scalars.count, scalars[i] == Self.variationSelector { i += 1 }
                continue
            }
            if scalar == Self.calendar, let (date, next) = Self.date(after: i, in: scalars) {
                if due == nil { due = date }
                i = next
                continue
            }
            plain.append(scalar)
            i += 1
        }
        var text = String(String.UnicodeScalarView(plain))
        text = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        self.priority = priority
        self.due = due
        self.plainTitle = text
    }

    /// `title` with its priority emoji replaced by `priority`'s (or removed for `.none`).
    static func setting(_ priority: Priority, in title: String) -> String {
        var scalars = Array(title.unicodeScalars)
        removeAll(from: &scalars) { scalars, i in
            guard Priority(scalar: scalars[i]) != nil else { return nil }
            var end = i + 1
            if end < scalars.count, scalars[end] == variationSelector { end += 1 }
            return end
        }
        guard let emoji = priority.emoji else { return trimmed(scalars) }
        // Obsidian Tasks order: text, priority, then dates.
        let insertAt = scalars.firstIndex(of: calendar) ?? scalars.count
        var before = Array(scalars[..<insertAt])
        while before.last == " " { before.removeLast() }
        let after = Array(scalars[insertAt...])
        let joined = before + [" "] + Array(emoji.unicodeScalars) + (after.isEmpty ? [] : [" "] + after)
        return trimmed(joined)
    }

    /// `title` with its due field replaced by `due` (or removed for nil).
    static func setting(_ due: DueDate?, in title: String) -> String {
        var scalars = Array(title.unicodeScalars)
        removeAll(from: &scalars) { scalars, i in
            guard scalars[i] == calendar, let (_, next) = date(after: i, in: scalars) else { return nil }
            return next
        }
        var result = trimmed(scalars)
        if let due { result += (result.isEmpty ? "" : " ") + "📅 \(due)" }
        return result
    }

    /// Removes each match (and one space before it); `match` returns the end of a match at `i`.
    private static func removeAll(from scalars: inout [Unicode.Scalar], match: ([Unicode.Scalar], Int) -> Int?) {
        var i = 0
        while i < scalars.count {
            if let end = match(scalars, i) {
                let start = i > 0 && scalars[i - 1] == " " ? i - 1 : i
                scalars.removeSubrange(start..<end)
                i = start
            } else {
                i += 1
            }
        }
    }

    private static func trimmed(_ scalars: [Unicode.Scalar]) -> String {
        var slice = scalars[...]
        while slice.last == " " { slice = slice.dropLast() }
        while slice.first == " " { slice = slice.dropFirst() }
        return String(String.UnicodeScalarView(slice))
    }

    /// A date after the 📅 at `index` (an optional variation selector and spaces between).
    private static func date(after index: Int, in scalars: [Unicode.Scalar]) -> (DueDate, Int)? {
        var i = index + 1
        if i < scalars.count, scalars[i] == variationSelector { i += 1 }
        while i < scalars.count, scalars[i] == " " { i += 1 }
        guard i + 10 <= scalars.count else { return nil }
        let text = String(String.UnicodeScalarView(scalars[i..<(i + 10)]))
        guard let date = DueDate(text) else { return nil }
        return (date, i + 10)
    }
}
