import GitStore
import TodoModel

/// One first-parent commit as the undo history sees it.
public struct HistoryEntry: Sendable {
    public var commit: OID
    public var summary: String
    /// When it was committed (seconds since 1970).
    public var date: Int64
    /// Who made the change, and when (`git log`'s author).
    public var author: Signature
    /// Whether this clone made it (its reflog of the branch says so), or it came in by a sync,
    /// a pull or the clone.
    public var madeHere = false
    /// A merge (of another clone's work, or a sync's).
    public var isMerge: Bool
    /// What the commit is: unit, undo, redo or none (see `UndoStack.Entry`).
    var entry: UndoStack.Entry
    /// The trailer's kind (`edit`, `command`, `batch`, `sync`, `undo`, `redo`), or `git` for a
    /// commit made without todosync.
    public var kind: String
    var parent: OID?
}

/// Which units `log` shows (nil: any): an author's (part of the name or e-mail, any case),
/// made on or after `since` and on or before `until` (the author's own day), changing `file`.
public struct LogFilter: Sendable {
    public var author: String?
    public var since: CalendarDate?
    public var until: CalendarDate?
    public var file: String?

    public init(author: String? = nil, since: CalendarDate? = nil, until: CalendarDate? = nil, file: String? = nil) {
        (self.author, self.since, self.until, self.file) = (author, since, until, file)
    }
}

extension HistoryEntry {
    /// When the author made it, in ISO 8601 in the author's time zone: `2026-11-24T09:00:00+01:00`.
    public var authorDate: String {
        let local = author.time + Int64(author.offsetMinutes) * 60
        let days = Int((local - ((local % 86_400) + 86_400) % 86_400) / 86_400)
        let seconds = Int(local - Int64(days) * 86_400)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let offset = abs(Int(author.offsetMinutes))
        let sign = author.offsetMinutes < 0 ? "-" : "+"
        return
            "\(CalendarDate(daysSinceEpoch: days))T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
            + "\(sign)\(two(offset / 60)):\(two(offset % 60))"
    }
}

/// First-parent history from HEAD, newest first, read one commit at a time as it is asked for.
/// A read error ends the sequence and is kept in `failure`; so does the end of a shallow
/// clone's history, which is no failure (`endsInShallowHistory`).
final class FirstParentHistory: Sequence, IteratorProtocol {
    private let workspace: Workspace
    private var upcoming: OID?
    private(set) var failure: TodoSyncError?
    private(set) var endsInShallowHistory = false

    init(_ workspace: Workspace, from head: OID?) {
        self.workspace = workspace
        upcoming = head
    }

    func next() -> HistoryEntry? {
        guard let id = upcoming, failure == nil else { return nil }
        do {
            let entry = try workspace.historyEntry(id)
            upcoming = entry.parent
            return entry
        } catch  where error.isBeyondShallowHistory {
            endsInShallowHistory = true
            upcoming = nil
            return nil
        } catch {
            failure = error
            return nil
        }
    }
}

extension Workspace {
    /// What one commit is to the undo history, from its trailers; for a commit without them,
    /// whether it changed a list file since its first parent.
    func historyEntry(_ id: OID) throws(TodoSyncError) -> HistoryEntry {
        try historyEntry(of: try git("reading commit \(id.short)") { try repository.commit(id) })
    }

    func historyEntry(of commit: Commit) throws(TodoSyncError) -> HistoryEntry {
        let id = commit.id
        let trailers = Self.trailers(commit.message)
        let date = commit.committer.time
        let entry: UndoStack.Entry
        let kind: String
        switch trailers[UnitTrailer.key] {
        case UnitTrailer.Kind.adopt.rawValue?:
            (entry, kind) = (.none, "adopt")
        case UnitTrailer.Kind.undo.rawValue?:
            (entry, kind) = (trailers[UnitTrailer.undoesKey].map { .undo(of: $0) } ?? .none, "undo")
        case UnitTrailer.Kind.redo.rawValue?:
            (entry, kind) = (trailers[UnitTrailer.redoesKey].map { .redo(of: $0) } ?? .none, "redo")
        case let value?:
            (entry, kind) = (.unit, value)
        case nil:
            (entry, kind) = (try changesLists(commit) ? .unit : .none, "git")
        }
        return HistoryEntry(
            commit: id, summary: commit.summary, date: date, author: commit.author, isMerge: commit.parents.count > 1,
            entry: entry, kind: kind, parent: commit.parents.first)
    }

    /// Whether a commit changed a list file (by blob) since its first parent: a file that is a
    /// list on either side (a plain commit that only edits a changelog is no unit).
    private func changesLists(_ commit: Commit) throws(TodoSyncError) -> Bool {
        let selector = self.selector
        let mine = try git("listing files") { try repository.files(inTree: commit.tree, include: selector.matches) }
        var theirs: [TreeFile] = []
        if let parentID = commit.parents.first {
            do {
                let parent = try git("reading commit \(parentID.short)") { try repository.commit(parentID) }
                theirs = try git("listing files") {
                    try repository.files(inTree: parent.tree, include: selector.matches)
                }
            } catch  where error.isBeyondShallowHistory {
                // The first commit of a shallow clone: what it changed is beyond the history here.
            }
        }
        var before: [String: OID] = [:]
        for file in theirs { before[file.path] = file.blob }
        var changed: [(path: String, blobs: [OID])] = []
        for file in mine {
            let old = before.removeValue(forKey: file.path)
            if old != file.blob { changed.append((file.path, [file.blob] + (old.map { [$0] } ?? []))) }
        }
        for (path, blob) in before { changed.append((path, [blob])) }
        for (path, blobs) in changed {
            // What the name or gitattributes settle needs no reading.
            let marking = try marking(of: path)
            if marking == .unmarked { continue }
            if ListFileSelector.isNamedTODO(path) { return true }
            for blob in blobs {
                let bytes = try git("reading \(path)") { try repository.blob(blob) }
                if selector.isList(try ListDocument.parsing(path, bytes), marking: marking) { return true }
            }
        }
        return false
    }

    /// `Key: value` lines of a message's last paragraph.
    static func trailers(_ message: String) -> [String: String] {
        let paragraphs = message.split(separator: "\n\n", omittingEmptySubsequences: true)
        guard let last = paragraphs.last else { return [:] }
        var result: [String: String] = [:]
        for line in last.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[String(line[..<colon])] = line[line.index(after: colon)...].trimmingSpaces()
        }
        return result
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
    }
}
