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
    /// For an occurrence of a recurring item: the occurrence whose check added this one (in the
    /// unit that added it), and the one its own check added (in the unit that checked it).
    public var previousOccurrence: TodoItem?
    public var nextOccurrence: TodoItem?
}

extension Workspace {
    /// Every commit that changed the item `query` names in HEAD's lists, newest first (as git
    /// log orders them): through renames, moves within and between files, commits made with
    /// plain git, both sides of merges, undo and redo. Read from git alone (docs/HISTORY.md).
    ///
    /// git's pickaxe finds the commits that changed the item's location (`ItemTracer`,
    /// `commitsChanging`); only those are read, their versions parsed to say what changed.
    ///
    /// `removed`: the item is one the lists no longer hold, named by its old title (or id),
    /// found where a commit removed it (`removedItem`); it is returned as it was then.
    public func history(
        of query: ItemQuery, removed: Bool = false
    ) throws(TodoSyncError) -> (item: TodoItem, steps: [ItemHistoryStep]) {
        try readingPass { () throws(TodoSyncError) -> (TodoItem, [ItemHistoryStep]) in
            guard let headCommit = try readHeadCommit() else {
                throw TodoSyncError("there is no commit yet, so no history", hint: "commit your lists first: todosync")
            }
            guard let head = try headForCommand() else {
                throw TodoSyncError("there are no lists here yet", hint: UnbornBranch.firstListHint)
            }
            var item: TodoItem
            if removed {
                item = try removedItem(query, head: headCommit, holding: head.base.lists)
            } else {
                do throws(ItemQuery.Failure) {
                    item = try query.resolve(in: head.base.lists)
                } catch {
                    throw Self.explain(.query(error), prefix: "", batch: false)
                }
            }
            var tracer = ItemTracer(workspace: self, id: item.id)
            let found = try tracer.commitsChanging(from: headCommit, file: item.file, atHead: !removed)
            var steps: [ItemHistoryStep] = []
            for commit in found {
                if let step = try tracer.step(commit) { steps.append(step) }
            }
            // Newest first by commit time, as git log orders them.
            steps = steps.enumerated().sorted { a, b in
                a.element.entry.date != b.element.entry.date
                    ? a.element.entry.date > b.element.entry.date : a.offset < b.offset
            }.map(\.element)
            if let branch = try branchReference() {
                let madeHere = try localHistory(of: branch).madeHere(among: Set(steps.map(\.entry.commit)))
                for index in steps.indices {
                    steps[index].entry.madeHere = madeHere.contains(steps[index].entry.commit)
                }
            }
            // A removed item is named as it was when it was removed.
            if removed, let last = steps.first?.changes.last(where: { $0.kind == .removed })?.item { item = last }
            if repository.isShallow {
                notice(
                    "this clone has shallow history (made with git clone --depth): the item's history ends where it does; git fetch --unshallow fetches the rest"
                )
            }
            return (item, steps)
        }
    }
}

extension Workspace {
    /// The item `query` names among those HEAD's history removed and `lists` no longer hold:
    /// git's pickaxe (`git log -i -S<words>`) finds the commits that changed how often the words
    /// occur, and those that removed a matching item are read. Several such items: an error
    /// naming them, as an ambiguous name of an item in the lists is.
    func removedItem(_ query: ItemQuery, head: Commit, holding lists: ListSet) throws(TodoSyncError) -> TodoItem {
        let wanted = query.text.lowercased()
        let hex = wanted.filter { $0 != "-" }
        let byID = hex.count >= 4 && hex.count <= 32 && hex.allSatisfy(\.isHexDigit)
        func matches(_ item: TodoItem) -> Bool {
            if byID, item.id.description.lowercased().filter({ $0 != "-" }).hasPrefix(hex) { return true }
            return item.title.lowercased().contains(wanted)
        }
        let hits = try git("searching history (git log -S)") {
            try repository.commitsChangingCount(of: query.text, from: [head.id], ignoringCase: true)
        }
        let held = lists.ids
        var found: [(item: TodoItem, commit: Commit)] = []
        var seen = Set<ItemID>()
        for hitID in hits {
            let hit = try git("reading commit \(hitID.short)") { try repository.commit(hitID) }
            for (parent, changedPaths) in try parentsAndChangedLists(of: hit) {
                let changed = Set(changedPaths)
                guard !changed.isEmpty else { continue }
                // The item as the commit left it, else as it was before it.
                for version in [try listsAt(hit.tree, changed), try listsAt(parent.tree, changed)] {
                    for item in version.items.values
                    where !held.contains(item.id) && matches(item) && seen.insert(item.id).inserted {
                        found.append((item, hit))
                    }
                }
            }
        }
        guard let first = found.first else {
            throw TodoSyncError(
                "no item the lists no longer hold matches \"\(query.text)\"",
                hint:
                    "without --removed, history looks among the items the lists hold (todosync list); git log -i -S'\(query.text)' lists the commits that changed those words"
            )
        }
        guard found.count == 1 else {
            let named = found.prefix(8).map {
                "\"\($0.item.plainTitle)\" (\($0.item.id.description.prefix(8).lowercased()), removed in \($0.commit.id.short))"
            }
            throw TodoSyncError(
                "\(found.count) removed items match \"\(query.text)\": " + named.joined(separator: ", ")
                    + (found.count > 8 ? ", …" : ""),
                hint:
                    "name one by the first digits of its id: todosync history \(first.item.id.description.prefix(8).lowercased()) --removed"
            )
        }
        return first.item
    }

    /// Each parent of `commit` this clone holds (one beyond a shallow clone's history is left
    /// out), with the paths of the lists that differ between it and `commit`.
    func parentsAndChangedLists(of commit: Commit) throws(TodoSyncError) -> [(parent: Commit, changed: [String])] {
        var found: [(parent: Commit, changed: [String])] = []
        for parentID in commit.parents {
            let parent: Commit
            do throws(TodoSyncError) {
                parent = try git("reading commit \(parentID.short)") { try repository.commit(parentID) }
            } catch  where error.isBeyondShallowHistory {
                continue
            }
            let changed = try git("comparing trees") { try repository.changedPaths(from: parent.tree, to: commit.tree) }
                .filter(selector.matches)
            found.append((parent, changed))
        }
        return found
    }

    /// The lists at `paths` in a tree, parsed.
    private func listsAt(_ tree: OID, _ paths: Set<String>) throws(TodoSyncError) -> ListSet {
        let files = try git("listing the files of tree \(tree.short)") {
            try repository.files(inTree: tree, among: paths)
        }
        var documents: [ListDocument] = []
        for file in files {
            let bytes = try git("reading \(file.path)") { try repository.blob(file.blob) }
            documents.append(try ListDocument.parsing(file.path, bytes))
        }
        return ListSet(documents)
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
            } catch  where error.isBeyondShallowHistory {
                return nil
            }
        }
        let first = parents.first ?? nil
        let selector = workspace.selector
        let changed = try git("comparing trees") {
            try workspace.repository.changedPaths(from: first?.tree, to: commit.tree)
        }.filter(selector.matches)
        guard !changed.isEmpty else { return nil }
        let after = try places(in: commit.tree, among: changed)
        let before = try places(in: first?.tree, among: changed)
        guard after != before else { return nil }
        // A merge that holds what one side held: the change is that side's own commit's.
        if parents.count > 1 {
            for parent in parents.dropFirst() {
                guard let parent else { continue }
                let paths = try git("comparing trees") {
                    try workspace.repository.changedPaths(from: parent.tree, to: commit.tree)
                }.filter(selector.matches)
                if try places(in: parent.tree, among: paths) == (try places(in: commit.tree, among: paths)) {
                    return nil
                }
            }
        }
        // Only now are the versions parsed: the files holding the item in either.
        let paths = Set(after.map(\.path) + before.map(\.path))
        let new = try lists(in: commit.tree, paths)
        let old = try lists(in: first?.tree, paths, like: new)
        let all = ListSet.changes(from: old, to: new)
        var changes = all.filter { $0.item.id == id }
        guard !changes.isEmpty else { return nil }
        let text = { (places: [Place]) in places.first.map { String(decoding: $0.lines, as: UTF8.self) } }
        var step = ItemHistoryStep(
            entry: try workspace.historyEntry(of: commit), changes: changes, before: text(before), after: text(after))
        // A recurring item's occurrences: a check that added the next one in the same unit.
        func sameChore(_ other: TodoItem, as item: TodoItem) -> Bool {
            other.id != id && other.recurrence != nil && other.recurrence == item.recurrence
                && other.plainTitle == item.plainTitle
        }
        for (index, change) in changes.enumerated() where change.item.recurrence != nil {
            switch change.kind {
            case .checked:
                step.nextOccurrence = all.first { $0.kind == .added && sameChore($0.item, as: change.item) }?.item
            case .added:
                if let previous = all.first(where: { $0.kind == .checked && sameChore($0.item, as: change.item) })?.item
                {
                    step.previousOccurrence = previous
                    changes[index] = Change(.addedNextOccurrence, change.item)
                    step.changes = changes
                }
            default:
                break
            }
        }
        return step
    }

    /// The item's places in the versions of `paths` a tree holds (none where it is not there).
    private mutating func places(in tree: OID?, among paths: [String]) throws(TodoSyncError) -> [Place] {
        guard let tree else { return [] }
        let files = try git("listing the files of tree \(tree.short)") {
            try workspace.repository.files(inTree: tree, among: Set(paths))
        }
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
    private mutating func lists(
        in tree: OID?, _ paths: Set<String>, like other: ListSet? = nil
    ) throws(TodoSyncError) -> ListSet {
        guard let tree else { return ListSet() }
        let files = try git("listing the files of tree \(tree.short)") {
            try workspace.repository.files(inTree: tree, among: paths)
        }
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

    /// The item's block (its line and the lines under it indented further) between the end
    /// of the nearest line before it that is not blank (from that line's id comment, or its
    /// last bytes) and the start of the line after it (its indentation and first mark): the
    /// text git's pickaxe looks for
    /// (`Location`). An edit of a neighbour's title leaves it as it was; the item's own
    /// edits, a note or child added at its end, and a move (another line before it) change it.
    /// A block longer than an argument may be is cut: a change further down it is then found
    /// where it moves the item or changes its first lines.
    static func locationText(of needles: [[UInt8]], in bytes: [UInt8]) -> [UInt8]? {
        guard let at = needles.lazy.compactMap({ find($0, in: bytes) }).first else { return nil }
        var lineStart = at
        while lineStart > 0, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D { lineStart -= 1 }
        let indent = indentation(bytes, from: lineStart)
        // The nearest line above that is not blank (a line end alone is in every file).
        var start = lineStart
        var lineAbove: Range<Int>?
        var cursor = lineStart
        while cursor > 0, lineAbove == nil {
            var before = cursor - 1
            if before > 0, bytes[before] == 0x0A, bytes[before - 1] == 0x0D { before -= 1 }
            while before > 0, bytes[before - 1] != 0x0A, bytes[before - 1] != 0x0D { before -= 1 }
            if bytes[before..<cursor].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
                lineAbove = before..<cursor
            }
            cursor = before
        }
        if let lineAbove {
            let line = bytes[lineAbove]
            let marker = Array("<!-- id:".utf8)
            if let comment = line.indices.last(where: { line[$0...].starts(with: marker) }) {
                start = comment
            } else {
                start = max(lineAbove.lowerBound, lineAbove.upperBound - 64)
            }
        } else {
            start = 0
        }
        var end = lineEnd(bytes, from: at)
        while end < bytes.count {
            let lineStop = lineEnd(bytes, from: end)
            let blank = bytes[end..<lineStop].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            if !blank && indentation(bytes, from: end) <= indent {
                // The line after: its indentation and its first mark; all of it where no line
                // stands above (the item first in the file: its text is found anywhere else).
                var mark = end
                while mark < lineStop, bytes[mark] == 0x20 || bytes[mark] == 0x09 { mark += 1 }
                end = lineAbove == nil ? lineStop : min(mark + 1, lineStop)
                break
            }
            if lineStop - start > maximumLocationText { break }
            end = lineStop
        }
        // NB: git takes the text as one argument: no NUL, and valid UTF-8 to pass it as a String.
        var text = Array(bytes[start..<min(end, start + maximumLocationText)])
        while let last = text.last, String(validating: text, as: UTF8.self) == nil, last & 0xC0 == 0x80 || last >= 0xC0
        { text.removeLast() }
        if text.contains(0) || String(validating: text, as: UTF8.self) == nil {
            text = Array(bytes[lineStart..<lineEnd(bytes, from: at)].prefix { $0 != 0 })
            if String(validating: text, as: UTF8.self) == nil { return needles.first }
        }
        return text
    }

    /// Beyond this a block's text is cut (an argument may be 128 KiB).
    static let maximumLocationText = 32 * 1024

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

// MARK: Finding the commits that change the item

extension ItemTracer {
    /// Where the item stands in a version of the lists, as git's pickaxe looks for it: the
    /// file and the item's block with the line before and after it. Every change to the item
    /// (its line, its notes, its place among the lines around it, its file) changes how many
    /// times that text occurs in a file.
    struct Location: Equatable {
        var path: String
        var text: [UInt8]
    }

    /// A stretch of history in which the item's location is the same at every commit until
    /// one changes it: the commits reachable from `starts` and not from `excluded`.
    private struct Stretch {
        var starts: [OID]
        var location: Location?
        var excluded: [OID]
    }

    /// The commits that may have changed the item, newest first as found, in the history of
    /// `head`: git's pickaxe finds the newest commit in a stretch where the item's location
    /// text changes; the search goes on from that commit's parents with the text each holds
    /// (the id itself where the item is not there, to find where it was removed). Commits
    /// found before (`ItemHistoryCache`) are not searched again.
    /// `file`: the list that holds the item (at `head` where `atHead`; else where it last was).
    mutating func commitsChanging(from head: Commit, file: String, atHead: Bool) throws(TodoSyncError) -> [Commit] {
        let cacheFile = workspace.scratch.itemHistoryCache(id)
        var known: [OID] = []
        var excluded: [OID] = []
        if let bytes = try? FileSystem.read(cacheFile), let cache = ItemHistoryCache(decoding: bytes, item: id),
            (try? workspace.repository.contains(cache.tip, inHistoryOf: head.id)) == true
        {
            known = cache.commits
            excluded = [cache.tip]
        }
        var found: [OID] = []
        if excluded != [head.id] {
            let headLocation = atHead ? try location(in: head.tree, among: [file]) : nil
            found = try search(
                try pieces(of: Stretch(starts: [head.id], location: headLocation, excluded: excluded), file: file))
        }
        var commits: [Commit] = []
        var seen = Set<OID>()
        for id in found + known where seen.insert(id).inserted {
            do throws(TodoSyncError) {
                commits.append(try git("reading commit \(id.short)") { try workspace.repository.commit(id) })
            } catch  where error.isBeyondShallowHistory {
                continue
            }
        }
        if excluded != [head.id] || commits.count != known.count {
            FileSystem.writeCache(
                cacheFile, ItemHistoryCache(item: id, tip: head.id, commits: commits.map(\.id)).encoded())
        }
        return commits
    }

    /// The stretches of history to search: `whole`, cut along its first-parent line into one
    /// piece a core (each piece excludes the history of the next), so that git searches them
    /// at once. A cut is made only where the item's location there is known.
    private mutating func pieces(of whole: Stretch, file: String) throws(TodoSyncError) -> [Stretch] {
        let cores = Self.cores
        guard cores > 1, let start = whole.starts.first else { return [whole] }
        let line = (try? workspace.repository.firstParentLine(from: start, excluding: whole.excluded)) ?? []
        guard line.count >= Self.commitsWorthACut * 2 else { return [whole] }
        var pieces: [Stretch] = []
        var current = whole
        for part in 1..<cores {
            let cut = line[line.count * part / cores]
            let tree = try git("reading commit \(cut.short)") { try workspace.repository.commit(cut) }.tree
            // Where the item is at the cut: in `file`, or in another list (looked for where the
            // lists are few), or nowhere yet.
            var location = try location(in: tree, among: [file])
            if location == nil {
                let lists = try git("listing the files of tree \(tree.short)") {
                    try workspace.repository.files(inTree: tree, include: workspace.selector.matches)
                }
                guard lists.count <= Self.listsLookedThroughAtACut else { continue }
                location = try self.location(in: tree, among: lists.map(\.path))
            }
            pieces.append(Stretch(starts: current.starts, location: current.location, excluded: whole.excluded + [cut]))
            current = Stretch(starts: [cut], location: location, excluded: whole.excluded)
        }
        Trace.note("history: \(line.count) first-parent commits searched in \(pieces.count + 1) pieces")
        return pieces + [current]
    }

    /// How many git searches run at once: one a core, at most four.
    private static let cores = min(4, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    /// Where the item is not in its file at a cut, the other lists are read if they are no more.
    private static let listsLookedThroughAtACut = 256
    /// A stretch shorter than twice this many first-parent commits is not cut.
    private static let commitsWorthACut = 1_000

    private mutating func search(_ first: [Stretch]) throws(TodoSyncError) -> [OID] {
        var work = Array(first.reversed())
        var done = Set<OID>()
        var found: [OID] = []
        let repository = workspace.repository
        var running: [(run: PickaxeRun, stretch: Stretch)] = []
        var searches = 0
        defer { Trace.note("history: \(searches) searches (git log -S), \(found.count) commits found") }
        while !work.isEmpty || !running.isEmpty {
            while running.count < Self.cores, let stretch = work.popLast() {
                let text = stretch.location.map { String(decoding: $0.text, as: UTF8.self) } ?? id.description
                let run = try git("searching history (git log -S)") {
                    try repository.startPickaxe(of: text, from: stretch.starts, excluding: stretch.excluded)
                }
                searches += 1
                running.append((run, stretch))
            }
            let (run, stretch) = running.remove(at: PickaxeRun.firstEnded(running.map(\.run)))
            guard let hitID = try git("searching history (git log -S)", { try run.result() }) else { continue }
            // Commits of the stretch on other lines of history than the hit's were searched
            // only as far back as the hit: they are searched again beyond it.
            // (A walk that cannot be made, as in a shallow clone, counts as holding a merge.)
            let otherLines =
                stretch.starts.count > 1
                || ((try? repository.hasMerge(from: stretch.starts, excluding: stretch.excluded + [hitID])) ?? true)
            if otherLines {
                work.append(
                    Stretch(starts: stretch.starts, location: stretch.location, excluded: stretch.excluded + [hitID]))
            }
            guard done.insert(hitID).inserted else { continue }
            found.append(hitID)
            let hit = try git("reading commit \(hitID.short)") { try repository.commit(hitID) }
            // The location in each parent; parents holding the same go on together.
            var groups: [(location: Location?, parents: [OID])] = []
            for (parent, changed) in try workspace.parentsAndChangedLists(of: hit) {
                let parentID = parent.id
                let location: Location?
                if let here = stretch.location, !changed.contains(here.path) {
                    location = here
                } else {
                    location = try self.location(in: parent.tree, among: changed)
                }
                if let index = groups.firstIndex(where: { $0.location == location }) {
                    groups[index].parents.append(parentID)
                } else {
                    groups.append((location, [parentID]))
                }
            }
            // The first parent's line goes on into the history the parents share; the others
            // are searched only where they are not the first's.
            for (index, group) in groups.enumerated() {
                let excluded = index == 0 ? stretch.excluded : stretch.excluded + groups[0].parents
                work.append(Stretch(starts: group.parents, location: group.location, excluded: excluded))
            }
        }
        return found
    }

    /// The item's location in a tree, looked for in the lists at `paths`.
    mutating func location(in tree: OID, among paths: [String]) throws(TodoSyncError) -> Location? {
        guard !paths.isEmpty else { return nil }
        let files = try git("listing the files of tree \(tree.short)") {
            try workspace.repository.files(inTree: tree, among: Set(paths))
        }
        for file in files.sorted(by: { $0.path < $1.path }) {
            let bytes = try blob(file.blob, path: file.path)
            if let text = Self.locationText(of: needles, in: bytes) { return Location(path: file.path, text: text) }
        }
        return nil
    }
}
