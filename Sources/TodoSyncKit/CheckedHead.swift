import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import QuickStatus
import TodoModel

/// A note in the git directory that one commit's lists were read and found in order: every item
/// has an id of its own, no id is used twice, no file drew a warning. While HEAD is still that
/// commit, the same files are lists, and git's index vouches for each of them (its stat still
/// matches), "nothing changed" is known without reading or parsing a list.
///
/// A cache, never the truth: a note that is missing, damaged or about another commit only means
/// the files are read and compared again.
struct CheckedHead: Equatable, Sendable {
    var commit: OID
    var selector: ListFileSelector
    /// Each Markdown file of the commit read: the lists that hold items, and the files found
    /// not to be lists (while git's index vouches for one, it is not read again), with their
    /// blobs. In `PathOrder`, each path once: joined with the candidate files in one pass.
    var files: [NotedFile]
    /// Every file gitattributes are read from (each folder's .gitattributes, info/attributes,
    /// the global ones), stamped before the files' markings were looked up.
    var attributeSources: [FileStamp] = []

    static let fileName = "todosync/cache/checked-head"
    /// Raised whenever what counts as "in order" changes, so older notes are not trusted.
    static let format = "todosync checked-head 3"

    /// Each list file of the commit that holds items, and its blob.
    var blobs: [String: OID] { Dictionary(uniqueKeysWithValues: files.filter(\.isList).map { ($0.path, $0.blob) }) }
    /// The Markdown files found not to be lists, and their blobs.
    var plain: [String: OID] {
        Dictionary(uniqueKeysWithValues: files.filter { !$0.isList }.map { ($0.path, $0.blob) })
    }
    /// What gitattributes said of each file, where the note holds it.
    var markings: [String: ListFileSelector.Marking] {
        Dictionary(uniqueKeysWithValues: files.compactMap { file in file.marking.map { (file.path, $0) } })
    }

    /// One record per line; nil if a pattern or path would need a line break (never written).
    func encoded() -> [UInt8]? {
        var lines = [Self.format, "commit " + commit.description]
        lines += selector.include.map { "include " + $0 }
        lines += selector.exclude.map { "exclude " + $0 }
        lines += attributeSources.map(\.line)
        guard !lines.contains(where: { $0.contains("\n") }) else { return nil }
        var bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        // NB: appended as bytes: a vault's note has a line for each of thousands of files.
        bytes.reserveCapacity(bytes.count + files.count * 96)
        for file in files {
            bytes.append(UInt8(ascii: file.isList ? "b" : "p"))
            bytes.append(UInt8(ascii: file.marking.map(Self.code) ?? "-"))
            bytes.append(0x20)
            file.blob.appendHex(to: &bytes)
            bytes.append(0x20)
            let start = bytes.count
            bytes += file.path.utf8
            guard !bytes[start...].contains(0x0A) else { return nil }
            bytes.append(0x0A)
        }
        return bytes
    }

    init(commit: OID, selector: ListFileSelector, files: [NotedFile], attributeSources: [FileStamp] = []) {
        self.commit = commit
        self.selector = selector
        self.files = files
        self.attributeSources = attributeSources
    }

    /// A note from tables by path (`markings` only for paths in `blobs` or `plain`).
    init(
        commit: OID, selector: ListFileSelector, blobs: [String: OID], plain: [String: OID] = [:],
        markings: [String: ListFileSelector.Marking] = [:], attributeSources: [FileStamp] = []
    ) {
        var files = blobs.map { NotedFile(path: $0.key, blob: $0.value, isList: true, marking: markings[$0.key]) }
        files += plain.filter { blobs[$0.key] == nil }.map {
            NotedFile(path: $0.key, blob: $0.value, isList: false, marking: markings[$0.key])
        }
        files.sort { PathOrder.precedes($0.path, $1.path) }
        self.init(commit: commit, selector: selector, files: files, attributeSources: attributeSources)
    }

    /// Reads a note back, byte by byte: a vault's note holds a line for each of thousands of
    /// files, and it is read by every command. Files out of order read as a damaged note.
    init?(decoding bytes: [UInt8]) {
        guard let lines = noteLines(bytes), lines.count >= 2, lines[0].elementsEqual(Self.format.utf8),
            lines[1].starts(with: Array("commit ".utf8)),
            let commit = Self.oid(lines[1].dropFirst(7))
        else { return nil }
        var include: [String] = [], exclude: [String] = [], sources: [FileStamp] = []
        var files: [NotedFile] = []
        files.reserveCapacity(lines.count)
        for line in lines[2...] {
            if line.count > 44, let kind = line.first, kind == UInt8(ascii: "b") || kind == UInt8(ascii: "p") {
                let at = line.startIndex
                guard line[at + 2] == 0x20, line[at + 43] == 0x20, let blob = Self.oid(line[(at + 3)..<(at + 43)])
                else { return nil }
                var marking: ListFileSelector.Marking?
                if line[at + 1] != UInt8(ascii: "-") {
                    guard let found = Self.marking(Unicode.Scalar(line[at + 1])) else { return nil }
                    marking = found
                }
                let path = String(decoding: line[(at + 44)...], as: UTF8.self)
                if let last = files.last, PathOrder.compare(last.path, path) >= 0 { return nil }
                files.append(NotedFile(path: path, blob: blob, isList: kind == UInt8(ascii: "b"), marking: marking))
                continue
            }
            guard let space = line.firstIndex(of: 0x20) else { return nil }
            let key = line[..<space], rest = line[(space + 1)...]
            switch String(decoding: key, as: UTF8.self) {
            case "include": include.append(String(decoding: rest, as: UTF8.self))
            case "exclude": exclude.append(String(decoding: rest, as: UTF8.self))
            case "none", "stat":
                guard let stamp = FileStamp(key: key, rest: rest) else { return nil }
                sources.append(stamp)
            default: return nil
            }
        }
        self.init(
            commit: commit, selector: ListFileSelector(include: include, exclude: exclude), files: files,
            attributeSources: sources)
    }

    private static func oid(_ digits: ArraySlice<UInt8>) -> OID? {
        digits.withUnsafeBufferPointer { OID(hexDigits: $0) }
    }

    private static func code(_ marking: ListFileSelector.Marking) -> Unicode.Scalar {
        switch marking {
        case .marked: "m"
        case .unmarked: "u"
        case .unspecified: "s"
        }
    }

    private static func marking(_ code: Unicode.Scalar) -> ListFileSelector.Marking? {
        switch code {
        case "m": .marked
        case "u": .unmarked
        case "s": .unspecified
        default: nil
        }
    }
}

/// A Markdown file a checked-head note names.
struct NotedFile: Equatable, Sendable {
    var path: String
    var blob: OID
    /// A list that holds items, or a Markdown file found not to be one.
    var isList: Bool
    /// What gitattributes said of it, where the note holds that.
    var marking: ListFileSelector.Marking?

    /// Where `path` is in `files` (in `PathOrder`), found by bisection.
    static func position(of path: String, in files: [NotedFile]) -> Int? {
        PathOrder.position(of: path, count: files.count) { files[$0].path }
    }

    /// `kept` and `added` (each in `PathOrder`) as one table; `added` wins where both name a path.
    static func merging(_ kept: [NotedFile], _ added: [NotedFile]) -> [NotedFile] {
        guard !added.isEmpty else { return kept }
        var result: [NotedFile] = []
        result.reserveCapacity(kept.count + added.count)
        var next = 0
        for file in kept {
            while next < added.count, PathOrder.compare(added[next].path, file.path) < 0 {
                result.append(added[next])
                next += 1
            }
            if next < added.count, PathOrder.compare(added[next].path, file.path) == 0 { continue }
            result.append(file)
        }
        result += added[next...]
        return result
    }
}

/// The checked-head note read, and the stats of the files it names taken, on another thread.
///
/// NB: unchecked Sendable: `read` is written once on the other thread before `finished` is
/// signalled, and read only after waiting for it.
final class NoteAhead: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written once on the other thread before `finished` is signalled; read after waiting.
    private var read: (note: CheckedHead, stats: [FileStat?])?
    /// Whether the noted files' stats are taken too.
    private let statsFiles: Bool

    /// `statsFiles` false: the note alone (`stats()` is then nil).
    init(notePath: String, root: String, statsFiles: Bool = true) {
        self.statsFiles = statsFiles
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            if let bytes = try? FileSystem.read(notePath), let note = CheckedHead(decoding: bytes) {
                read = (note, statsFiles ? note.files.map { FileSystem.regularFileStat(root + "/" + $0.path) } : [])
            }
            finished.signal()
        }
    }

    private func wait() -> (note: CheckedHead, stats: [FileStat?])? {
        finished.wait()
        finished.signal()
        return read
    }

    func note() -> CheckedHead? { wait()?.note }

    /// The stats of the noted files, position by position with the note's files.
    func stats() -> (files: [NotedFile], stats: [FileStat?])? {
        guard let read = wait(), statsFiles else { return nil }
        return (read.note.files, read.stats)
    }
}

extension Workspace {
    var checkedHeadPath: String { repository.gitDirectory + CheckedHead.fileName }

    /// The note as it is, about whichever commit, if made with today's file selection. Read
    /// once a pass: it is asked for at several steps.
    func readCheckedNote() -> CheckedHead? {
        if let note = pass?.note { return note }
        let read: CheckedHead?
        if let ahead = pass?.noteAhead {
            pass?.noteAhead = nil
            pass?.notedStats = ahead.stats()
            read = ahead.note()
        } else {
            read = (try? FileSystem.read(checkedHeadPath)).flatMap { CheckedHead(decoding: $0) }
        }
        guard let note = read, note.selector == selector else { return nil }
        pass?.note = note
        return note
    }

    /// Records that `commit`'s lists were found in order, with the Markdown files of the commit
    /// found not to be lists (`plain`) and, where every file gitattributes come from was left
    /// alone long enough for its stamp to show a later change, what they said of each file.
    /// The files this pass vouched for without reading them are named as the last note named
    /// them. Best effort: it is only a cache.
    func recordCheckedHead(commit: OID, blobs: [String: OID], plain: [String: OID] = [:]) {
        var read = blobs.map { NotedFile(path: $0.key, blob: $0.value, isList: true) }
        for (path, blob) in plain.merging(pass?.readPlain ?? [:], uniquingKeysWith: { first, _ in first })
        where blobs[path] == nil {
            read.append(NotedFile(path: path, blob: blob, isList: false))
        }
        read.sort { PathOrder.precedes($0.path, $1.path) }
        var files = NotedFile.merging(pass?.vouched ?? [], read)
        var sources: [FileStamp] = []
        if let found = pass?.attributeSources,
            found.allSatisfy({ $0.isSettled(before: openedAt - attributeSettleTime) })
        {
            // Markings the pass began with (the last note's, still holding) carry over; the
            // others are what this pass looked up.
            let carried = pass?.notedMarkings != nil
            for index in files.indices where !(carried && files[index].marking != nil) {
                files[index].marking = passAttributes(files[index].path).flatMap { $0.filter == nil ? $0.0 : nil }
            }
            sources = found
        } else {
            for index in files.indices { files[index].marking = nil }
        }
        let note = CheckedHead(commit: commit, selector: selector, files: files, attributeSources: sources)
        guard let bytes = note.encoded() else { return }
        pass?.note = nil
        FileSystem.writeCache(checkedHeadPath, bytes)
    }

    /// Records the note for a commit made from HEAD's lists (an item command, undo, redo): the
    /// note for HEAD with the changed files' lines replaced, where every changed list is in
    /// order (each item with an id, used once, not also in a file left as it was). Without a
    /// note for HEAD, none: the next pass reads every file, as it would have.
    func recordCheckedHead(
        commit: OID, over head: HeadSnapshot, lists: ListSet, changed: [String: [UInt8]?], listBlobs: [String: OID]
    ) {
        guard let parent = head.commit?.id, var note = readCheckedNote(), note.commit == parent else { return }
        // Lists holding HEAD's ids in their places (HEAD's all different) are in order: no
        // table of every id (an item checked in a list of a million).
        let inPlace = IDAssignment.holdBaseIDs(
            changed.compactMap { path, bytes in bytes == nil ? nil : lists[path] }, head.base)
        var before = Set<ItemID>(), headIDs = Set<ItemID>()
        if !inPlace {
            headIDs = head.base.ids
            for path in changed.keys {
                for case let id? in head.base.lists[path]?.nodeIDs ?? [] { before.insert(id) }
            }
        }
        var seen = Set<ItemID>(), added: [NotedFile] = []
        for (path, bytes) in changed {
            // Gone, left untracked or no list now: not named (the next pass reads it, if there).
            guard bytes != nil, let document = lists[path], let blob = listBlobs[path] else { continue }
            guard document.diagnostics.isEmpty else { return }
            // A list holding a clash is left out: every pass reads it.
            if document.mayHoldClashes { continue }
            for id in inPlace ? [] : document.nodeIDs {
                guard let id, seen.insert(id).inserted, before.contains(id) || !headIDs.contains(id) else { return }
            }
            let marking = NotedFile.position(of: path, in: note.files).flatMap { note.files[$0].marking }
            added.append(NotedFile(path: path, blob: blob, isList: true, marking: marking))
        }
        added.sort { PathOrder.precedes($0.path, $1.path) }
        let dropped = Set(changed.keys)
        note.files = NotedFile.merging(note.files.filter { !dropped.contains($0.path) }, added)
        note.commit = commit
        guard let bytes = note.encoded() else { return }
        pass?.note = nil
        FileSystem.writeCache(checkedHeadPath, bytes)
    }

    /// Records in the note what gitattributes said of the files it names, where this pass had
    /// to look them up (the files they come from changed since the note, and are now left
    /// alone long enough): `list` does this, so the next pass need not look up each file.
    /// Best effort, like the note.
    func refreshNotedMarkings() {
        guard var note = readCheckedNote(), let sources = pass?.attributeSources, note.attributeSources != sources,
            sources.allSatisfy({ $0.isSettled(before: openedAt - attributeSettleTime) })
        else { return }
        for index in note.files.indices {
            note.files[index].marking = passAttributes(note.files[index].path).flatMap { $0.filter == nil ? $0.0 : nil }
        }
        note.attributeSources = sources
        guard let bytes = note.encoded() else { return }
        pass?.note = nil
        FileSystem.writeCache(checkedHeadPath, bytes)
    }

    /// The stamps of every file gitattributes may be read from for the folders of `scan`; nil
    /// when one cannot be taken, or a .gitattributes git tracks is missing here (it is then
    /// read from git's index, which no stamp shows).
    func attributeSourceStamps(_ scan: CandidateScan) -> [FileStamp]? {
        var paths = outsideAttributeFiles()
        var inTree: [String: String] = [:]
        for folder in scan.folders {
            let relative = folder.isEmpty ? ".gitattributes" : folder + "/.gitattributes"
            paths.append(root + "/" + relative)
            inTree[root + "/" + relative] = relative
        }
        var stamps: [FileStamp] = []
        for path in paths {
            guard let stamp = FileStamp.take(path) else { return nil }
            if stamp.status == nil, let relative = inTree[path], (try? repository.isTracked(relative)) != false {
                return nil
            }
            stamps.append(stamp)
        }
        return stamps
    }

    /// Whether none of the files gitattributes may come from exists (`attributeSourceStamps`):
    /// then they say nothing of any file, and none is looked up.
    static func attributesSayNothing(_ sources: [FileStamp]?) -> Bool {
        sources?.allSatisfy { $0.status == nil } ?? false
    }

    /// Starts a reading pass that walks no folders (a sync's merge, an undo) with what the note
    /// says gitattributes say of its files, where every file the note stamped is as stamped
    /// then and the files read outside the tree are still the ones it stamped: then libgit2
    /// need not look up each file (a lookup checks every attributes file along the path).
    func preloadNotedAttributes() {
        guard pass != nil, pass?.attributeSources == nil, let note = readCheckedNote(), !note.attributeSources.isEmpty
        else { return }
        let noted = Set(note.attributeSources.map(\.path))
        guard outsideAttributeFiles().allSatisfy(noted.contains) else { return }
        for source in note.attributeSources {
            guard FileStamp.take(source.path) == source else { return }
        }
        pass?.coveredAttributeFiles = noted
        preloadMarkings(note.attributeSources)
    }

    /// The candidate files, found at the start of a reading pass, and what the note says
    /// gitattributes say of them (stamped before any attribute is read, so a change to the
    /// files they come from shows).
    func scanForPass() throws(TodoSyncError) -> CandidateScan {
        // The note names most candidates: it is read, and their stats taken, on a second
        // thread while this one walks the folders (each mostly waits on the kernel).
        // Where watch may have kept the files and their stats, the note is read alone once that is known.
        let mayKeep = keepsCandidates && knownCandidates?.stats != nil
        if pass != nil, pass?.note == nil, !mayKeep {
            pass?.noteAhead = NoteAhead(notePath: checkedHeadPath, root: root)
        }
        let scan = try Trace.phase("find candidate files") { () throws(TodoSyncError) in try candidatesForPass() }
        if pass != nil, pass?.note == nil, pass?.noteAhead == nil {
            let statsFiles = pass?.keptCandidates != true
            pass?.noteAhead = NoteAhead(notePath: checkedHeadPath, root: root, statsFiles: statsFiles)
        }
        if pass?.attributeSources == nil {
            Trace.phase("gitattributes noted for HEAD") { preloadMarkings(attributeSourceStamps(scan)) }
        }
        return scan
    }

    /// Starts a reading pass with what the note says gitattributes say of the files it names,
    /// where every file they are read from is as stamped then (whichever commit the note is
    /// about: the markings depend on those files alone).
    func preloadMarkings(_ sources: [FileStamp]?) {
        pass?.attributeSources = sources
        guard let sources, let note = readCheckedNote(), note.attributeSources == sources,
            note.files.contains(where: { $0.marking != nil })
        else { return }
        pass?.notedMarkings = note.files
    }
}
