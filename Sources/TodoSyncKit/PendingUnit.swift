import GitStore
import TodoModel

/// What the working tree holds that the last commit does not: the next undo unit.
public struct PendingUnit {
    /// Item by item, in words.
    public var changes: [Change]
    /// Items that need an id written into their line.
    public var idsToWrite: Int
    /// Ids written for items the last commit already had (adopted from plain git, repaired).
    public var idsAdopted: Int
    /// Warnings about the files (duplicate ids, damaged ids, invalid UTF-8).
    public var diagnostics: [Diagnostic]
    /// List files whose bytes differ from the last commit (ids included).
    public var changedPaths: [String]

    var head: HeadSnapshot
    var working: WorkingSnapshot
    var assigned: IDAssignment.Result
    /// For each path that changed since HEAD or gets ids written, the bytes it will hold (nil:
    /// the file is gone). Rendered once: a list file can be megabytes.
    var finalBytes: [String: [UInt8]?]
    /// Where the list files were looked for: what a clean-state note stamps.
    var scan = CandidateScan()
    /// Edited files being stored as blobs, as read, while the unit was worked out (`pending(storingBlobsAhead:)`).
    var blobsStoredAhead: [String: BlobWrite] = [:]
    /// The files read name an id that HEAD's versions of them lack and the unit did not write.
    var namesIDsFromElsewhere = false
    /// Changed lists a commit refuses (binary bytes, a conflict block), also in `diagnostics`.
    public var blockers: [Diagnostic] = []
    /// The candidate files read and parsed, as read, when they are a few (a sync's merge
    /// takes them as ours): a whole vault's notes, read when nothing vouched for them, are not
    /// kept through the fetch for the few the merge reads.
    var filesRead: [WorkingFile] = []
    static let filesReadKept = 64
    /// Every clash not yet settled in the lists. A list holding one is never vouched for
    /// unread (the checked-head note leaves it out), so each pass reads it and finds them.
    public var clashes: [Clash] = []

    /// Gives up what the unit read and worked out (HEAD's lists, the working lists, the
    /// bytes to write), keeping its account (changes, counts, warnings, paths) for a caller
    /// that reports it after the commit: for a large list these are hundreds of megabytes
    /// that the rest of a command (a sync's merge) needs for itself. Returns `filesRead`.
    mutating func releaseReads() -> [WorkingFile] {
        defer {
            head = HeadSnapshot(commit: nil, base: .empty, files: [:])
            working = WorkingSnapshot(lists: ListSet(), readBytes: [:])
            assigned = .unchanged
            finalBytes = [:]
            blobsStoredAhead = [:]
            filesRead = []
        }
        return filesRead
    }

    /// The ids the commit would write: items that have none in their line yet.
    public var idsNotYetWritten: Set<ItemID> { Set(assigned.writtenIDs) }

    /// Nothing to commit: every list file holds what the last commit holds.
    public var isEmpty: Bool { changedPaths.isEmpty }

    /// Whether the unit only writes ids: no item changed, and every file it commits held what
    /// HEAD holds when it was read (items committed without ids, by plain git). Anything typed,
    /// prose included, makes it an editing session.
    var onlyWritesIDs: Bool {
        changes.isEmpty
            && changedPaths.allSatisfy { path in sameBytes(working.readBytes[path] ?? nil, head.files[path]?.bytes) }
    }
}

extension Workspace {
    /// Reads the last commit and the working tree and works out the next unit. Writes no list and
    /// no object; only the checked-head note (a cache in the git directory) when all is in order.
    public func pending() throws(TodoSyncError) -> PendingUnit {
        try pending(storingBlobsAhead: false)
    }

    /// `pending()` for a unit about to be committed: each edited list file of HEAD whose items
    /// all carry ids (so it is most likely committed exactly as read) is stored as a blob on a
    /// second thread meanwhile (`BlobWrite`), as `git add` would store it; a write not needed
    /// (ids were written after all) is stopped. Writes nothing that anything refers to.
    /// `shortcuts`: "nothing changed" may be answered without reading HEAD (then the unit
    /// names no HEAD commit).
    func pending(storingBlobsAhead: Bool, shortcuts: Bool = true) throws(TodoSyncError) -> PendingUnit {
        try readingPass { () throws(TodoSyncError) in
            try pendingInPass(storingBlobsAhead: storingBlobsAhead, shortcuts: shortcuts)
        }
    }

    private func pendingInPass(storingBlobsAhead: Bool, shortcuts: Bool) throws(TodoSyncError) -> PendingUnit {
        let scan = try scanForPass()
        for name in scan.namesNotUTF8 {
            notice(
                "\(FileSystem.quoted(name)): the file name is not valid UTF-8, so todosync does not read it as a list; rename it (a UTF-8 name) to keep it with the lists"
            )
        }
        var unit = try pending(scan.files, storingBlobsAhead: storingBlobsAhead, shortcuts: shortcuts)
        unit.scan = scan
        return unit
    }

    private func pending(
        _ paths: [String], storingBlobsAhead: Bool, shortcuts: Bool
    ) throws(TodoSyncError) -> PendingUnit {
        // Read once: the checked note, the blob writes and the comparison with HEAD all ask it.
        let stamps = try Trace.phase("read git's index") { () throws(TodoSyncError) in
            try git("reading git's index") { try repository.indexStamps(for: paths) }
        }
        guard let headCommit = try readHeadCommit() else {
            return try pending(
                paths, headTree: nil, stamps: stamps, storingBlobsAhead: storingBlobsAhead, shortcuts: shortcuts)
        }
        // Work proportional to the change: where HEAD's lists are known in order and git's index
        // vouches for a file, it holds HEAD's blob; only the others are read, with HEAD's
        // versions of them (looked up by path, not found by a walk of HEAD's whole tree). A
        // unit that then names an id HEAD's versions of those files lack (pasted from a file
        // not read) is worked out again from every file.
        if shortcuts, PathOrder.isStrictlySorted(paths), let (note, changedSince) = try noteCarried(to: headCommit) {
            let stats = Trace.phase("stat the candidate files") { prefetchStats(paths) }
            let narrowed = Trace.phase("files the note and git's index do not vouch for") {
                narrowing(paths, stats: stats, note: note, stamps: stamps, changedSince: changedSince)
            }
            if !narrowed.readsNotedList, try readNoList(narrowed.read) { return .nothingChanged(diagnostics: []) }
            let read = Set(narrowed.read)
            let headTree = HeadTree(
                commit: headCommit,
                files: try Trace.phase("read HEAD's tree (the files read)") { () throws(TodoSyncError) in
                    try candidateFiles(inTree: headCommit.tree, among: read)
                })
            // A note recorded in this pass names the files not read as well.
            pass?.vouched = narrowed.vouched
            let unit = try pending(
                paths.filter(read.contains), headTree: headTree, stamps: stamps, storingBlobsAhead: storingBlobsAhead,
                shortcuts: shortcuts)
            guard unit.namesIDsFromElsewhere else { return unit }
            pass?.vouched = []
            pass?.readPlain = [:]
        }
        let headTree = HeadTree(
            commit: headCommit,
            files: try Trace.phase("read HEAD's tree") { () throws(TodoSyncError) in
                try candidateFiles(inTree: headCommit.tree, among: nil)
            })
        return try pending(
            paths, headTree: headTree, stamps: stamps, storingBlobsAhead: storingBlobsAhead, shortcuts: shortcuts)
    }

    /// Which candidate files to read, given the note for HEAD: all but the files it names whose
    /// stat git's index vouches for, with their blob as noted; plus the noted lists that are no
    /// longer candidates (removed). One pass over the candidates and the note, both in
    /// `PathOrder`, with the stats and index entries taken position by position.
    /// `changedSince`: the files HEAD holds otherwise than the note's commit (read as well).
    private func narrowing(
        _ paths: [String], stats: [FileStat?], note: CheckedHead, stamps: IndexStamps, changedSince: Set<String>
    ) -> Narrowing {
        var result = Narrowing()
        result.vouched.reserveCapacity(note.files.count)
        let files = note.files
        var next = 0
        func passOver(_ file: NotedFile) {
            // A noted list that is no longer a candidate is read: gone, or left out now.
            guard file.isList else { return }
            result.read.append(file.path)
            result.readsNotedList = true
        }
        for (position, path) in paths.enumerated() {
            var order = 1
            while next < files.count {
                order = PathOrder.compare(files[next].path, path)
                guard order < 0 else { break }
                passOver(files[next])
                next += 1
            }
            guard next < files.count, order == 0 else {
                result.read.append(path)
                continue
            }
            let file = files[next]
            next += 1
            if let stat = stats[position], stamps.blob(at: position, stat: stat) == file.blob,
                changedSince.isEmpty || !changedSince.contains(path)
            {
                result.vouched.append(file)
            } else {
                result.read.append(path)
                if file.isList { result.readsNotedList = true }
            }
        }
        while next < files.count {
            passOver(files[next])
            next += 1
        }
        return result
    }

    /// The checked-head note, if it is for HEAD or can be carried to it, and the files it does
    /// not vouch for then. A note for another commit (HEAD moved by plain git: a commit, a pull,
    /// an Obsidian git plugin) still holds for every file the two commits hold alike; the files
    /// they differ in are read. Carried only when HEAD's versions of those files name no id
    /// their noted versions lack: an id copied there from a file not read would go unseen.
    private func noteCarried(to head: Commit) throws(TodoSyncError) -> (CheckedHead, Set<String>)? {
        guard let note = readCheckedNote() else { return nil }
        if note.commit == head.id { return (note, []) }
        guard let noted = try? repository.commit(note.commit) else { return nil }
        return try Trace.phase("carry the note from \(note.commit.short)") {
            () throws(TodoSyncError) -> (CheckedHead, Set<String>)? in
            let changed = try changedCandidates(from: noted.tree, to: head.tree)
            // Much changed (another branch checked out): reading every file costs no more.
            guard changed.count <= max(64, note.files.count / 8) else { return nil }
            var before = Set<ItemID>()
            for path in changed {
                guard let position = NotedFile.position(of: path, in: note.files), note.files[position].isList else {
                    continue
                }
                let bytes = try committedBytes(note.files[position].blob, at: path)
                for case let id? in try ListDocument.parsing(path, bytes).nodeIDs { before.insert(id) }
            }
            for file in try candidateFiles(inTree: head.tree, among: changed) {
                let document = try ListDocument.parsing(file.path, try committedBytes(file.blob, at: file.path))
                guard document.nodeIDs.allSatisfy({ $0.map(before.contains) ?? true }) else { return nil }
            }
            return (note, changed)
        }
    }

    /// Whether none of these candidate files (none of them a noted list) holds a list now.
    private func readNoList(_ paths: [String]) throws(TodoSyncError) -> Bool {
        for path in paths {
            guard let bytes = try FileSystem.read(root + "/" + path) else { continue }
            if try isList(ListDocument.parsing(path, bytes)) { return false }
        }
        return true
    }

    /// Starts reading HEAD's version of each large list about to be read whose stat git's
    /// index does not vouch for (most likely the edit): inflated and checked on another thread
    /// while the working files are read and parsed (`committedBytes` takes it).
    private func readHeadBlobsAhead(of paths: [String], headTree: HeadTree?, stamps: IndexStamps) {
        guard let headTree, pass != nil, paths.count <= 64 else { return }
        let reading = Set(paths)
        for file in headTree.files where reading.contains(file.path) {
            guard let stat = passStat(file.path), stat.size >= 1 << 20,
                stamps.blob(at: file.path, stat: stat) != file.blob
            else { continue }
            pass?.blobsReadAhead[file.blob] = BlobRead(reading: file.blob, in: repository.gitDirectory)
            Trace.note("HEAD's version read ahead: \(file.path)")
        }
    }

    /// Starts storing each of these files that HEAD holds another version of (see `pending`).
    private func storeAhead(
        _ read: [WorkingFile.Read], headTree: HeadTree?, stamps: IndexStamps
    ) throws(TodoSyncError) -> [String: BlobWrite] {
        guard let headTree, !read.isEmpty else { return [:] }
        var headBlobs: [String: OID] = [:]
        for file in headTree.files { headBlobs[file.path] = file.blob }
        var writes: [String: BlobWrite] = [:]
        for file in read {
            guard let blob = headBlobs[file.path], try !holds(file.path, file.bytes, file.stat, blob, stamps),
                try !convertsContent(at: file.path)
            else { continue }
            writes[file.path] = BlobWrite(storing: file.bytes, in: repository.gitDirectory)
        }
        return writes
    }

    private func pending(
        _ paths: [String], headTree: HeadTree?, stamps: IndexStamps, storingBlobsAhead: Bool, shortcuts: Bool
    ) throws(TodoSyncError) -> PendingUnit {
        readHeadBlobsAhead(of: paths, headTree: headTree, stamps: stamps)
        let read = try Trace.phase("read working lists") { () throws(TodoSyncError) in try readWorkingBytes(paths) }
        // A large edited list of HEAD (git's index does not vouch for its stat) is most likely
        // committed exactly as read: its blob is stored while it is parsed, as `git add` stores
        // a file long before `git commit`. Stopped, leaving nothing, if the parse finds an item
        // that gets an id now (a file git converts on the way in is stored with the commit).
        // A small one is stored once the parse shows it as committed as read (a thread of its
        // own costs about what storing it does).
        let large = read.filter { $0.bytes.count >= Self.largestHashedUnvouched }
        var blobsStoredAhead = storingBlobsAhead ? try storeAhead(large, headTree: headTree, stamps: stamps) : [:]
        let files = try Trace.phase("parse working lists") { () throws(TodoSyncError) in try parseWorkingFiles(read) }
        for file in files where !file.document.hasItems || file.document.nodeIDs.contains(nil) {
            blobsStoredAhead.removeValue(forKey: file.path)?.stop()
        }
        if storingBlobsAhead, read.count <= 64 {
            let small = files.filter { file in
                file.bytes.count < Self.largestHashedUnvouched && file.document.hasItems
                    && !file.document.nodeIDs.contains(nil)
            }
            blobsStoredAhead.merge(
                try storeAhead(
                    small.map { WorkingFile.Read(path: $0.path, bytes: $0.bytes, stat: $0.stat) }, headTree: headTree,
                    stamps: stamps)
            ) { first, _ in first }
        }
        let filesRead = files.count <= PendingUnit.filesReadKept ? files : []
        let clashes = files.map(\.document).filter(\.mayHoldClashes).flatMap(\.clashes)
        if shortcuts,
            var unchanged = try Trace.phase(
                "compare with HEAD (index, size, hash)",
                { () throws(TodoSyncError) in try unchangedSinceHead(files, headTree, stamps) })
        {
            unchanged.filesRead = filesRead
            unchanged.clashes = clashes
            return unchanged
        }
        let head = try Trace.phase("read and parse HEAD's lists") { () throws(TodoSyncError) in
            try readHead(headTree, reusing: files, stamps: stamps)
        }
        let working = try workingSnapshot(files, head: head)
        // Markdown files read that are not lists and hold HEAD's blob, as git's index vouches:
        // the note names them, so the next pass need not read them.
        if let headTree {
            var blobs: [String: OID] = [:]
            for file in headTree.files { blobs[file.path] = file.blob }
            for file in files where working.lists[file.path] == nil {
                if let blob = blobs[file.path], stamps.blob(at: file.path, stat: file.stat) == blob {
                    pass?.readPlain[file.path] = blob
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        var assigned = Trace.phase("assign ids") {
            IDAssignment.assign(working.lists, base: head.base, using: &generator)
        }
        var changes = Trace.phase("changes") { ListSet.changes(from: head.base.lists, to: assigned.lists) }
        let recurring = try addingNextOccurrences(to: &assigned, changes: &changes, since: head.base.lists)
        // HEAD's ids are gathered only where a question needs them: most commits hold exactly
        // HEAD's ids in their places.
        let headIDs = IDAssignment.holdBaseIDs(Array(assigned.lists.documents.values), head.base) ? nil : head.base.ids
        let adopted =
            assigned.writtenIDs.isEmpty
            ? 0 : assigned.writtenIDs.filter { (headIDs ?? head.base.ids).contains($0) }.count
        var changedPaths: [String] = []
        var finalBytes: [String: [UInt8]?] = [:]
        // Ids the files read name that HEAD's versions of them lack, not written now.
        let written = Set(assigned.writtenIDs)
        let namesIDsFromElsewhere =
            headIDs.map { headIDs in
                assigned.lists.documents.values.contains { document in
                    document.nodeIDs.contains { id in id.map { !headIDs.contains($0) && !written.contains($0) } ?? false
                    }
                }
            } ?? false
        let rewritten = Set(assigned.changedPaths)
        for path in working.readBytes.keys.sorted() {
            // A file that gets no id holds the bytes read (rendering is lossless): not rendered again.
            let final = rewritten.contains(path) ? assigned.lists[path]?.render() : working.readBytes[path] ?? nil
            let changed = !sameBytes(final, head.files[path]?.bytes)
            if changed { changedPaths.append(path) }
            // A repaired id can bring a file back to HEAD's bytes: written, not committed.
            if changed || rewritten.contains(path) { finalBytes[path] = final }
        }
        let blockers = Self.blockers(changedPaths, working)
        let warnings = (working.lists.diagnostics + assigned.diagnostics + recurring).filter { warning in
            !blockers.contains { $0.file == warning.file && $0.line == warning.line }
        }
        var unit = PendingUnit(
            changes: changes, idsToWrite: assigned.idsWritten, idsAdopted: adopted,
            diagnostics: blockers + warnings, changedPaths: changedPaths,
            head: head, working: working, assigned: assigned, finalBytes: finalBytes, blobsStoredAhead: blobsStoredAhead
        )
        unit.namesIDsFromElsewhere = namesIDsFromElsewhere
        unit.blockers = blockers
        unit.filesRead = filesRead
        unit.clashes = clashes
        return unit
    }

    /// What a commit refuses in a changed list: bytes git would call binary (a list saved over
    /// by something else), and a whole conflict block a git merge left.
    private static func blockers(_ paths: [String], _ working: WorkingSnapshot) -> [Diagnostic] {
        var result: [Diagnostic] = []
        for path in paths {
            guard let bytes = working.readBytes[path] ?? nil else { continue }
            if let offset = ListDocument.binaryOffset(bytes) {
                let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                result.append(
                    Diagnostic(
                        file: path, line: line,
                        message:
                            "the file holds a NUL byte, so git reads it as binary, not as a list; nothing was committed"
                    ))
            } else if let block = working.lists[path]?.conflictBlock {
                result.append(
                    Diagnostic(
                        file: path, line: block.opening,
                        message:
                            "a git conflict block (<<<<<<< at line \(block.opening), ======= at \(block.separator), >>>>>>> at \(block.closing)) a merge left unresolved; nothing was committed"
                    ))
            }
        }
        return result
    }
}

extension Workspace {
    /// Recurring items checked off in an editor get their next occurrence in the same unit, as
    /// `done` gives them (`ListSet.nextOccurrences`); the files that get one are rewritten.
    /// Returns warnings for rules todosync cannot follow.
    private func addingNextOccurrences(
        to assigned: inout IDAssignment.Result, changes: inout [Change], since base: ListSet
    ) throws(TodoSyncError) -> [Diagnostic] {
        guard changes.contains(where: { if case .checked = $0.kind { $0.item.recurrence != nil } else { false } })
        else { return [] }
        let next = assigned.lists.nextOccurrences(checkedIn: changes, today: try today())
        guard let command = next.command else { return next.warnings }
        do {
            assigned.lists = try command.apply(to: assigned.lists)
        } catch {
            notice("no next occurrence was added: \(error)")
            return next.warnings
        }
        for path in next.files.sorted() where !assigned.changedPaths.contains(path) {
            assigned.changedPaths.append(path)
        }
        changes = Change.tellingNextOccurrences(ListSet.changes(from: base, to: assigned.lists), next.following)
        return next.warnings
    }

    /// The day a unit made now is dated: its author date (`GIT_AUTHOR_DATE`, else now), in
    /// its own time zone, so a done date agrees with the commit.
    public func today() throws(TodoSyncError) -> CalendarDate {
        let author = try Identity.resolve(for: repository).author
        let seconds = author.time + Int64(author.offsetMinutes) * 60
        return CalendarDate(daysSinceEpoch: Int((seconds - (seconds % 86_400 + 86_400) % 86_400) / 86_400))
    }
}

extension Workspace {
    /// The common case, answered cheaply: every list file hashes to the blob HEAD's tree holds
    /// for it, every item already carries an id of its own, and no other file holds items.
    /// Then nothing needs committing, and HEAD's lists are never read or parsed. nil: look closer.
    func unchangedSinceHead(
        _ files: [WorkingFile], _ headTree: HeadTree?, _ stamps: IndexStamps
    ) throws(TodoSyncError) -> PendingUnit? {
        guard let headTree else { return nil }
        var treeBlobs: [String: OID] = [:]
        for file in headTree.files { treeBlobs[file.path] = file.blob }
        var ids = Set<ItemID>()
        var diagnostics: [Diagnostic] = []
        var listBlobs: [String: OID] = [:], plain: [String: OID] = [:]
        for file in files {
            let blob = treeBlobs.removeValue(forKey: file.path)
            if let blob {
                // git's index vouches for the bytes, or they hash to HEAD's blob (`holds`).
                guard try holds(file, blob, stamps) else { return nil }
            }
            guard try isList(file.document) else {
                if let blob { plain[file.path] = blob }
                continue
            }
            guard let blob else { return nil }
            // A list holding a clash is left out of the note: every pass reads it.
            if !file.document.mayHoldClashes { listBlobs[file.path] = blob }
            for id in file.document.nodeIDs {
                guard let id, ids.insert(id).inserted else { return nil }
            }
            diagnostics += file.document.diagnostics
        }
        // Files of HEAD that are gone from the working tree: fine only if they held no items
        // (or are outside a sparse checkout).
        let missing = try filesNotInWorkingTree(Array(treeBlobs.keys))
        for path in missing.gone + missing.replaced.map(\.path) {
            guard let blob = treeBlobs[path] else { continue }
            if try isList(ListDocument.parsing(path, committedBytes(blob, at: path))) { return nil }
        }
        if diagnostics.isEmpty { recordCheckedHead(commit: headTree.commit.id, blobs: listBlobs, plain: plain) }
        return .nothingChanged(diagnostics: diagnostics)
    }
}

/// Which candidate files a pass reads, given the checked-head note (`narrowing`).
struct Narrowing {
    /// The files to read, in `PathOrder`.
    var read: [String] = []
    /// The noted files that hold HEAD's blobs, as git's index vouches, in `PathOrder`.
    var vouched: [NotedFile] = []
    /// Whether a file to read is a list of HEAD (changed or gone).
    var readsNotedList = false
}

extension PendingUnit {
    static func nothingChanged(diagnostics: [Diagnostic]) -> PendingUnit {
        PendingUnit(
            changes: [], idsToWrite: 0, idsAdopted: 0, diagnostics: diagnostics, changedPaths: [],
            head: HeadSnapshot(commit: nil, base: .empty, files: [:]),
            working: WorkingSnapshot(lists: ListSet(), readBytes: [:]),
            assigned: .unchanged, finalBytes: [:])
    }
}

/// Whether two files hold the same bytes (nil: no file); by `memcmp`, list files are megabytes.
func sameBytes(_ a: [UInt8]?, _ b: [UInt8]?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.sameBytes(as: b)
}
