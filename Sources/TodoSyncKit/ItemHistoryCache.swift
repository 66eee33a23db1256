import GitStore
import TodoModel

/// Derived data: the commits found to change one item, up to the commit searched from
/// (`tip`), so `todosync history` asked again searches only the commits made since.
///
/// It is never trusted over git: each commit it names is looked at again (git says what the
/// commit did to the item), and it is used only while its tip is still in HEAD's history (a
/// reset or an amend that dropped it makes the search start over). A checksum covers the
/// file: one missing, truncated, damaged or of another format reads as nothing, and history
/// is searched whole. Safe to delete at any time.
struct ItemHistoryCache: Equatable {
    static let format = Array("todosync item history 1\n".utf8)

    var item: ItemID
    /// The commit the search started from: every commit it holds was searched.
    var tip: OID
    /// The commits that changed the item, as found.
    var commits: [OID]

    func encoded() -> [UInt8] {
        var out = CacheFile.start(Self.format, reservingCapacity: 64 + commits.count * 20)
        out.appendString(item.description)
        out += tip.bytes
        out.appendNumber(commits.count)
        for commit in commits { out += commit.bytes }
        CacheFile.seal(&out, format: Self.format)
        return out
    }

    /// The cache `bytes` hold for `item`; nil for anything but a whole cache of this format.
    init?(decoding bytes: [UInt8], item: ItemID) {
        guard var reader = CacheFile.open(bytes, format: Self.format), reader.string() == item.description,
            let tip = reader.take(20).flatMap(OID.init(rawBytes:)),
            let count = reader.number(), count <= bytes.count / 20
        else { return nil }
        var commits: [OID] = []
        for _ in 0..<count {
            guard let commit = reader.take(20).flatMap(OID.init(rawBytes:)) else { return nil }
            commits.append(commit)
        }
        guard reader.index == bytes.endIndex else { return nil }
        self.init(item: item, tip: tip, commits: commits)
    }

    init(item: ItemID, tip: OID, commits: [OID]) {
        self.item = item
        self.tip = tip
        self.commits = commits
    }
}

extension ScratchFolder {
    /// Where the item history cache of `item` is kept.
    func itemHistoryCache(_ item: ItemID) -> String { cache + "/history-" + item.description.lowercased() }
}
