import TodoModel
import TodoSyncKit

/// Just enough JSON writing for `--json` outputs.
enum JSON {
    static func string(_ text: String) -> String {
        // Most text needs no escape: taken whole (a vault's list is tens of thousands of titles).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func date(_ date: CalendarDate?) -> String { date.map { string($0.description) } ?? "null" }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",\n") + "]" }

    /// An item as `list --json` writes it; `hasID: false` for an item the next commit gives an id.
    static func item(_ item: TodoItem, hasID: Bool = true) -> String {
        object([
            ("id", hasID ? string(item.id.description) : "null"), ("title", string(item.plainTitle)), ("rawTitle", string(item.title)),
            ("done", item.isDone ? "true" : "false"), ("notes", string(item.notes)),
            ("priority", item.priority == .none ? "null" : string(item.priority.description)),
            ("due", date(item.due)), ("start", date(item.start)), ("scheduled", date(item.scheduled)),
            ("created", date(item.created)), ("doneDate", date(item.doneDate)), ("cancelledDate", date(item.cancelledDate)),
            ("recurrence", item.recurrence.map(string) ?? "null"), ("taskID", item.taskID.map(string) ?? "null"),
            ("dependsOn", "[" + item.dependsOn.map(string).joined(separator: ",") + "]"),
            ("onCompletion", item.onCompletion.map(string) ?? "null"),
            ("parent", item.parent.map { string($0.description) } ?? "null"),
            ("position", String(item.position)), ("file", string(item.file)), ("line", String(item.line)),
            ("section", item.section.map(string) ?? "null"),
        ])
    }

    static func strings(_ values: [String]) -> String { "[" + values.map(string).joined(separator: ",") + "]" }

    /// One change: `change` names its kind, `summary` says it in words, `item` is the item
    /// after it (before it, for `removed`).
    static func change(_ change: Change, hasID: Bool = true) -> String {
        var fields: [(String, String)] = [("change", string(kindName(change.kind)))]
        if case .fieldChanged(let kind, let old) = change.kind {
            fields.append(("field", string(kind.name)))
            fields.append(("from", old.map(string) ?? "null"))
        }
        fields += [("summary", string(change.phrase)), ("item", item(change.item, hasID: hasID))]
        return object(fields)
    }

    static func kindName(_ kind: Change.Kind) -> String {
        switch kind {
        case .added: "added"
        case .addedNextOccurrence: "addedNextOccurrence"
        case .removed: "removed"
        case .checked: "checked"
        case .unchecked: "unchecked"
        case .retitled: "retitled"
        case .notesEdited: "notesEdited"
        case .moved: "moved"
        case .reprioritized: "reprioritized"
        case .dueChanged: "dueChanged"
        case .fieldChanged: "fieldChanged"
        }
    }

    /// A commit by its full id (`description` of the engine's commit ids), with its summary.
    static func commit(_ id: String?, summary: String? = nil) -> String {
        guard let id else { return "null" }
        return object([("commit", string(id))] + (summary.map { [("summary", string($0))] } ?? []))
    }
}
