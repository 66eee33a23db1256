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
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
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
        var out: [UInt8] = []
        append(item, hasID: hasID, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `item`, appended to `out` piece by piece: `list --json` of a vault writes tens of
    /// thousands of items into one text.
    /// A clash not yet settled (docs/CLI.md): its place, item, kind and versions.
    static func clash(_ clash: Clash) -> String {
        let kind: String, versions: [String]
        switch clash.kind {
        case .lines(let found): (kind, versions) = ("lines", found.map { $0.joined(separator: "\n") })
        case .title(let other): (kind, versions) = ("title", [clash.itemTitle ?? "", other])
        case .field(let note): (kind, versions) = ("field", [note])
        case .unfinished: (kind, versions) = ("unfinished", [])
        }
        return object([
            ("file", string(clash.file)), ("line", String(clash.lines.lowerBound)),
            ("lastLine", String(clash.lines.upperBound)),
            ("item", clash.item.map { string($0.description) } ?? "null"),
            ("title", clash.itemTitle.map(string) ?? "null"),
            ("kind", string(kind)), ("versions", strings(versions)), ("description", string(clash.description)),
        ])
    }

    /// `clash`: whether the item holds a clash not yet settled (`list` says; nil: not told).
    static func append(_ item: TodoItem, hasID: Bool = true, clash: Bool? = nil, to out: inout [UInt8]) {
        func field(_ name: StaticString, _ value: String?, first: Bool = false) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\":".utf8)
            if let value { appendString(value, to: &out) } else { out.append(contentsOf: "null".utf8) }
        }
        func raw(_ name: StaticString, _ value: String) {
            out.append(contentsOf: ",\"".utf8)
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\":".utf8)
            out.append(contentsOf: value.utf8)
        }
        func number(_ name: StaticString, _ value: Int) {
            out.append(contentsOf: ",\"".utf8)
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\":".utf8)
            appendDecimal(value, to: &out)
        }
        func id(_ name: StaticString, _ value: ItemID?, first: Bool = false) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\":".utf8)
            guard let value else { return out.append(contentsOf: "null".utf8) }
            out.append(UInt8(ascii: "\""))
            value.appendCanonical(to: &out)
            out.append(UInt8(ascii: "\""))
        }
        id("id", hasID ? item.id : nil, first: true)
        field("title", item.plainTitle)
        field("rawTitle", item.title)
        raw("done", item.isDone ? "true" : "false")
        field("notes", item.notes)
        field("priority", item.priority == .none ? nil : item.priority.description)
        field("due", item.due?.description)
        field("start", item.start?.description)
        field("scheduled", item.scheduled?.description)
        field("created", item.created?.description)
        field("doneDate", item.doneDate?.description)
        field("cancelledDate", item.cancelledDate?.description)
        field("recurrence", item.recurrence)
        field("taskID", item.taskID)
        if item.dependsOn.isEmpty { raw("dependsOn", "[]") } else { raw("dependsOn", strings(item.dependsOn)) }
        field("onCompletion", item.onCompletion)
        id("parent", item.parent)
        number("position", item.position)
        field("file", item.file)
        number("line", item.line)
        field("section", item.section)
        if let clash { raw("clash", clash ? "true" : "false") }
        out.append(UInt8(ascii: "}"))
    }

    /// `value` in decimal digits, appended to `out` (no String made per number).
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        guard value >= 0 else { return out.append(contentsOf: String(value).utf8) }
        let start = out.count
        var rest = value
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        out[start...].reverse()
    }

    /// `string(text)`, appended to `out`.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        // Most text needs no escape: checked and copied from the string's own storage.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return true
        }
        if plain == true { return }
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: string(text).utf8)
        }
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

/// A JSON array of items written to standard output as it grows, a megabyte of whole items at
/// a time (as `JSON.array` would join them): a vault's or a million-item list's items are never
/// held as one text.
struct JSONArrayWriter {
    private var out: [UInt8] = [UInt8(ascii: "[")]
    private var first = true

    init() { out.reserveCapacity(1 << 20) }

    mutating func append(_ item: TodoItem, hasID: Bool, clash: Bool? = nil) {
        if !first { out += [UInt8(ascii: ","), 0x0A] }
        first = false
        JSON.append(item, hasID: hasID, clash: clash, to: &out)
        if out.count >= 1 << 20 {
            Console.out(bytes: out)
            out.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish() {
        out += [UInt8(ascii: "]"), 0x0A]
        Console.out(bytes: out)
        out.removeAll()
    }
}
