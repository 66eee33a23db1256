@testable import TodoModel

/// Test shorthand: `^a` at the end of an item line stands for a fixed id comment, so cases read
/// like the files they stand for.
func withIDs(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let caret = rest.firstIndex(of: "^") {
        result += rest[..<caret]
        let name = rest[rest.index(after: caret)...].prefix { $0.isLetter || $0.isNumber }
        result += "<!-- id: \(shortID(String(name))) -->"
        rest = rest[rest.index(caret, offsetBy: name.count + 1)...]
    }
    return result + rest
}

/// The id `^name` stands for.
func shortID(_ name: String) -> ItemID {
    var low: UInt64 = 0x8000_0000_0000_0000
    for byte in name.utf8 { low = low &* 31 &+ UInt64(byte) }
    return ItemID(high: 0x4000, low: low & ~0x4000_0000_0000_0000 | 0x8000_0000_0000_0000)
}

/// Writes ids back as `^name` (for the names used in `names`).
func withShortIDs(_ text: String, names: [String]) -> String {
    var result = text
    for name in names { result = result.replacingAll("<!-- id: \(shortID(name)) -->", with: "^\(name)") }
    return result
}

func lists(_ files: [String: String]) -> ListSet {
    ListSet(files.map { ListDocument(path: $0.key, bytes: Array(withIDs($0.value).utf8)) })
}

/// Merges files given as text; returns the merged files as text (ids as `^name`) and the reports.
func mergeTexts(
    base: [String: String], ours: [String: String], theirs: [String: String]
) -> (files: [String: String], reports: [MergeReport]) {
    let names = Set((Array(base.values) + Array(ours.values) + Array(theirs.values)).flatMap(shortNames))
    let outcome = ListMerge.merge(base: lists(base), ours: lists(ours), theirs: lists(theirs))
    var files: [String: String] = [:]
    for (path, document) in outcome.lists.documents {
        files[path] = withShortIDs(String(decoding: document.render(), as: UTF8.self), names: Array(names))
    }
    return (files, outcome.reports)
}

func mergeTexts(base: String, ours: String, theirs: String) -> (text: String, reports: [MergeReport]) {
    let result = mergeTexts(base: ["TODO.md": base], ours: ["TODO.md": ours], theirs: ["TODO.md": theirs])
    return (result.files["TODO.md"] ?? "<no file>", result.reports)
}

private func shortNames(_ text: String) -> [String] {
    var names: [String] = []
    var rest = Substring(text)
    while let caret = rest.firstIndex(of: "^") {
        let name = rest[rest.index(after: caret)...].prefix { $0.isLetter || $0.isNumber }
        names.append(String(name))
        rest = rest[rest.index(after: caret)...]
    }
    return names
}
