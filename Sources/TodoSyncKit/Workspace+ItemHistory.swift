#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import TodoModel

/// One unit in an item's history: the commit and what it did to the item.
public struct ItemHistoryStep {
    public var entry: HistoryEntry
    /// The item's changes in words, against the commit's first parent (a merge is listed only
    /// where it made of the item what neither side held: a clash, or both sides' changes).
    public var changes: [Change]
    /// The item's lines before and after the commit (nil: not there).
    public var before: String?
    public var after: String?
}

extension Workspace {
    /// Every commit that changed the item `query` names in HEAD's lists, newest first (as git
    /// log orders them): through renames, moves within and between files, commits made with
    /// plain git, both sides of merges, undo and redo. Read from git alone (docs/HISTORY.md).
    ///
    /// Each commit is looked at as `git log -S` looks at it: the lists it changed are searched
    /// for the item's id, and only where the item's lines, file or place differ are the two
    /// versions parsed to say what changed.
    public func history(of query: ItemQuery) throws(TodoSyncError) -> (item: TodoItem, steps: [ItemHistoryStep]) {
        try readingPass { () throws(TodoSyncError) -> (TodoItem, [ItemHistoryStep]) in
            guard let headCommit = try readHeadCommit() else {
                throw TodoSyncError("there is no commit yet, so no history", hint: "commit your lists first: todosync")
            }
            guard let head = try headForCommand() else { throw TodoSyncError("there are no lists here yet", hint: UnbornBranch.firstListHint) }
            let item: TodoItem
            do throws(ItemQuery.Failure) {
                item = try query.resolve(in: head.base.lists)
            } catch {
                throw Self.explain(.query(error), prefix: "", batch: false)
            }
            var tracer = ItemTracer(workspace: self, id: item.id)
            var steps: [ItemHistoryStep] = []
            var walk = CommitWalk(workspace: self, from: headCommit.id)
            while let commit = try walk.next() {
                guard let step = try tracer.step(commit) else { continue }
                steps.append(step)
            }
            if let branch = try branchReference() {
                let madeHere = try localHistory(of: branch).madeHere(among: Set(steps.map(\.entry.commit)))
                for index in steps.indices { steps[index].entry.madeHere = madeHere.contains(steps[index].entry.commit) }
            }
            if walk.endsInShallowHistory {
                notice("this clone has shallow history (made with git clone --depth): the item's history ends where it does; git fetch --unshallow fetches the rest")
            }
            return (item, steps)
        }
    }
}

/// Follows one item through commits: where it stands in a version of some lists, and what a
/// commit did to it.
struct ItemTracer {
    let workspace: Workspace
    let id: ItemID
    /// The id as todosync writes it, and lower-cased (as a hand may have typed it).
    private let needles: [[UInt8]]
    /// Blobs read lately, by id: a commit's version of a list is its child's parent version.
    private var blobs: [OID: [UInt8]] = [:]
    private var blobOrder: [OID] = []

    init(workspace: Workspace, id: ItemID) {
        self.workspace = workspace
        self.id = id
        let text = id.description
        needles = [Array(text.utf8), Array(text.lowercased().utf8)]
    }

    /// Where the item stands in one version of a file: its lines, and the ids of the item it
    /// is nested under and of the one before it at its depth (a move changes one of them).
    struct Place: Equatable {
        var path: String
        var lines: [UInt8]
        var parent: [UInt8]?
        var previous: [UInt8]?
    }

    /// What `commit` did to the item, or nil when it did nothing to it.
    mutating func step(_ commit: Commit) throws(TodoSyncError) -> ItemHistoryStep? {
        let parents = try commit.parents.map { (id) throws(TodoSyncError) -> Commit? in
            do throws(TodoSyncError) {
                return try git("reading commit \(id.short)") { try workspace.repository.commit(id) }
            } catch where error.isBeyondShallowHistory {
                return nil
            }
        }
        let first = parents.first ?? nil
        let selector = workspace.selector
        let changed = try git("comparing trees") { try workspace.repository.changedPaths(from: first?.tree, to: commit.tree) }.filter(selector.matches)
        guard !changed.isEmpty else { return nil }
        let after = try places(in: commit.tree, among: changed)
        let before = try places(in: first?.tree, among: changed)
        guard after != before else { return nil }
        // A merge that holds what one side held: the change is that side's own commit's.
        if parents.count > 1 {
            for parent in parents.dropFirst() {
                guard let parent else { continue }
                let paths = try git("comparing trees") { try workspace.repository.changedPaths(from: parent.tree, to: commit.tree) }.filter(selector.matches)
                if try places(in: parent.tree, among: paths) == (try places(in: commit.tree, among: paths)) { return nil }
            }
        }
        // Only now are the versions parsed: the files holding the item in either.
        let paths = Set(after.map(\.path) + before.map(\.path))
        let new = try lists(in: commit.tree, paths)
        let old = try lists(in: first?.tree, paths, like: new)
        let changes = ListSet.changes(from: old, to: new).filter { $0.item.id == id }
        guard !changes.isEmpty else { return nil }
        let text = { (places: [Place]) in places.first.map { String(decoding: $0.lines, as: UTF8.self) } }
        return ItemHistoryStep(entry: try workspace.historyEntry(of: commit), changes: changes, before: text(before), after: text(after))
    }

    /// The item's places in the versions of `paths` a tree holds (none where it is not there).
    private mutating func places(in tree: OID?, among paths: [String]) throws(TodoSyncError) -> [Place] {
        guard let tree else { return [] }
        let files = try git("listing the files of tree \(tree.short)") { try workspace.repository.files(inTree: tree, among: Set(paths)) }
        var found: [Place] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let bytes = try blob(file.blob, path: file.path)
            if let place = Self.place(of: needles, in: bytes, path: file.path) { found.append(place) }
        }
        return found
    }

    /// The lists at `paths` in a tree, parsed (their blobs are the ones just searched, read
    /// once: libgit2 checks each object's hash as it reads it); `like`: another version, whose
    /// parse is taken where the lines agree.
    private mutating func lists(in tree: OID?, _ paths: Set<String>, like other: ListSet? = nil) throws(TodoSyncError) -> ListSet {
        guard let tree else { return ListSet() }
        let files = try git("listing the files of tree \(tree.short)") { try workspace.repository.files(inTree: tree, among: paths) }
        var documents: [ListDocument] = []
        for file in files {
            let bytes = try blob(file.blob, path: file.path)
            documents.append(try ListDocument.parsing(file.path, bytes, reusing: other?[file.path]))
        }
        return ListSet(documents)
    }

    private mutating func blob(_ id: OID, path: String) throws(TodoSyncError) -> [UInt8] {
        if let bytes = blobs[id] { return bytes }
        let bytes = try git("reading \(path)") { try workspace.repository.blob(id) }
        blobs[id] = bytes
        blobOrder.append(id)
        if blobOrder.count > 8 { blobs.removeValue(forKey: blobOrder.removeFirst()) }
        return bytes
    }

    /// The item's place in a file's bytes: the line holding its id comment, the lines under it
    /// indented further (its notes and children), and the nearest lines above that hold an id
    /// at a smaller indentation (its parent) and at its own (the one before it). Found without
    /// parsing: the parse comes only where two versions' places differ.
    static func place(of needles: [[UInt8]], in bytes: [UInt8], path: String) -> Place? {
        guard let at = needles.lazy.compactMap({ find($0, in: bytes) }).first else { return nil }
        var start = at
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        let indent = indentation(bytes, from: start)
        var end = lineEnd(bytes, from: at)
        var next = end
        // Notes and children: blank lines and lines indented further.
        while next < bytes.count {
            let lineStop = lineEnd(bytes, from: next)
            let line = bytes[next..<lineStop]
            let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            if !blank, indentation(bytes, from: next) <= indent { break }
            next = lineStop
            if !blank { end = lineStop }
        }
        // Above it: the nearest line with an id at a smaller indentation (its parent), and the
        // nearest line at its own (the one before it, or the text before it: an empty id).
        var parent: [UInt8]?, previous: [UInt8]?
        var cursor = start
        while cursor > 0, parent == nil, !(indent == 0 && previous != nil) {
            let lineStop = cursor
            var lineStart = cursor - 1
            while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
            cursor = lineStart
            let line = bytes[lineStart..<lineStop]
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { continue }
            let depth = indentation(bytes, from: lineStart)
            if depth < indent {
                parent = idComment(in: line) ?? []
            } else if depth == indent, previous == nil {
                previous = idComment(in: line) ?? []
            }
        }
        return Place(path: path, lines: Array(bytes[start..<end]), parent: parent, previous: previous)
    }

    /// Where `needle` first stands in `bytes`: its first byte found by memchr, the rest compared.
    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { wanted -> Int? in
                guard let base = haystack.baseAddress, let rest = wanted.baseAddress else { return nil }
                var offset = 0
                let last = haystack.count - wanted.count
                while offset <= last, let hit = memchr(base + offset, Int32(first), last - offset + 1) {
                    let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + at, rest, wanted.count) == 0 { return at }
                    offset = at + 1
                }
                return nil
            }
        }
    }

    private static func lineEnd(_ bytes: [UInt8], from index: Int) -> Int {
        var end = index
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        if end < bytes.count, bytes[end] == 0x0D { end += 1 }
        if end < bytes.count, bytes[end] == 0x0A { end += 1 }
        return end
    }

    private static func indentation(_ bytes: [UInt8], from start: Int) -> Int {
        var columns = 0, index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 {
            columns += bytes[index] == 0x09 ? 4 - columns % 4 : 1
            index += 1
        }
        return columns
    }

    /// The text of an id comment in a line, if it holds one (`id:` and what follows, to `-->`).
    private static func idComment(in line: ArraySlice<UInt8>) -> [UInt8]? {
        let marker = Array("<!-- id:".utf8)
        guard let at = line.indices.first(where: { line[$0...].starts(with: marker) }) else { return nil }
        let rest = line[(at + marker.count)...]
        return Array(rest.prefix(40))
    }
}
