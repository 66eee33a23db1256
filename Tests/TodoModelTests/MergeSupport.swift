import TestSupport
@testable import TodoModel

/// The id `^name` stands for.
func shortID(_ name: String) -> ItemID {
    // NB: shortIDText always gives a well-formed UUID.
    ItemID(parsing: shortIDText(name))!
}

func lists(_ files: [String: String]) -> ListSet {
    ListSet(files.map { ListDocument(path: $0.key, bytes: Array(withIDs($0.value).utf8)) })
}

/// Merges files given as text; returns the merged files as text (ids as `^name`) and the reports.
func mergeTexts(
    base: [String: String], ours: [String: String], theirs: [String: String]
) -> (files: [String: String], reports: [MergeReport]) {
    let outcome = ListMerge.merge(base: lists(base), ours: lists(ours), theirs: lists(theirs))
    var files: [String: String] = [:]
    for (path, document) in outcome.lists.documents {
        files[path] = withShortIDs(String(decoding: document.render(), as: UTF8.self))
    }
    return (files, outcome.reports)
}

func mergeTexts(base: String, ours: String, theirs: String) -> (text: String, reports: [MergeReport]) {
    let result = mergeTexts(base: ["TODO.md": base], ours: ["TODO.md": ours], theirs: ["TODO.md": theirs])
    return (result.files["TODO.md"] ?? "<no file>", result.reports)
}
