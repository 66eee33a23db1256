/// The two sides of a file git's line merge left with conflict markers:
///
///     <<<<<<< ours
///     our lines
///     ||||||| base        (diff3 and zdiff3 styles only)
///     the base's lines
///     =======
///     their lines
///     >>>>>>> theirs
///
/// Each side is the whole file with every conflict taken its way, so the lines outside the
/// conflicts (both sides' changes git merged, and anything edited there since) are in both.
public struct ConflictSides: Hashable, Sendable {
    public var ours: [UInt8]
    public var theirs: [UInt8]

    public enum Failure: Error, Hashable, Sendable {
        /// A conflict opened on this line (1-based) is not closed where git closes one.
        case unclosed(line: Int)
    }

    /// The sides of `bytes`, whose markers are `markerSize` characters long (git's
    /// `conflict-marker-size` attribute, 7 unless set); both sides are the file itself when it
    /// holds no conflict.
    public init(splitting bytes: [UInt8], markerSize: Int = 7) throws(Failure) {
        enum Part { case outside, ours, base, theirs }
        var part = Part.outside
        var (ours, theirs) = ([UInt8](), [UInt8]())
        var opened = 0
        func append(_ line: ListLine, to side: inout [UInt8]) {
            side.append(contentsOf: line.content)
            side.append(contentsOf: line.ending.bytes)
        }
        for (index, line) in ListLine.split(bytes).enumerated() {
            let content = line.content
            switch part {
            case .outside:
                if Self.isMarker(content, UInt8(ascii: "<"), markerSize, labelled: true) {
                    part = .ours
                    opened = index + 1
                    continue
                }
                append(line, to: &ours)
                append(line, to: &theirs)
            case .ours:
                if Self.isMarker(content, UInt8(ascii: "|"), markerSize, labelled: true) { part = .base; continue }
                if Self.isMarker(content, UInt8(ascii: "="), markerSize, labelled: false) { part = .theirs; continue }
                append(line, to: &ours)
            case .base:
                if Self.isMarker(content, UInt8(ascii: "="), markerSize, labelled: false) { part = .theirs }
            case .theirs:
                if Self.isMarker(content, UInt8(ascii: ">"), markerSize, labelled: true) { part = .outside; continue }
                append(line, to: &theirs)
            }
        }
        guard part == .outside else { throw .unclosed(line: opened) }
        (self.ours, self.theirs) = (ours, theirs)
    }

    /// `size` times `character`, then the end of the line or (where git writes a label) a space.
    private static func isMarker(_ content: ArraySlice<UInt8>, _ character: UInt8, _ size: Int, labelled: Bool) -> Bool
    {
        guard content.count >= size, content.prefix(size).allSatisfy({ $0 == character }) else { return false }
        let rest = content.dropFirst(size)
        return rest.isEmpty || (labelled && rest.first == UInt8(ascii: " "))
    }
}
