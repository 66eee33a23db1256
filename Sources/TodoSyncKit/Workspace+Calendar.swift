#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import GitStore
import Synchronization
import TodoModel

/// An iCalendar feed of the committed lists (`todosync ics`, docs/CALENDAR.md).
public struct CalendarFeedResult: Sendable {
    public var bytes: [UInt8]
    /// How many items it holds.
    public var count: Int
    /// Items it would hold that have no id yet (their UID would not be stable): left out.
    public var withoutID: Int
}

extension Workspace {
    /// The feed of the lists as they are (as `list` reads them): a VTODO (or with `.events`,
    /// an all-day VEVENT on the due date) for each item `CalendarFeed.includes`. Each item's
    /// DTSTAMP is the author time of the commit that last changed its line or its notes' lines,
    /// as `git blame` tells it (kept per file version in `.git/todosync/cache/blame`); a line not committed
    /// yet takes its file's modification time. So the feed is the same bytes while the lists
    /// are.
    public func calendarFeed(
        kind: CalendarFeed.Kind, all: Bool, name: String
    ) throws(TodoSyncError) -> CalendarFeedResult {
        try readingPass { () throws(TodoSyncError) -> CalendarFeedResult in
            let feed = CalendarFeed(name: name, kind: kind)
            var included: [TodoItem] = []
            var withoutID = 0
            // Where each item's lines end: at its notes' last line, before the next item's.
            var itemLines: [String: [Int]] = [:]
            _ = try forEachItem(done: nil) { item, hasID in
                itemLines[item.file, default: []].append(item.line)
                guard CalendarFeed.includes(item, kind: kind, all: all) else { return }
                if hasID {
                    included.append(item)
                } else {
                    withoutID += 1
                }
            }
            let times = try Trace.phase("ics: each line's last commit") { () throws(TodoSyncError) in
                try lineTimes(Set(included.map(\.file)).sorted())
            }
            for path in itemLines.keys { itemLines[path]?.sort() }
            let entries = included.map { item in
                // The newest of its own line's and its notes' lines (a line not committed yet:
                // the file's modification time).
                let file = times[item.file]
                let noteLines =
                    item.notes.isEmpty ? 0 : item.notes.split(separator: "\n", omittingEmptySubsequences: false).count
                var last = item.line + noteLines
                if let lines = itemLines[item.file] {
                    // The first item line after this one (binary search: a list holds thousands).
                    var low = 0, high = lines.count
                    while low < high {
                        let middle = (low + high) / 2
                        if lines[middle] <= item.line { low = middle + 1 } else { high = middle }
                    }
                    if low < lines.count { last = min(last, lines[low] - 1) }
                }
                var stamp: Int64 = 0
                for line in item.line...max(item.line, last) {
                    let time =
                        file.flatMap { line >= 1 && line <= $0.lines.count ? $0.lines[line - 1] : nil } ?? file?
                        .modified ?? 0
                    stamp = max(stamp, time)
                }
                return CalendarFeed.Entry(item: item, stamp: stamp)
            }
            let bytes = Trace.phase("ics: render \(entries.count) items") { feed.render(entries) }
            return CalendarFeedResult(bytes: bytes, count: entries.count, withoutID: withoutID)
        }
    }

    /// For each file, the author time of the commit that last changed each line (nil: not
    /// committed yet), and the file's modification time (for those lines). Each file is looked
    /// up in the blame cache by its blob (as git's index vouches for it, else its bytes hashed);
    /// the rest are blamed, a few at once.
    private func lineTimes(_ paths: [String]) throws(TodoSyncError) -> [String: (lines: [Int64?], modified: Int64)] {
        guard !paths.isEmpty else { return [:] }
        let stamps = try git("reading git's index") { try repository.indexStamps(for: paths) }
        // Taken once this pass: the items were read with the same stats.
        let stats = paths.map(passStat)
        var cache = Trace.phase("read the blame cache") { () -> BlameCache in
            (try? FileSystem.read(scratch.blameCache)).flatMap(BlameCache.init(decoding:)) ?? BlameCache()
        }
        let before = cache
        var found: [String: (lines: [Int64?], modified: Int64)] = [:]
        var unknown: [(path: String, key: BlameCache.Key?)] = []
        var used = Set<BlameCache.Key>()
        for (position, path) in paths.enumerated() {
            let modified = Int64(stats[position]?.mtime.seconds ?? 0)
            // The blob git's index vouches for, else the file's own bytes hashed as git would.
            var blob = stats[position].flatMap { stamps.blob(at: position, stat: $0) }
            if blob == nil, let bytes = try FileSystem.read(root + "/" + path) {
                blob = try? Repository.blobID(of: bytes)
            }
            let key = blob.map { BlameCache.Key(path: path, blob: $0) }
            if let key { used.insert(key) }
            if let key, let kept = cache.times[key] {
                found[path] = (kept.map { $0 == 0 ? nil : $0 }, modified)
            } else {
                unknown.append((path, key))
                found[path] = ([], modified)
            }
        }
        let blamed = try Trace.phase("git blame, \(unknown.count) files") { () throws(TodoSyncError) in
            try Self.blame(unknown.map(\.path), gitDirectory: repository.gitDirectory, workTree: root)
        }
        for ((path, key), lines) in zip(unknown, blamed) {
            found[path]?.lines = lines
            if let key { cache.times[key] = lines.map { $0 ?? 0 } }
        }
        cache.keepOnly(used)
        if cache != before { FileSystem.writeCache(scratch.blameCache, cache.encoded()) }
        return found
    }

    /// `git blame` of each file, one a core at once.
    private static func blame(
        _ paths: [String], gitDirectory: String, workTree: String
    ) throws(TodoSyncError) -> [[Int64?]] {
        guard !paths.isEmpty else { return [] }
        let workers = min(4, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))), paths.count)
        let results = Mutex<[Result<[Int64?], GitError>?]>(Array(repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: paths.count, by: workers) {
                let result = Result { () throws(GitError) in
                    try Repository.blameTimes(gitDirectory: gitDirectory, workTree: workTree, path: paths[index])
                }
                results.withLock { $0[index] = result }
            }
        }
        return try results.withLock { (all) throws(TodoSyncError) in
            try all.enumerated().map { (index, result) throws(TodoSyncError) in
                switch result {
                case .success(let lines)?: return lines
                case .failure(let error)?:
                    throw .git(error, while: "reading who last changed each line of \(paths[index]) (git blame)")
                case nil: return []
                }
            }
        }
    }
}

/// Derived data: for versions of list files (path and blob), the author time of the commit
/// that last changed each line (`git blame`). A checksum covers the file; one missing,
/// damaged or of another format reads as empty. Safe to delete at any time.
struct BlameCache: Equatable {
    struct Key: Hashable {
        var path: String
        var blob: OID
    }

    static let format = Array("todosync blame 1\n".utf8)
    var times: [Key: [Int64]] = [:]

    init() {}

    mutating func keepOnly(_ keys: Set<Key>) {
        times = times.filter { keys.contains($0.key) }
    }

    func encoded() -> [UInt8] {
        var body = CacheFile.start(Self.format)
        body.appendNumber(times.count)
        for (key, lines) in times.sorted(by: {
            ($0.key.path, $0.key.blob.description) < ($1.key.path, $1.key.blob.description)
        }) {
            body.appendString(key.path)
            body += key.blob.bytes
            body.appendNumber(lines.count)
            for time in lines { body.appendNumber(Int(time)) }
        }
        CacheFile.seal(&body, format: Self.format)
        return body
    }

    init?(decoding bytes: [UInt8]) {
        guard var reader = CacheFile.open(bytes, format: Self.format), let count = reader.number(), count <= bytes.count
        else { return nil }
        for _ in 0..<count {
            guard let path = reader.string(), let blob = reader.take(20).flatMap(OID.init(rawBytes:)),
                let lines = reader.number(), lines <= bytes.count
            else { return nil }
            var found: [Int64] = []
            found.reserveCapacity(lines)
            for _ in 0..<lines {
                guard let time = reader.number() else { return nil }
                found.append(Int64(time))
            }
            times[Key(path: path, blob: blob)] = found
        }
        guard reader.index == bytes.endIndex else { return nil }
    }
}

extension ScratchFolder {
    var blameCache: String { cache + "/blame" }
}

extension Workspace {
    /// Writes a feed to `given` (relative to the folder todosync was started in), replacing
    /// the file whole by a rename, and only when its bytes differ: a calendar app or web
    /// server polling it sees a change only when there is one. False: it was up to date.
    /// A Markdown file is refused (it may be a list), and so is any file that is not a feed.
    public func writeFeed(_ bytes: [UInt8], to given: String) throws(TodoSyncError) -> Bool {
        let path = given.hasPrefix("/") ? given : startDirectory + "/" + given
        if ListFileSelector.markdown.contains(where: { path.lowercased().hasSuffix($0.dropFirst()) }) {
            throw TodoSyncError(
                "\(given) is a Markdown file, which may be a list: the feed is not written over it; nothing was changed",
                hint: "name a file ending in .ics, such as todo.ics")
        }
        if FileSystem.kind(of: path) == .directory {
            throw TodoSyncError(
                "\(given) is a folder; nothing was written",
                hint: "name a file in it: \(given.hasSuffix("/") ? given : given + "/")todo.ics")
        }
        if let current = try FileSystem.read(path) {
            if current == bytes { return false }
            // Only a feed (or an empty file) is replaced: a setting pointing at another file
            // must not cost its owner a byte.
            guard current.isEmpty || current.starts(with: Array("BEGIN:VCALENDAR".utf8)) else {
                throw TodoSyncError(
                    "\(given) exists and is not an iCalendar feed: the feed is not written over it; nothing was changed",
                    hint: "name a new file, such as todo.ics (or remove \(given) if it is yours to lose)")
            }
        }
        try FileSystem.writeAtomically(path, bytes)
        return true
    }
}

extension Workspace {
    /// The git settings that keep a feed current: `todosync.icsFile` (the file), and
    /// `todosync.icsEvents` (true: events), `todosync.icsName` (its name).
    static let feedFileKey = "todosync.icsFile"

    /// Writes the feed `todosync.icsFile` names again, where it changed; nothing when the
    /// setting is absent. Run after each write that moves the branch, and by `watch` when the
    /// lists changed under it (a plain `git pull`). A failure is told, never fails the command.
    public func refreshCalendarFeed() {
        guard let setting = try? repository.configValues([Self.feedFileKey, "todosync.icsEvents", "todosync.icsName"]),
            let file = setting[Self.feedFileKey], !file.isEmpty
        else { return }
        let events = ["true", "yes", "on", "1"].contains(setting["todosync.icsEvents"]?.lowercased() ?? "")
        let path = Self.configuredPath(file, root: root)
        // A fresh pass: what this command's pass read may be from before its own write.
        let outer = pass
        pass = nil
        defer { pass = outer }
        do throws(TodoSyncError) {
            let feed = try Trace.phase("the calendar feed (todosync.icsFile)") { () throws(TodoSyncError) in
                try calendarFeed(
                    kind: events ? .events : .todos, all: false, name: setting["todosync.icsName"] ?? "todosync")
            }
            _ = try writeFeed(feed.bytes, to: path)
        } catch {
            notice(
                "the calendar feed \(path) (git config \(Self.feedFileKey)) was not written: \(error.message)"
                    + (error.hint.map { "; \($0)" } ?? ""))
        }
    }

    /// A path as git config gives it: `~/` is the home folder; relative, from the working tree.
    static func configuredPath(_ value: String, root: String) -> String {
        let expanded = ProcessEnvironment.expandingHome(value)
        return expanded.hasPrefix("/") ? expanded : root + "/" + expanded
    }
}
