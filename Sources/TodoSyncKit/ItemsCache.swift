import GitStore
import TodoModel

/// Derived data: the parsed items of list files, keyed by blob, so a command that needs the
/// items of thousands of unchanged notes (`list`) does not read and parse them again.
///
/// Two tables: each file's stat as it was read, with the blob id of its bytes (as git's index
/// keeps them); and for each blob, its items (`ItemRecords`). An entry is used only while the
/// file's stat is exactly as recorded, and only files left alone for `Workspace.settleTime`
/// before the reading are recorded (a later change shows in the stat, as git's index relies
/// on). A checksum covers the whole file: a file that is missing, truncated, damaged, of
/// another format or written by another build of todosync (which may parse otherwise) reads
/// as empty, and the files are read instead. Safe to delete at any time.
struct ItemsCache: Sendable {
    struct Entry: Equatable {
        var stat: FileStat
        var blob: OID
    }

    static let format = Array("todosync items 1\n".utf8)

    private(set) var paths: [String: Entry] = [:]
    private(set) var records: [OID: ArraySlice<UInt8>] = [:]

    init() {}

    /// The record of the file at `path` while its stat is `stat`, if one is kept.
    func record(at path: String, stat: FileStat) -> ArraySlice<UInt8>? {
        guard let entry = paths[path], entry.stat == stat else { return nil }
        return records[entry.blob]
    }

    mutating func set(_ path: String, stat: FileStat, blob: OID, record: [UInt8]) {
        paths[path] = Entry(stat: stat, blob: blob)
        if records[blob] == nil { records[blob] = record[...] }
    }

    /// Keeps the entries of `kept` paths and the records they use.
    mutating func keepOnly(_ kept: Set<String>) {
        paths = paths.filter { kept.contains($0.key) }
        let used = Set(paths.values.map(\.blob))
        records = records.filter { used.contains($0.key) }
    }

    // MARK: The file

    /// `format`, a checksum of the rest, then the program that wrote it, the paths and the
    /// records. `program` names the todosync build (its file's stamp): another build may
    /// parse otherwise, so a cache it wrote is not read.
    func encoded(program: String) -> [UInt8] {
        var body = CacheFile.start(
            Self.format, reservingCapacity: paths.count * 80 + records.values.reduce(0) { $0 + $1.count + 24 })
        body.appendString(program)
        body.appendNumber(paths.count)
        for (path, entry) in paths {
            body.appendString(path)
            let stat = entry.stat
            for number in [
                UInt32(bitPattern: stat.ctime.seconds), stat.ctime.nanoseconds, UInt32(bitPattern: stat.mtime.seconds),
                stat.mtime.nanoseconds,
                stat.device, stat.inode, stat.userID, stat.groupID, stat.size,
            ] {
                body.appendNumber(Int(number))
            }
            body += entry.blob.bytes
        }
        body.appendNumber(records.count)
        for (blob, record) in records {
            body += blob.bytes
            body.appendNumber(record.count)
            body += record
        }
        CacheFile.seal(&body, format: Self.format)
        return body
    }

    /// The cache a file holds, if `program` wrote it; nil for anything but a whole cache of
    /// this format.
    init?(decoding bytes: [UInt8], program: String) {
        guard var reader = CacheFile.open(bytes, format: Self.format), reader.string() == program,
            let pathCount = reader.number(), pathCount <= bytes.count
        else { return nil }
        paths.reserveCapacity(pathCount)
        for _ in 0..<pathCount {
            guard let path = reader.string() else { return nil }
            var numbers: [UInt32] = []
            for _ in 0..<9 {
                guard let number = reader.number() else { return nil }
                numbers.append(UInt32(number))
            }
            guard let blob = reader.take(20).flatMap(OID.init(rawBytes:)) else { return nil }
            let stat = FileStat(
                ctime: Timestamp(seconds: Int32(bitPattern: numbers[0]), nanoseconds: numbers[1]),
                mtime: Timestamp(seconds: Int32(bitPattern: numbers[2]), nanoseconds: numbers[3]),
                device: numbers[4], inode: numbers[5], userID: numbers[6], groupID: numbers[7], size: numbers[8])
            paths[path] = Entry(stat: stat, blob: blob)
        }
        guard let recordCount = reader.number(), recordCount <= bytes.count else { return nil }
        records.reserveCapacity(recordCount)
        for _ in 0..<recordCount {
            guard let blob = reader.take(20).flatMap(OID.init(rawBytes:)), let length = reader.number(),
                let record = reader.take(length)
            else { return nil }
            records[blob] = record
        }
        guard reader.index == bytes.endIndex else { return nil }
    }

    /// A 64-bit checksum, eight bytes a step: it tells a damaged or truncated file, not an
    /// attack (the file is the user's own, in their git directory).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 32
                offset += 8
            }
            var tail: UInt64 = 0
            for index in offset..<raw.count { tail = tail << 8 | UInt64(raw[index]) }
            hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
            return hash ^ hash >> 29
        }
    }
}
