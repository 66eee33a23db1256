#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import GitStore
import QuickStatus
import TodoModel

extension Workspace {
    /// The items of the working files as they are now (edits not yet committed included), in
    /// path and file order. Items without an id of their own yet are there too, with the id
    /// they would get now (`withoutID` names them): the next commit writes other ids.
    /// `done`: only the checked items (true) or the open ones (false); nil: all.
    ///
    /// Files whose stat is as the items cache recorded it are not read (`ItemsCache`); the
    /// answer is the same as from reading every file.
    public func items(done: Bool? = nil) throws(TodoSyncError) -> (items: [TodoItem], withoutID: Set<ItemID>) {
        var items: [TodoItem] = [], withoutID = Set<ItemID>()
        try forEachItem(done: done) { item, hasID in
            items.append(item)
            if !hasID { withoutID.insert(item.id) }
        }
        return (items, withoutID)
    }

    /// `items`, one at a time, a file's items built only when its turn comes (a vault's items
    /// are never all held at once); `hasID` false for an item without an id of its own yet.
    /// `seeingClashes` is handed every clash not yet settled, in every list, before the first
    /// item (a list holding one is never taken from the items cache: `ItemRecords.joined`);
    /// they are returned as well.
    @discardableResult
    public func forEachItem(
        done: Bool? = nil, seeingClashes: ([Clash]) -> Void = { _ in }, _ body: (TodoItem, _ hasID: Bool) -> Void
    ) throws(TodoSyncError) -> [Clash] {
        try readingPass { () throws(TodoSyncError) -> [Clash] in
            let scan = try scanForPass()
            let sources = try itemSources(scan.files, handingOn: done)
            // The records of the files read are made meanwhile, on another thread.
            defer { sources.recording?() }
            let clashes = sources.readLists.filter(\.mayHoldClashes).sorted { $0.path < $1.path }.flatMap(\.clashes)
            seeingClashes(clashes)
            guard sources.idsUnique else {
                // An id in two files (or twice in one) is the id assignment's to settle, across
                // every list: the files taken from the cache are read too (the others once).
                var documents = sources.readLists
                let read = Set(documents.map(\.path))
                for file in try readWorkingFiles(sources.kept.map(\.path).filter { !read.contains($0) })
                where try isList(file.document) {
                    documents.append(file.document)
                }
                var generator = SystemRandomNumberGenerator()
                let assigned = IDAssignment.assign(ListSet(documents), base: .empty, using: &generator)
                let withoutID = Set(assigned.writtenIDs)
                for item in assigned.lists.items(done: done).values { body(item, !withoutID.contains(item.id)) }
                return clashes
            }
            // Lists read whose items all hold ids of their own, each once, are handed on as
            // they are: the id assignment would change nothing in them.
            let whole = Set(sources.kept.map(\.path)).union(sources.complete)
            var generator = SystemRandomNumberGenerator()
            let assigned = IDAssignment.assign(
                ListSet(sources.readLists.filter { !whole.contains($0.path) }), base: .empty, using: &generator)
            let withoutID = Set(assigned.writtenIDs)
            var ordered: [(path: String, record: ArraySlice<UInt8>?)] = sources.kept.map { ($0.path, $0.record) }
            for path in assigned.lists.documents.keys { ordered.append((path, nil)) }
            let complete = Dictionary(
                uniqueKeysWithValues: sources.readLists.filter { sources.complete.contains($0.path) }.map {
                    ($0.path, $0)
                })
            for path in complete.keys { ordered.append((path, nil)) }
            ordered.sort { $0.path < $1.path }
            try Trace.phase("items: built and handed on") { () throws(TodoSyncError) in
                for (path, record) in ordered {
                    if let record {
                        guard ItemRecords.forEach(record, file: path, done: done, { body($0, true) }) != nil else {
                            // Bytes the checksum passed that are no record: never expected.
                            unlink(scratch.itemsCache)
                            throw TodoSyncError(
                                "the items cache (.git/todosync/cache/items) is damaged: what it holds of \(path) cannot be read",
                                hint: "run the command again: the cache was removed, and the files are read")
                        }
                    } else if let document = complete[path] {
                        if let recorder = sources.recorder, sources.handedOn.contains(path) {
                            // Its items of this state, built once: for this command and its record.
                            recorder.add(path, ItemRecords.part(of: document, done: done) { body($0, true) })
                        } else {
                            document.forEachItem(done: done) { body($0, true) }
                        }
                    } else if let document = assigned.lists[path] {
                        document.forEachItem(done: done) { body($0, !withoutID.contains($0.id)) }
                    }
                }
            }
            return clashes
        }
    }

    /// The lists among `paths`, each read at most once: `kept`, the records of those the items
    /// cache vouches for (their stat as recorded); `readLists`, every list read, `complete`
    /// naming those whose items all hold ids of their own, each once. Settled files read are
    /// recorded for the next time on another thread, while their items are handed on;
    /// `recording` waits for that and writes the cache (best effort).
    private struct ItemSources {
        var kept: [(path: String, record: ArraySlice<UInt8>)] = []
        var readLists: [ListDocument] = []
        var complete: Set<String> = []
        /// No id in two lists, nor twice in one.
        var idsUnique = true
        var recording: (() -> Void)?
        var recorder: ItemRecordMaker?
        /// Lists whose record waits for the items of the state asked for, as the command
        /// builds them (`ItemRecordMaker.add`); the other thread makes the rest.
        var handedOn: Set<String> = []
    }

    /// `handingOn`: the state of the items the command hands on (nil: all).
    private func itemSources(_ paths: [String], handingOn done: Bool?) throws(TodoSyncError) -> ItemSources {
        // The build's own stamp keys the cache: another build may parse otherwise.
        let program = RunningProgram.path.flatMap(FileStamp.take)?.line
        var cache = Trace.phase("read the items cache") { () -> ItemsCache? in
            guard let program, let bytes = try? FileSystem.read(scratch.itemsCache) else { return nil }
            return ItemsCache(decoding: bytes, program: program)
        }
        let wasRead = cache != nil
        if cache == nil, program != nil { cache = ItemsCache() }
        let stats = Trace.phase("stat the candidate files") { prefetchStats(paths) }
        var sources = ItemSources()
        var ids = Set<ItemID>()
        var fromCache = 0
        let recorder = cache == nil ? nil : ItemRecordMaker()
        let settled = openedAt - itemsCacheSettleTime
        try Trace.phase("items: cached or read") { () throws(TodoSyncError) in
            for (path, stat) in zip(paths, stats) {
                guard let stat else { continue }
                if let record = cache?.record(at: path, stat: stat), let summary = ItemRecords.summary(record),
                    let recordIDs = ItemRecords.ids(record)
                {
                    guard try isList(path, hasItems: summary.hasItems, hasIDs: summary.hasIDs) else { continue }
                    sources.kept.append((path, record))
                    fromCache += 1
                    for id in recordIDs where !ids.insert(id).inserted { sources.idsUnique = false }
                    continue
                }
                guard let (bytes, stat) = try FileSystem.readWithStat(root + "/" + path) else { continue }
                let document = try ListDocument.parsing(path, bytes)
                if try isList(document) {
                    sources.readLists.append(document)
                    var complete = true
                    for id in document.nodeIDs {
                        guard let id else {
                            complete = false
                            continue
                        }
                        if !ids.insert(id).inserted {
                            sources.idsUnique = false
                            complete = false
                        }
                    }
                    if complete { sources.complete.insert(path) }
                }
                // Only a file left alone long enough that a later change shows in its stat.
                if stat.isSettled(before: settled), let recorder {
                    let handedOn = sources.complete.contains(path) ? done : nil
                    recorder.record(path, stat: stat, bytes: bytes, document: document, handedOn: handedOn)
                    if handedOn != nil { sources.handedOn.insert(path) }
                }
            }
        }
        Trace.note("lists from the items cache: \(fromCache), read: \(sources.readLists.count)")
        refreshNotedMarkings()
        if let recorder, let program, let cache {
            // The cache is put together and written on the records' thread once they are made
            // (after the command handed in its parts).
            let file = scratch.itemsCache
            sources.recorder = recorder
            sources.recording = {
                recorder.finally { made in
                    var cache = cache
                    for entry in made {
                        cache.set(entry.path, stat: entry.stat, blob: entry.blob, record: entry.record)
                    }
                    Self.writeItemsCache(
                        cache, to: file, program: program, paths: paths, recorded: made.count, wasRead: wasRead)
                }
                Trace.phase("items cache: made and written") { recorder.wait() }
            }
        }
        return sources
    }

    /// Writes the cache when it was missing or damaged, or enough files were read since it was
    /// written for reading them again to cost more than writing it (a note or two edited
    /// since is read each time, as it would be without a cache). Best effort.
    private static func writeItemsCache(
        _ cache: ItemsCache, to file: String, program: String, paths: [String], recorded: Int, wasRead: Bool
    ) {
        guard !wasRead || recorded >= 32 || (recorded > 0 && recorded * 16 >= paths.count) else { return }
        var cache = cache
        cache.keepOnly(Set(paths))
        FileSystem.writeCache(file, cache.encoded(program: program))
    }

    /// The list file `given` names (a path as typed, relative to where todosync started, or
    /// from the root), relative to the root; an error naming the lists there are where it is
    /// none of them.
    public func namedList(_ given: String) throws(TodoSyncError) -> String {
        try readingPass { () throws(TodoSyncError) in
            // The file named is read, not every list (a vault holds thousands); the others only
            // to name them when it is none.
            let candidates = Set(try scanForPass().files)
            func isListFile(_ path: String) throws(TodoSyncError) -> Bool {
                guard candidates.contains(path), let bytes = try FileSystem.read(root + "/" + path) else {
                    return false
                }
                return try isList(ListDocument.parsing(path, bytes))
            }
            if try isListFile(given) { return given }
            let path = try listPath(given)
            if try isListFile(path) { return path }
            let lists = try listDocuments().map(\.path).sorted()
            throw TodoSyncError(
                "\(given) is not a list here",
                hint: lists.isEmpty
                    ? UnbornBranch.firstListHint
                    : "the lists: " + lists.prefix(20).joined(separator: ", ") + (lists.count > 20 ? ", …" : ""))
        }
    }
}

/// Item records of files read, made on another thread while their items are handed on: the
/// first `list` of a large list would otherwise build every item twice in a row. Where the
/// command hands on the items of one state, it builds them once for itself and the record
/// (`add`), and this thread builds the others.
///
/// NB: unchecked Sendable: its mutable state is touched only on its serial `queue`.
final class ItemRecordMaker: @unchecked Sendable {
    struct Made {
        var path: String
        var stat: FileStat
        var blob: OID
        var record: [UInt8]
    }

    private struct Pending {
        var stat: FileStat
        var blob: OID
        var document: ListDocument
        var parts: [ItemRecords.Part]
    }

    private let queue = DispatchQueue(label: "todosync.item-records", qos: .userInitiated)
    /// Touched on `queue` only.
    private var made: [Made] = []
    private var pending: [String: Pending] = [:]

    /// Records `document` (read from `bytes` with `stat`) unless its items cannot be recorded.
    /// `handedOn`: the state of the items the command will hand in (`add`); nil: none.
    func record(_ path: String, stat: FileStat, bytes: [UInt8], document: ListDocument, handedOn: Bool?) {
        queue.async { [self] in
            guard let blob = try? Repository.blobID(of: bytes) else { return }
            if let handedOn {
                pending[path] = Pending(
                    stat: stat, blob: blob, document: document, parts: [ItemRecords.part(of: document, done: !handedOn)]
                )
            } else if let record = ItemRecords.encode(document) {
                made.append(Made(path: path, stat: stat, blob: blob, record: record))
            }
        }
    }

    /// The part of `path`'s record the command built while handing its items on. Its ids were
    /// checked as it was read (each there, each once).
    func add(_ path: String, _ part: ItemRecords.Part) {
        queue.async { [self] in
            guard let entry = pending.removeValue(forKey: path),
                let record = ItemRecords.joined(entry.document, entry.parts + [part], idsChecked: true)
            else { return }
            made.append(Made(path: path, stat: entry.stat, blob: entry.blob, record: record))
        }
    }

    /// Runs `work` with the records made, once every record asked for is made (a record whose
    /// other part never came is left out).
    func finally(_ work: @escaping @Sendable ([Made]) -> Void) {
        queue.async { [self] in
            pending = [:]
            work(made)
            made = []
        }
    }

    /// Waits for the records and the work after them.
    func wait() {
        queue.sync {}
    }
}
