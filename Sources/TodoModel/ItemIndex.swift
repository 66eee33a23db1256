#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an item stands in a `ListSet`, found without building a `TodoItem`.
struct ItemRef: Hashable, Sendable {
    var path: String
    var node: Int
    var parent: ItemID?
    /// Index among the items with the same parent in the same file.
    var position: Int
}

extension ListSet {
    /// Every identified item's place, in path order then file order; a later copy of an id is left out.
    ///
    /// - Complexity: O(n) and no strings built: cheap enough to run on every command.
    func itemRefs() -> [(id: ItemID, ref: ItemRef)] {
        var result: [(id: ItemID, ref: ItemRef)] = []
        var seen = Set<ItemID>()
        for (path, document) in documents {
            let ids = document.nodeIDs
            result.reserveCapacity(result.count + ids.count)
            var siblingCount: [Int: Int] = [:]
            var topLevel = 0
            for (node, id) in ids.enumerated() {
                let parentNode = document.parent(ofNode: node)
                let position: Int
                if let parentNode {
                    position = siblingCount[parentNode, default: 0]
                    siblingCount[parentNode] = position + 1
                } else {
                    position = topLevel
                    topLevel += 1
                }
                guard let id, seen.insert(id).inserted else { continue }
                result.append((id, ItemRef(path: path, node: node, parent: parentNode.flatMap { ids[$0] }, position: position)))
            }
        }
        return result
    }

    /// Every id carried by an item of these lists.
    public var ids: Set<ItemID> {
        var result = Set<ItemID>()
        for document in documents.values { for id in document.nodeIDs { if let id { result.insert(id) } } }
        return result
    }

    /// The `TodoItem` at a place found by `itemRefs()`.
    func item(at ref: ItemRef) -> TodoItem? {
        documents[ref.path]?.item(node: ref.node, position: ref.position)
    }
}

extension ListDocument {
    /// Whether two items' first lines and note lines hold the same bytes (then no field differs).
    func sameLines(node: Int, as other: ListDocument, node otherNode: Int) -> Bool {
        guard lines[nodeLine(node)].content.sameBytes(as: other.lines[other.nodeLine(otherNode)].content) else { return false }
        let mine = noteLines(ofNode: node), theirs = other.noteLines(ofNode: otherNode)
        return mine.count == theirs.count
            && zip(mine, theirs).allSatisfy { lines[$0].content.sameBytes(as: other.lines[$1].content) }
    }
}

extension ArraySlice<UInt8> {
    /// Whether the bytes are well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF). A hand loop: the standard library's check was 15%
    /// of `todosync status` on a list with an emoji on most lines.
    var isValidUTF8: Bool {
        withUnsafeBufferPointer { bytes in
            var index = 0
            let count = bytes.count
            while index < count {
                let lead = bytes[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                var low: UInt8 = 0x80, high: UInt8 = 0xBF
                let trailing: Int
                switch lead {
                case 0xC2...0xDF: trailing = 1
                case 0xE0: trailing = 2; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
                case 0xED: trailing = 2; high = 0x9F
                case 0xF0: trailing = 3; low = 0x90
                case 0xF1...0xF3: trailing = 3
                case 0xF4: trailing = 3; high = 0x8F
                default: return false
                }
                guard index + trailing < count, (low...high).contains(bytes[index + 1]) else { return false }
                for offset in stride(from: 2, through: trailing, by: 1) where bytes[index + offset] & 0xC0 != 0x80 { return false }
                index += trailing + 1
            }
            return true
        }
    }

    /// Whether every byte is below 0x80, checked eight bytes at a time.
    var isASCII: Bool {
        withUnsafeBytes { raw in
            var offset = 0
            var high: UInt64 = 0
            while offset + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            while offset < raw.count {
                high |= UInt64(raw[offset])
                offset += 1
            }
            return high & 0x8080_8080_8080_8080 == 0
        }
    }

    /// Byte equality by `memcmp`: several times faster than `==`, which compares element by element.
    func sameBytes(as other: ArraySlice<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return withUnsafeBufferPointer { mine in
            other.withUnsafeBufferPointer { theirs in memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0 }
        }
    }
}
