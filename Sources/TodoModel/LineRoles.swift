/// Every line's role, four bytes each (an array of `LineRole` takes sixteen per line).
struct LineRoles: Sendable, RandomAccessCollection {
    /// 0: prose; n + 1: the head of node n; -(n + 1): a note of node n.
    private var raw: [Int32]

    init(count: Int) {
        raw = [Int32](repeating: 0, count: count)
    }

    /// Takes `other`'s roles of `range`, each `lineShift` lines further on and its node index
    /// moved by `nodeShift`.
    mutating func copy(_ other: LineRoles, lines range: Range<Int>, movedBy lineShift: Int, renumberedBy nodeShift: Int)
    {
        let shift = Int32(nodeShift)
        raw.withUnsafeMutableBufferPointer { target in
            other.raw.withUnsafeBufferPointer { source in
                for line in range {
                    let value = source[line]
                    target[line + lineShift] = value > 0 ? value + shift : value < 0 ? value - shift : 0
                }
            }
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { raw.count }

    subscript(line: Int) -> LineRole {
        get {
            let value = raw[line]
            return value == 0 ? .prose : value > 0 ? .head(Int(value) - 1) : .note(Int(-value) - 1)
        }
        set {
            switch newValue {
            case .prose: raw[line] = 0
            case .head(let node): raw[line] = Int32(node + 1)
            case .note(let node): raw[line] = -Int32(node + 1)
            }
        }
    }
}
