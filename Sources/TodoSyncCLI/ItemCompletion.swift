import ArgumentParser
import TodoModel
import TodoSyncKit

/// Shell completion of an item argument: the titles of the items it may name (a title two
/// items share is offered as their ids' first 8 digits instead, which name one), and ids when
/// what is typed so far is hex digits.
enum ItemCompletion {
    enum Items { case open, done, all }

    static func of(_ items: Items) -> CompletionKind {
        .custom { words, _, prefix in candidates(items, words: words, prefix: prefix) }
    }

    private static func candidates(_ which: Items, words: [String], prefix: String) -> [String] {
        // `-C DIR` typed on the line names the repository.
        let directory =
            words.firstIndex(of: "-C").flatMap { words.indices.contains($0 + 1) ? words[$0 + 1] : nil } ?? "."
        guard
            let workspace = try? Workspace.open(at: directory, configuration: RepositoryOption.workspaceConfiguration),
            let (all, withoutID) = try? workspace.items()
        else {
            return []
        }
        let items = all.filter { which == .all || $0.isDone == (which == .done) }
        var titleCounts: [String: Int] = [:]
        for item in all { titleCounts[item.plainTitle.lowercased(), default: 0] += 1 }
        var result: [String] = []
        for item in items where !item.plainTitle.isEmpty && !item.plainTitle.contains("\n") {
            let shortID = String(item.id.description.prefix(8)).lowercased()
            if titleCounts[item.plainTitle.lowercased()] == 1 {
                result.append(item.plainTitle)
            } else if !withoutID.contains(item.id) {
                result.append(shortID)
            }
        }
        if !prefix.isEmpty, prefix.allSatisfy(\.isHexDigit) {
            result += items.filter { !withoutID.contains($0.id) }.map {
                String($0.id.description.prefix(8)).lowercased()
            }
        }
        return Array(Set(result)).sorted()
    }
}
