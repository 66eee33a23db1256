import GitStore

/// A note in the git directory that one commit's lists were read and found in order: every item
/// has an id of its own, no id is used twice, no file drew a warning. While HEAD is still that
/// commit, the same files are lists, and git's index vouches for each of them (its stat still
/// matches), "nothing changed" is known without reading or parsing a list.
///
/// A cache, never the truth: a note that is missing, damaged or about another commit only means
/// the files are read and compared again.
struct CheckedHead: Equatable {
    var commit: OID
    var selector: ListFileSelector
    /// Each list file of the commit that holds items, and its blob.
    var blobs: [String: OID]

    static let fileName = "todosync-checked-head"
    /// Raised whenever what counts as "in order" changes, so older notes are not trusted.
    static let format = "todosync checked-head 1"

    /// One record per line; nil if a pattern or path would need a line break (never written).
    func encoded() -> [UInt8]? {
        var lines = [Self.format, "commit " + commit.description]
        lines += selector.include.map { "include " + $0 }
        lines += selector.exclude.map { "exclude " + $0 }
        lines += blobs.sorted { $0.key < $1.key }.map { "blob \($0.value) \($0.key)" }
        guard !lines.contains(where: { $0.contains("\n") }) else { return nil }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    init(commit: OID, selector: ListFileSelector, blobs: [String: OID]) {
        self.commit = commit
        self.selector = selector
        self.blobs = blobs
    }

    init?(decoding bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == Self.format, lines.last == "", lines[1].hasPrefix("commit "),
            let commit = OID(hex: String(lines[1].dropFirst(7)))
        else { return nil }
        var include: [String] = [], exclude: [String] = [], blobs: [String: OID] = [:]
        for line in lines[2...].dropLast() {
            let (key, rest) = (line.prefix { $0 != " " }, line.drop { $0 != " " }.dropFirst())
            switch key {
            case "include": include.append(String(rest))
            case "exclude": exclude.append(String(rest))
            case "blob":
                guard let blob = OID(hex: String(rest.prefix(40))), rest.dropFirst(40).first == " " else { return nil }
                blobs[String(rest.dropFirst(41))] = blob
            default: return nil
            }
        }
        self.init(commit: commit, selector: ListFileSelector(include: include, exclude: exclude), blobs: blobs)
    }
}

extension Workspace {
    var checkedHeadPath: String { repository.gitDirectory + CheckedHead.fileName }

    /// The note for HEAD, if there is one and it was made with today's file selection.
    func readCheckedHead(commit: OID) -> CheckedHead? {
        guard let bytes = try? FileSystem.read(checkedHeadPath), let note = CheckedHead(decoding: bytes),
            note.commit == commit, note.selector == selector
        else { return nil }
        return note
    }

    /// Records that `commit`'s lists were found in order. Best effort: it is only a cache.
    func recordCheckedHead(commit: OID, blobs: [String: OID]) {
        guard let bytes = CheckedHead(commit: commit, selector: selector, blobs: blobs).encoded() else { return }
        FileSystem.writeCache(checkedHeadPath, bytes)
    }
}
