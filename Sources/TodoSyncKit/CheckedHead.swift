#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import QuickStatus

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
    /// Markdown files of the commit read and found not to be lists, and their blobs: while git's
    /// index vouches for one, it is not read again.
    var plain: [String: OID] = [:]
    /// What gitattributes said of each of those files (the `todosync` attribute; none of them
    /// under a filter), while every file they are read from is as `attributeSources` stamps it.
    var markings: [String: ListFileSelector.Marking] = [:]
    /// Every file gitattributes are read from (each folder's .gitattributes, info/attributes,
    /// the global ones), stamped before the markings were looked up.
    var attributeSources: [FileStamp] = []

    static let fileName = "todosync/cache/checked-head"
    /// Raised whenever what counts as "in order" changes, so older notes are not trusted.
    static let format = "todosync checked-head 2"

    /// One record per line; nil if a pattern or path would need a line break (never written).
    func encoded() -> [UInt8]? {
        var lines = [Self.format, "commit " + commit.description]
        lines += selector.include.map { "include " + $0 }
        lines += selector.exclude.map { "exclude " + $0 }
        lines += attributeSources.map(\.line)
        guard !lines.contains(where: { $0.contains("\n") }) else { return nil }
        var bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        // NB: appended as bytes: a vault's note has a line for each of thousands of files.
        bytes.reserveCapacity(bytes.count + (blobs.count + plain.count) * 96 + markings.count * 64)
        func append(_ key: String, _ blob: OID, _ path: String) {
            bytes += key.utf8
            blob.appendHex(to: &bytes)
            bytes.append(0x20)
            bytes += path.utf8
            bytes.append(0x0A)
        }
        // NB: in no order (read back into dictionaries): a vault's note names thousands of
        // paths, and sorting them as Strings is slow.
        for (path, blob) in blobs { append("blob ", blob, path) }
        for (path, blob) in plain { append("plain ", blob, path) }
        for (path, marking) in markings {
            bytes += "mark ".utf8
            bytes.append(UInt8(ascii: Self.code(marking)))
            bytes.append(0x20)
            bytes += path.utf8
            bytes.append(0x0A)
        }
        let paths = Array(blobs.keys) + Array(plain.keys) + Array(markings.keys)
        guard !paths.contains(where: { $0.utf8.contains(0x0A) }) else { return nil }
        return bytes
    }

    init(
        commit: OID, selector: ListFileSelector, blobs: [String: OID], plain: [String: OID] = [:],
        markings: [String: ListFileSelector.Marking] = [:], attributeSources: [FileStamp] = []
    ) {
        self.commit = commit
        self.selector = selector
        self.blobs = blobs
        self.plain = plain
        self.markings = markings
        self.attributeSources = attributeSources
    }

    /// Reads a note back, byte by byte: a vault's note holds a line for each of thousands of
    /// files, and it is read by every command.
    init?(decoding bytes: [UInt8]) {
        guard let lines = noteLines(bytes), lines.count >= 2, lines[0].elementsEqual(Self.format.utf8),
            lines[1].starts(with: Array("commit ".utf8)),
            let commit = Self.oid(lines[1].dropFirst(7))
        else { return nil }
        var include: [String] = [], exclude: [String] = [], blobs: [String: OID] = [:], plain: [String: OID] = [:]
        var markings: [String: ListFileSelector.Marking] = [:], sources: [FileStamp] = []
        for line in lines[2...] {
            guard let space = line.firstIndex(of: 0x20) else { return nil }
            let key = line[..<space], rest = line[(space + 1)...]
            switch String(decoding: key, as: UTF8.self) {
            case "include": include.append(String(decoding: rest, as: UTF8.self))
            case "exclude": exclude.append(String(decoding: rest, as: UTF8.self))
            case "blob", "plain":
                guard rest.count > 41, let blob = Self.oid(rest.prefix(40)), rest[rest.startIndex + 40] == 0x20 else { return nil }
                let path = String(decoding: rest.dropFirst(41), as: UTF8.self)
                if key.first == UInt8(ascii: "b") { blobs[path] = blob } else { plain[path] = blob }
            case "mark":
                guard rest.count > 2, let marking = Self.marking(Unicode.Scalar(rest[rest.startIndex])),
                    rest[rest.startIndex + 1] == 0x20
                else { return nil }
                markings[String(decoding: rest.dropFirst(2), as: UTF8.self)] = marking
            case "none", "stat":
                guard let stamp = FileStamp(key: key, rest: rest) else { return nil }
                sources.append(stamp)
            default: return nil
            }
        }
        self.init(
            commit: commit, selector: ListFileSelector(include: include, exclude: exclude), blobs: blobs, plain: plain,
            markings: markings, attributeSources: sources)
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

extension Workspace {
    var checkedHeadPath: String { repository.gitDirectory + CheckedHead.fileName }

    /// The note for HEAD, if there is one and it was made with today's file selection.
    func readCheckedHead(commit: OID) -> CheckedHead? {
        guard let note = readCheckedNote(), note.commit == commit else { return nil }
        return note
    }

    /// The note as it is, about whichever commit, if made with today's file selection. Read
    /// once a pass: it is asked for at several steps.
    func readCheckedNote() -> CheckedHead? {
        if let note = pass?.note { return note }
        guard let bytes = try? FileSystem.read(checkedHeadPath), let note = CheckedHead(decoding: bytes), note.selector == selector
        else { return nil }
        pass?.note = note
        return note
    }

    /// Records that `commit`'s lists were found in order, with the Markdown files of the commit
    /// found not to be lists (`plain`) and, where every file gitattributes come from was left
    /// alone long enough for its stamp to show a later change, what they said of each file.
    /// Best effort: it is only a cache.
    func recordCheckedHead(commit: OID, blobs: [String: OID], plain: [String: OID] = [:]) {
        var note = CheckedHead(commit: commit, selector: selector, blobs: blobs, plain: plain)
        if let pass {
            // The files vouched for are most of a vault: the few read go into their tables.
            var lists = pass.vouchedLists, plainFiles = pass.vouchedPlain
            for (path, blob) in blobs {
                lists[path] = blob
                plainFiles.removeValue(forKey: path)
            }
            for (path, blob) in plain where lists[path] == nil { plainFiles[path] = blob }
            note.blobs = lists
            note.plain = plainFiles
        }
        if let sources = pass?.attributeSources, sources.allSatisfy({ $0.isSettled(before: openedAt - attributeSettleTime) }) {
            // Every file the note names, read in this pass or vouched for (the pass began with
            // the last note's markings).
            for path in Array(note.blobs.keys) + Array(note.plain.keys) {
                guard let found = passAttributes(path), found.filter == nil else { continue }
                note.markings[path] = found.0
            }
            note.attributeSources = sources
        }
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
        var markings: [String: ListFileSelector.Marking] = [:]
        for path in Array(note.blobs.keys) + Array(note.plain.keys) {
            guard let marking = passAttributes(path), marking.filter == nil else { continue }
            markings[path] = marking.0
        }
        note.markings = markings
        note.attributeSources = sources
        guard let bytes = note.encoded() else { return }
        pass?.note = nil
        FileSystem.writeCache(checkedHeadPath, bytes)
    }

    /// The stamps of every file gitattributes may be read from for the folders of `scan`; nil
    /// when one cannot be taken, or a .gitattributes git tracks is missing here (it is then
    /// read from git's index, which no stamp shows).
    func attributeSourceStamps(_ scan: CandidateScan) -> [FileStamp]? {
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        let xdg = getenv("XDG_CONFIG_HOME").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        var paths = [repository.gitDirectory + "info/attributes", xdg + "/git/attributes", "/etc/gitattributes"]
        if let file = try? repository.configString("core.attributesFile") { paths.append(file.hasPrefix("~/") ? home + file.dropFirst() : file) }
        var inTree: [String: String] = [:]
        for folder in scan.folders {
            let relative = folder.isEmpty ? ".gitattributes" : folder + "/.gitattributes"
            paths.append(root + "/" + relative)
            inTree[root + "/" + relative] = relative
        }
        var stamps: [FileStamp] = []
        for path in paths {
            guard let stamp = FileStamp.take(path) else { return nil }
            if stamp.status == nil, let relative = inTree[path], scan.tracked.contains(relative) { return nil }
            stamps.append(stamp)
        }
        return stamps
    }

    /// The candidate files, found at the start of a reading pass, and what the note says
    /// gitattributes say of them (stamped before any attribute is read, so a change to the
    /// files they come from shows).
    func scanForPass() throws(TodoSyncError) -> CandidateScan {
        let scan = try Trace.phase("find candidate files") { () throws(TodoSyncError) in try scanCandidates() }
        if pass?.attributeSources == nil { Trace.phase("gitattributes noted for HEAD") { preloadMarkings(attributeSourceStamps(scan)) } }
        return scan
    }

    /// Starts a reading pass with what the note says gitattributes say of the files it names,
    /// where every file they are read from is as stamped then (whichever commit the note is
    /// about: the markings depend on those files alone).
    func preloadMarkings(_ sources: [FileStamp]?) {
        pass?.attributeSources = sources
        guard let sources, let note = readCheckedNote(), !note.markings.isEmpty, note.attributeSources == sources else { return }
        pass?.notedMarkings = note.markings
    }
}
