/// A value for each of the three versions a merge reads, any of them missing: the merge asks
/// this per line, where a dictionary cost an allocation and a hash each time.
struct BySide<Value> {
    private var slots: (Value?, Value?, Value?) = (nil, nil, nil)

    subscript(side: MergeSide) -> Value? {
        get {
            switch side {
            case .base: slots.0
            case .ours: slots.1
            case .theirs: slots.2
            }
        }
        set {
            switch side {
            case .base: slots.0 = newValue
            case .ours: slots.1 = newValue
            case .theirs: slots.2 = newValue
            }
        }
    }

    /// The values present, in the order base, ours, theirs.
    var values: [Value] { [slots.0, slots.1, slots.2].compactMap { $0 } }
}
