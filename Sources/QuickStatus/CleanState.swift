import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A note in the git directory that the working tree was found clean (nothing to commit, no
/// warning), with what `todosync status` then said and a stamp of every file and folder the
/// answer was drawn from: list files, Markdown files without items, every folder searched for
/// lists (a new file changes its folder's stamp), ignore files, git config, HEAD and the refs
/// behind it, the todosync executable. While every stamp still matches, the same answer holds,
/// and `status` gives it without starting libgit2 or reading a list.
///
/// A cache, never the truth: a note that is missing, damaged, written by another build or
/// about another folder, or any stamp that differs, only means the slow path runs.
public struct CleanState: Equatable, Sendable {
    public static let fileName = "todosync/cache/clean-state"
    static let format = "todosync clean-state 2"

    /// The working tree's root (absolute), as the engine saw it.
    public var root: String
    /// Each variable that steers where git looks for config (`HOME=/home/ann`).
    public var environment: [String]
    public var stamps: [FileStamp]
    /// The lines `status` printed.
    public var report: [String]
    /// Whether `todosync` (commit) would have run and found nothing to commit: no git
    /// operation in progress, HEAD on a branch. Then it too is answered from the note.
    public var commitReady: Bool

    public init(root: String, environment: [String], stamps: [FileStamp], report: [String], commitReady: Bool) {
        self.root = root
        self.environment = environment
        self.stamps = stamps
        self.report = report
        self.commitReady = commitReady
    }

    /// What plain `todosync` says when there is nothing to commit.
    public static let nothingToCommit = ["Nothing changed since the last commit."]

    /// The variables a note records: HOME and XDG_CONFIG_HOME (where git finds config) and
    /// every GIT_ variable, sorted.
    public static func currentEnvironment() -> [String]? {
        var found: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            if strncmp(pointer, "GIT_", 4) == 0 { found.append(String(cString: pointer)) }
            entry += 1
        }
        let places = ["HOME", "XDG_CONFIG_HOME"].map { name in
            name + "=" + (getenv(name).map { String(cString: $0) } ?? "")
        }
        return places + found.sorted()
    }

    /// The note in `root`'s git directory, if it still holds; nil: take the slow path.
    public static func note(forRoot root: String) -> CleanState? {
        guard let environment = currentEnvironment(), let bytes = readSmallFile(root + "/.git/" + fileName) else {
            return nil
        }
        // Each stamp checked as it is read, the most recently changed first: a file just edited
        // ends the check before the rest of a vault's note is read.
        return CleanState(decoding: bytes, holdingFor: root, in: environment, checkingRestOnTwoThreads: true) {
            FileStamp.take($0.path) == $0
        }
    }

    /// What `status` said, if the note in `root`'s git directory still holds.
    public static func report(forRoot root: String) -> [String]? {
        note(forRoot: root)?.report
    }

    /// What `command` (`status`, or `commit` for plain `todosync`) prints, run as if started in
    /// `directory`, if the note there still holds; nil: take the slow path. `directory` must
    /// be the working tree's root (a folder inside it takes the slow path).
    public static func answer(_ command: Command, in directory: String) -> [String]? {
        guard let root = physicalPath(directory), let note = note(forRoot: root) else { return nil }
        switch command {
        case .status: return note.report
        case .commit: return note.commitReady ? nothingToCommit : nil
        }
    }

    public enum Command: Sendable {
        case status, commit
    }

    /// The absolute path with no symbolic link, as the engine records the root; nil if it
    /// cannot be found.
    static func physicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// One record per line; nil if a path or line would need a line break (never written).
    public func encoded() -> [UInt8]? {
        var lines = [Self.format, "root " + root]
        lines += environment.map { "env " + $0 }
        lines += stamps.map(\.line)
        lines += report.map { "say " + $0 }
        if commitReady { lines.append("commit ready") }
        guard !lines.contains(where: { $0.contains("\n") }) else { return nil }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    public init?(decoding bytes: [UInt8]) {
        self.init(decoding: bytes, holdingFor: nil, in: nil, stampHolds: nil)
    }

    /// A note read back; with `expectedRoot` and `expectedEnvironment`, only if it is about
    /// them and every stamp holds (`stampHolds`), checked line by line: nil at the first that
    /// does not.
    /// `checkingRestOnTwoThreads`: past the first `checkedInOrder` stamps (the files most
    /// recently changed, most likely to have changed again), the rest are taken on two threads,
    /// as git's index preload does (a vault's note stamps tens of thousands of files).
    init?(
        decoding bytes: [UInt8], holdingFor expectedRoot: String?, in expectedEnvironment: [String]?,
        checkingRestOnTwoThreads: Bool = false, stampHolds: ((FileStamp) -> Bool)?
    ) {
        // NB: on the bytes: a vault's note holds a stamp line for each of thousands of files.
        guard bytes.last == 0x0A, let (first, afterFirst) = Self.line(in: bytes, from: 0),
            first.elementsEqual(Self.format.utf8),
            let (second, afterSecond) = Self.line(in: bytes, from: afterFirst), second.starts(with: Array("root ".utf8))
        else { return nil }
        self.init(
            root: String(decoding: second.dropFirst(5), as: UTF8.self), environment: [], stamps: [], report: [],
            commitReady: false)
        if let expectedRoot, root != expectedRoot { return nil }
        var start = afterSecond, placeChecked = false
        while let (line, next) = Self.line(in: bytes, from: start) {
            start = next
            let space = line.firstIndex(of: 0x20) ?? line.endIndex
            let key = line[..<space], rest = space < line.endIndex ? line[(space + 1)...] : line[space...]
            if let stamp = FileStamp(key: key, rest: rest) {
                // The environment lines come before the stamps.
                if !placeChecked, let expectedEnvironment {
                    guard environment == expectedEnvironment else { return nil }
                    placeChecked = true
                }
                if let stampHolds, !(checkingRestOnTwoThreads && stamps.count >= Self.checkedInOrder),
                    !stampHolds(stamp)
                {
                    return nil
                }
                stamps.append(stamp)
                continue
            }
            switch String(decoding: key, as: UTF8.self) {
            case "env": environment.append(String(decoding: rest, as: UTF8.self))
            case "say": report.append(String(decoding: rest, as: UTF8.self))
            case "commit":
                guard rest.elementsEqual("ready".utf8) else { return nil }
                commitReady = true
            default: return nil
            }
        }
        if !placeChecked, let expectedEnvironment, environment != expectedEnvironment { return nil }
        if checkingRestOnTwoThreads, stampHolds != nil, stamps.count > Self.checkedInOrder,
            !Self.allHold(stamps[Self.checkedInOrder...])
        {
            return nil
        }
    }

    static let checkedInOrder = 64

    /// Whether every stamp still holds, taken on two threads.
    static func allHold(_ stamps: ArraySlice<FileStamp>) -> Bool {
        let half = stamps.startIndex + stamps.count / 2
        nonisolated(unsafe) var second = false
        let group = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: group) {
            second = stamps[half...].allSatisfy { FileStamp.take($0.path) == $0 }
        }
        let first = stamps[..<half].allSatisfy { FileStamp.take($0.path) == $0 }
        group.wait()
        return first && second
    }

    /// The line starting at `start` (without its line break) and where the next one starts.
    private static func line(in bytes: [UInt8], from start: Int) -> (ArraySlice<UInt8>, Int)? {
        guard start < bytes.endIndex, let end = bytes[start...].firstIndex(of: 0x0A) else { return nil }
        return (bytes[start..<end], end + 1)
    }

    /// The largest note read (a stamp is a line of about a hundred bytes: a vault of 40,000
    /// notes writes megabytes); a larger one is never written.
    public static let maximumNoteSize = 64 << 20

    /// A file of at most `maximumNoteSize` bytes, or nil.
    static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size < maximumNoteSize else { return nil }
        // One byte more than the stat says, to see the end in one read.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            // NB: the loop runs only while `bytes` is not empty, so it has a base address.
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return Array(bytes[..<filled]) }
            filled += count
        }
        return nil
    }
}
