#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The order git keeps paths in (its index, its trees read as full paths): by their bytes.
/// Swift's `<` on `String` compares canonically equivalent text as equal, which a file system
/// does not; tables of a vault's paths are kept and joined in this order instead.
public enum PathOrder {
    /// Negative, zero or positive as `a` sorts before, with or after `b`, byte by byte.
    public static func compare(_ a: String, _ b: String) -> Int {
        let fast = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in compare(x, y) }
        }
        if let result = fast ?? nil { return result }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : a.utf8.elementsEqual(b.utf8) ? 0 : 1
    }

    public static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let result = memcmp(x, y, common)
            if result != 0 { return Int(result) }
        }
        return a.count - b.count
    }

    public static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    /// Whether `paths` are in this order, each once.
    public static func isStrictlySorted(_ paths: [String]) -> Bool {
        zip(paths, paths.dropFirst()).allSatisfy { compare($0, $1) < 0 }
    }

    /// The position of `path` in `paths`, kept in this order; nil if it is not there.
    public static func position(of path: String, in paths: [String]) -> Int? {
        position(of: path, count: paths.count) { paths[$0] }
    }

    /// The position of `path` among `count` elements kept in this order by their paths
    /// (`pathAt`), found by bisection; nil if it is not there.
    public static func position(of path: String, count: Int, pathAt: (Int) -> String) -> Int? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            let order = compare(pathAt(middle), path)
            if order == 0 { return middle }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
