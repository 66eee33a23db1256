import TodoSyncKit

/// What git says for a mistyped command: `todosync stauts` is not taken for arguments of the
/// default command (`commit`), but named as unknown, with the nearest commands.
enum CommandNameCheck {
    /// The error to print for `arguments` (without the program's name), or nil when the first
    /// word is an option, a known command, or what follows `help` is one.
    static func problem(_ arguments: [String], known: [String]) -> TodoSyncError? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        if first == "help" {
            guard let topic = arguments.dropFirst().first, !topic.hasPrefix("-"), !known.contains(topic) else {
                return nil
            }
            return unknown(topic, known: known, prefix: "no help for '\(topic)': it is not a todosync command")
        }
        guard !known.contains(first) else { return nil }
        return unknown(first, known: known, prefix: "'\(first)' is not a todosync command")
    }

    private static func unknown(_ word: String, known: [String], prefix: String) -> TodoSyncError {
        let typed = word.lowercased()
        let distances = known.map { (name: $0, distance: distance(typed, $0)) }
        let best = distances.map(\.distance).min() ?? .max
        // As git: only what is close: the fewest letters apart (and few), or starting with the word.
        let nearest = distances.filter { $0.distance == best && best <= max(2, typed.count / 3) }.map(\.name)
        let starting = typed.count >= 2 ? known.filter { $0.hasPrefix(typed) } : []
        let unique = Array(Set(nearest + starting)).sorted()
        var hint = "todosync --help lists the commands"
        if unique.count == 1 {
            hint = "the most similar command is '\(unique[0])'; " + hint
        } else if !unique.isEmpty {
            hint = "the most similar commands are " + unique.map { "'\($0)'" }.joined(separator: ", ") + "; " + hint
        }
        return TodoSyncError(prefix, hint: hint)
    }

    /// Edit distance with adjacent transpositions (`stauts` is one step from `status`).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
