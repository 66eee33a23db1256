import GitStore
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
    /// The feed of HEAD's lists: a VTODO (or with `.events`, an all-day VEVENT on the due date)
    /// for each item `CalendarFeed.includes`. Each item's DTSTAMP is the author time of the
    /// commit that last changed its line, as `git blame` tells it (kept per file version in
    /// `.git/todosync/cache/blame`), so the feed is the same bytes while HEAD holds the same
    /// lists.
    public func calendarFeed(kind: CalendarFeed.Kind, all: Bool, name: String) throws(TodoSyncError) -> CalendarFeedResult {
        try readingPass { () throws(TodoSyncError) -> CalendarFeedResult in
            let feed = CalendarFeed(name: name, kind: kind)
            guard let headCommit = try readHeadCommit(), let head = try headForCommand() else {
                return CalendarFeedResult(bytes: feed.render([]), count: 0, withoutID: 0)
            }
            var included: [TodoItem] = []
            var withoutID = 0
            for (path, document) in head.base.lists.documents {
                let adopted = head.base.adoptedIDs(in: path)
                for item in document.items where CalendarFeed.includes(item, kind: kind, all: all) {
                    if adopted.contains(item.id) {
                        withoutID += 1
                    } else {
                        included.append(item)
                    }
                }
            }
            var cache = Trace.phase("read the blame cache") { () -> BlameCache in
                (try? FileSystem.read(scratch.blameCache)).flatMap(BlameCache.init(decoding:)) ?? BlameCache()
            }
            let before = cache
            var times: [String: [Int64]] = [:]
            for path in Set(included.map(\.file)).sorted() {
                guard let blob = head.blobs[path] else { continue }
                if let kept = cache.times[BlameCache.Key(path: path, blob: blob)] {
                    times[path] = kept
                    continue
                }
                let found = try git("reading who last changed each line of \(path) (git blame)") { try repository.blameTimes(of: path, at: headCommit.id) }
                times[path] = found
                cache.times[BlameCache.Key(path: path, blob: blob)] = found
            }
            cache.keepOnly(Set(included.compactMap { item in head.blobs[item.file].map { BlameCache.Key(path: item.file, blob: $0) } }))
            if cache != before { FileSystem.writeCache(scratch.blameCache, cache.encoded()) }
            let fallback = headCommit.author.time
            let entries = included.map { item in
                let lines = times[item.file] ?? []
                let stamp = item.line >= 1 && item.line <= lines.count && lines[item.line - 1] > 0 ? lines[item.line - 1] : fallback
                return CalendarFeed.Entry(item: item, stamp: stamp)
            }
            return CalendarFeedResult(bytes: feed.render(entries), count: entries.count, withoutID: withoutID)
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
        var body: [UInt8] = []
        body.appendNumber(times.count)
        for (key, lines) in times.sorted(by: { ($0.key.path, $0.key.blob.description) < ($1.key.path, $1.key.blob.description) }) {
            body.appendString(key.path)
            body += key.blob.bytes
            body.appendNumber(lines.count)
            for time in lines { body.appendNumber(Int(time)) }
        }
        var sum = ItemsCache.checksum(body[...])
        var out = Self.format
        for _ in 0..<8 {
            out.append(UInt8(truncatingIfNeeded: sum))
            sum >>= 8
        }
        return out + body
    }

    init?(decoding bytes: [UInt8]) {
        let start = Self.format.count + 8
        guard bytes.count >= start, bytes[..<Self.format.count].elementsEqual(Self.format) else { return nil }
        var sum: UInt64 = 0
        for (offset, byte) in bytes[Self.format.count..<start].enumerated() { sum |= UInt64(byte) << UInt64(8 * offset) }
        guard ItemsCache.checksum(bytes[start...]) == sum else { return nil }
        var reader = ByteReader(bytes: bytes[...], at: start)
        guard let count = reader.number(), count <= bytes.count else { return nil }
        for _ in 0..<count {
            guard let path = reader.string(), let blob = reader.take(20).flatMap(OID.init(rawBytes:)), let lines = reader.number(), lines <= bytes.count
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
    /// A Markdown file is refused: it may be a list.
    public func writeFeed(_ bytes: [UInt8], to given: String) throws(TodoSyncError) -> Bool {
        let path = given.hasPrefix("/") ? given : startDirectory + "/" + given
        if ListFileSelector.markdown.contains(where: { path.lowercased().hasSuffix($0.dropFirst()) }) {
            throw TodoSyncError("\(given) is a Markdown file, which may be a list: the feed is not written over it; nothing was changed", hint: "name a file ending in .ics, such as todo.ics")
        }
        if FileSystem.kind(of: path) == .directory {
            throw TodoSyncError("\(given) is a folder; nothing was written", hint: "name a file in it: \(given.hasSuffix("/") ? given : given + "/")todo.ics")
        }
        if let current = try? FileSystem.read(path), current == bytes { return false }
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
                try calendarFeed(kind: events ? .events : .todos, all: false, name: setting["todosync.icsName"] ?? "todosync")
            }
            _ = try writeFeed(feed.bytes, to: path)
        } catch {
            notice("the calendar feed \(path) (git config \(Self.feedFileKey)) was not written: \(error.message)" + (error.hint.map { "; \($0)" } ?? ""))
        }
    }

    /// A path as git config gives it: `~/` is the home folder; relative, from the working tree.
    static func configuredPath(_ value: String, root: String) -> String {
        let expanded = ProcessEnvironment.expandingHome(value)
        return expanded.hasPrefix("/") ? expanded : root + "/" + expanded
    }
}
