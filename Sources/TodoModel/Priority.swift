/// An item's priority, written as an Obsidian Tasks emoji in the title.
public enum Priority: Int, Hashable, Comparable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case lowest = -2, low = -1, none = 0, medium = 1, high = 2, highest = 3

    /// The emoji that marks this priority (`nil` for `.none`).
    public var emoji: String? {
        switch self {
        case .highest: "🔺"
        case .high: "⏫"
        case .medium: "🔼"
        case .low: "🔽"
        case .lowest: "⏬"
        case .none: nil
        }
    }

    public var description: String {
        switch self {
        case .highest: "highest"
        case .high: "high"
        case .medium: "medium"
        case .low: "low"
        case .lowest: "lowest"
        case .none: "none"
        }
    }

    /// Reads a name as typed on the command line (`high`, `HIGH`).
    public init?(name: String) {
        guard let match = Priority.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = match
    }

    /// The priority an emoji's UTF-8 marks.
    init(emoji bytes: [UInt8]) {
        self = Priority.allCases.first { $0.emoji?.utf8.elementsEqual(bytes) == true } ?? .none
    }

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
}
