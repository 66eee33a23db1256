/// A set of ids kept as 64-bit fingerprints: it answers "maybe held" or "surely not held".
///
/// For the merge in pieces, which only asks whether base holds an id somewhere and needs base's
/// ids unique: a table of whole ids and node numbers took 6.3 MB at 100,000 items, filled in
/// random order, where this takes 2 MB. A false "maybe" (two ids with one fingerprint, about
/// once in 10^9 merges of 100,000 items) only sends the merge the slower, whole way.
struct IDFingerprints {
    /// Open addressing, linear probing; 0 is an empty slot (a fingerprint is never 0).
    private var slots: [UInt64]
    private let mask: Int

    /// Every identified item of `lists`; nil if two share a fingerprint (a repeated id, or a
    /// rare collision): the caller cannot then tell that every id is unique.
    init?(_ lists: ListSet) {
        let count = lists.documents.values.reduce(0) { $0 + $1.nodeCount }
        // At least twice the ids: probes stay short (a load of 0.4 to 0.5).
        var capacity = 16
        while capacity < 2 * count { capacity *= 2 }
        mask = capacity - 1
        slots = [UInt64](repeating: 0, count: capacity)
        let unique = slots.withUnsafeMutableBufferPointer { table in
            for document in lists.documents.values {
                for node in 0..<document.nodeCount {
                    guard let id = document.id(ofNode: node) else { continue }
                    guard Self.insert(Self.fingerprint(id), into: table, mask: mask) else { return false }
                }
            }
            return true
        }
        guard unique else { return nil }
    }

    /// False only if no id of the set is `id`.
    func mayContain(_ id: ItemID) -> Bool {
        let print = Self.fingerprint(id)
        var slot = Int(truncatingIfNeeded: print) & mask
        while slots[slot] != 0 {
            if slots[slot] == print { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    /// False if the fingerprint is there already.
    private static func insert(_ print: UInt64, into table: UnsafeMutableBufferPointer<UInt64>, mask: Int) -> Bool {
        var slot = Int(truncatingIfNeeded: print) & mask
        while table[slot] != 0 {
            if table[slot] == print { return false }
            slot = (slot + 1) & mask
        }
        table[slot] = print
        return true
    }

    private static func fingerprint(_ id: ItemID) -> UInt64 {
        let hash = UInt64(UInt(bitPattern: mixedHash(id.high, id.low, seed: 0)))
        return hash == 0 ? 1 : hash
    }
}
