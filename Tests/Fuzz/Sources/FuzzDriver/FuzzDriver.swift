#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's own driver, called from the target's main (SwiftPM gives every executable a
/// main of its own): it takes the command line (`-max_total_time=60 CORPUS`) and calls the
/// target with each input it makes.
public enum FuzzDriver {
    nonisolated(unsafe) static var body: (([UInt8]) -> Void)?

    public static func run(_ target: @escaping ([UInt8]) -> Void) -> Never {
        body = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                FuzzDriver.body?(Array(UnsafeBufferPointer(start: data, count: size)))
                return 0
            })
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Ways to read one fuzz input as several.
public enum FuzzInput {
    /// The input cut in two where its first byte says (a fraction of its length).
    public static func halves(_ bytes: [UInt8]) -> ([UInt8], [UInt8]) {
        guard let first = bytes.first else { return ([], []) }
        let rest = Array(bytes.dropFirst())
        let cut = rest.count * Int(first) / 255
        return (Array(rest[..<cut]), Array(rest[cut...]))
    }

    /// Whether `small`'s bytes all stand in `large`, in order.
    public static func isSubsequence(_ small: [UInt8], of large: [UInt8]) -> Bool {
        var index = 0
        for byte in large where index < small.count && small[index] == byte { index += 1 }
        return index == small.count
    }

    /// `bytes` without what may be todosync's id comments: from a `<!` that `id` and `:` follow
    /// (dashes and spaces between, any case: the parser takes a damaged comment as one) to its
    /// `-->`, or to the line's end where it has none. todosync owns those bytes and writes
    /// them whole.
    public static func strippingIDComments(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "!") {
                var cursor = index + 2
                while cursor < bytes.count, bytes[cursor] == UInt8(ascii: "-") || isSpace(bytes[cursor]) { cursor += 1 }
                if cursor + 1 < bytes.count, bytes[cursor] | 0x20 == UInt8(ascii: "i"),
                    bytes[cursor + 1] | 0x20 == UInt8(ascii: "d")
                {
                    cursor += 2
                    while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
                    if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") {
                        // To its `-->`, or where it has none (damaged), to the line's end.
                        var stop = cursor
                        while stop < bytes.count, bytes[stop] != 0x0A, bytes[stop] != 0x0D,
                            !(stop + 2 < bytes.count && bytes[stop] == 0x2D && bytes[stop + 1] == 0x2D
                                && bytes[stop + 2] == 0x3E)
                        {
                            stop += 1
                        }
                        index = stop + 2 < bytes.count && bytes[stop] == 0x2D ? stop + 3 : stop
                        continue
                    }
                }
            }
            out.append(bytes[index])
            index += 1
        }
        return out
    }

    /// A seeded generator (SplitMix64, as TestSupport's, which this package cannot reach): the
    /// same input, the same ids.
    public struct Generator: RandomNumberGenerator {
        var state: UInt64
        public init(seed: UInt64) { state = seed }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
