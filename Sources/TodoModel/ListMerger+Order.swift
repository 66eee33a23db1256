/// Ordering a merged container.
///
/// Entries that neither side moved keep base's order (the skeleton). Each entry a side added or
/// moved is anchored to the entry before it on that side, and is placed right after that anchor:
///
/// ```
/// base:    A       B             skeleton: A B
/// ours:    A X     B             X after A (ours)
/// theirs:  A Y  B  Z             Y after A (theirs), Z after B (theirs)
/// merged:  A X Y   B Z           X and Y share an anchor: ordered by content, not by side
/// ```
///
/// Two entries with one anchor are ordered by their own content (an item's id, a line's text),
/// so the result does not depend on which side runs the merge. The same new line on both sides
/// is kept once. Both sides replacing the same line with different text is a clash: both
/// versions stay, between marker comments.
extension ListMerger {
    enum Anchor: Hashable {
        case start
        case after(Token)
    }

    static let clashStart = 0, clashMiddle = 1, clashEnd = 2
    static let clashMarkers: [[UInt8]] = [ClashMarker.startLine, ClashMarker.middleLine, ClashMarker.endLine]

    /// The merged container's tokens in order, and whether a clash was marked. `owner`: the
    /// number of the item whose body this is (nil for a file).
    mutating func mergedOrder(of key: ContainerKey, owner: Int?, members: [Int]) -> (tokens: [Token], clashed: Bool) {
        // Most items hold no notes and no children in any version: nothing to order.
        if members.isEmpty, let owner,
            [MergeSide.base, .ours, .theirs].allSatisfy({ body($0, owner)?.entries.isEmpty ?? true })
        {
            return ([], false)
        }
        let sides = sides(of: key)
        var children: [MergeSide: [Anchor: Token]] = [.ours: [:], .theirs: [:]]
        for side in [MergeSide.ours, .theirs] {
            var anchor = Anchor.start
            for token in sides.sequence(side) where isMember(token, key, sides) {
                let decidedBy = decider(token, sides)
                if decidedBy == side {
                    children[side]?[anchor] = token
                    anchor = .after(token)
                } else if decidedBy == .base || placedBy(side, token, sides) {
                    // NB: an entry both sides added or moved is an anchor for both, so what
                    // each side put after it stays after it.
                    anchor = .after(token)
                }
            }
        }
        let ours = children[.ours] ?? [:], theirs = children[.theirs] ?? [:]

        enum Work {
            case after([Anchor])
            case emit(Token)
        }
        var work: [Work] = []
        for token in sides.base.reversed() where isMember(token, key, sides) && decider(token, sides) == .base {
            work.append(.after([.after(token)]))
            work.append(.emit(token))
        }
        work.append(.after([.start]))

        var result: [Token] = []
        var emitted = Set<Int>()
        var clashed = false
        while let next = work.popLast() {
            switch next {
            case .emit(let token):
                result.append(token)
                if case .item(let number) = token { emitted.insert(number) }
            case .after(let anchors):
                let mine = anchors.lazy.compactMap { ours[$0] }.first
                let other = anchors.lazy.compactMap { theirs[$0] }.first
                switch (mine, other) {
                case (nil, nil):
                    continue
                case (let single?, nil), (nil, let single?):
                    work.append(.after([.after(single)]))
                    work.append(.emit(single))
                case (let x?, let y?):
                    if sameNewLine(x, y, key) {
                        work.append(.after([.after(x), .after(y)]))
                        work.append(.emit(x))
                        continue
                    }
                    let (first, second) =
                        orderKey(x, key).lexicographicallyPrecedes(orderKey(y, key))
                            == (key.isFile || isLine(x) == isLine(y)) ? (x, y) : (y, x)
                    let clash = isLine(x) && isLine(y) && replacedOnBothSides(after: anchors, sides)
                    if clash && keepingOurs {
                        // Ours' line only; what follows theirs' line still comes, after ours'.
                        clashed = true
                        work.append(.after([.after(y)]))
                        work.append(.after([.after(x)]))
                        work.append(.emit(x))
                        continue
                    }
                    if clash {
                        clashed = true
                        work.append(.emit(.marker(Self.clashEnd)))
                    }
                    work.append(.after([.after(second)]))
                    work.append(.emit(second))
                    if clash { work.append(.emit(.marker(Self.clashMiddle))) }
                    work.append(.after([.after(first)]))
                    work.append(.emit(first))
                    if clash { work.append(.emit(.marker(Self.clashStart))) }
                }
            }
        }
        // NB: every kept item placed here is emitted above; this only guards against a loop
        // broken by `breakCycles`, whose items no side's order holds at their new place.
        let unemitted = members.filter { !emitted.contains($0) }
        for number in unemitted.sorted(by: { numbering.ids[$0] < numbering.ids[$1] }) { result.append(.item(number)) }
        return (result, clashed)
    }

    func isMember(_ token: Token, _ key: ContainerKey, _ sides: ContainerSides) -> Bool {
        switch token {
        case .item(let number): kept[number] && placement[number]?.container == key
        case .line(.base, let index): sides.oursMatch[index] != nil && sides.theirsMatch[index] != nil
        case .line, .marker: true
        }
    }

    func decider(_ token: Token, _ sides: ContainerSides) -> MergeSide {
        switch token {
        case .item(let number): placement[number]?.side ?? .base
        case .line(.base, _): sides.moved(token, on: .ours) ? .ours : sides.moved(token, on: .theirs) ? .theirs : .base
        case .line(let side, _): side
        case .marker: .base
        }
    }

    /// Whether a side added or moved this entry (whoever's place the merge took).
    private func placedBy(_ side: MergeSide, _ token: Token, _ sides: ContainerSides) -> Bool {
        switch token {
        case .item(let number):
            guard let mine = version(side, number) else { return false }
            guard let old = version(.base, number) else { return true }
            return mine.container != old.container || sides.moved(token, on: side)
        case .line: return sides.moved(token, on: side)
        case .marker: return false
        }
    }

    func lineContent(_ token: Token, _ key: ContainerKey) -> MergeLayout.Line? {
        guard case .line(let side, let index) = token else { return nil }
        return layout(side).container(key)?.lines[index]
    }

    private func isLine(_ token: Token) -> Bool {
        if case .line = token { true } else { false }
    }

    /// Two lines new on each side with the same text: one line.
    private func sameNewLine(_ x: Token, _ y: Token, _ key: ContainerKey) -> Bool {
        guard case .line(let a, _) = x, case .line(let b, _) = y, a != .base, b != .base else { return false }
        return lineContent(x, key)?.relative == lineContent(y, key)?.relative
    }

    /// What orders two entries with one anchor: items by id, lines by text; in a file, items
    /// before lines (a new item continues the list it follows; new prose after it starts
    /// something else); in an item, lines before items (notes come before children), and
    /// blank lines after the other lines: a note line one side wrote without indentation
    /// continues the item's paragraph only while no blank line comes between.
    private func orderKey(_ token: Token, _ key: ContainerKey) -> [UInt8] {
        switch token {
        case .item(let number):
            let id = numbering.ids[number]
            var bytes: [UInt8] = [0]
            withUnsafeBytes(of: id.high.bigEndian) { bytes += $0 }
            withUnsafeBytes(of: id.low.bigEndian) { bytes += $0 }
            return bytes
        case .line:
            let text = lineContent(token, key)?.relative ?? []
            let blankInItem = !key.isFile && text.allSatisfy(\.isSpaceOrTab)
            return [blankInItem ? 3 : 1] + text
        case .marker:
            return [2]
        }
    }

    /// Whether the base line right after the anchor was removed by both sides (so both
    /// replaced it).
    private func replacedOnBothSides(after anchors: [Anchor], _ sides: ContainerSides) -> Bool {
        anchors.contains { anchor in
            let position: Int?
            switch anchor {
            case .start: position = 0
            case .after(let token): position = sides.basePosition[token].map { $0 + 1 }
            }
            guard let position, position < sides.base.count, case .line(.base, let index) = sides.base[position] else {
                return false
            }
            return sides.oursMatch[index] == nil && sides.theirsMatch[index] == nil
        }
    }
}

extension ContainerKey {
    var isFile: Bool {
        if case .file = self { true } else { false }
    }
}
