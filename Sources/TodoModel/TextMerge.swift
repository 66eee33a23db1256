/// Three-way merge of short texts (item titles) word by word.
///
/// Each side's edits are found as hunks against the base (a range of base words and what
/// replaced it). Hunks of the two sides that touch different words both apply, even when they
/// are neighbours: one side fixing a typo in the last word and the other appending a word
/// merge cleanly. Hunks that overlap, or insert different text at the same point, clash.
/// (Obsidian Tasks fields are not words: `ListMerger+Title.swift` merges them as fields.)
///
/// ```swift
/// TextMerge.merge(base: "Buy mlk", ours: "Buy milk", theirs: "Buy mlk today")
/// // .merged("Buy milk today")
/// ```
enum TextMerge {
    enum Outcome: Equatable {
        case merged(String)
        case clash
    }

    static func merge(base: String, ours: String, theirs: String) -> Outcome {
        if ours == theirs || theirs == base { return .merged(ours) }
        if ours == base { return .merged(theirs) }
        let baseWords = words(base), ourWords = words(ours), theirWords = words(theirs)
        let ourHunks = hunks(baseWords, ourWords)
        let theirHunks = hunks(baseWords, theirWords)

        var all: [Hunk] = []
        var j = 0
        for hunk in ourHunks {
            while j < theirHunks.count, theirHunks[j].base.lowerBound < hunk.base.lowerBound {
                all.append(theirHunks[j])
                j += 1
            }
            all.append(hunk)
        }
        all += theirHunks[j...]
        // The same edit on both sides counts once; any other pair that touches clashes.
        var applied: [Hunk] = []
        for hunk in all {
            if let last = applied.last, last.touches(hunk) {
                if last == hunk { continue }
                return .clash
            }
            applied.append(hunk)
        }
        var result: [Substring] = []
        var cursor = 0
        for hunk in applied {
            result += baseWords[cursor..<hunk.base.lowerBound]
            result += hunk.replacement
            cursor = hunk.base.upperBound
        }
        result += baseWords[cursor...]
        return .merged(result.joined())
    }

    struct Hunk: Equatable {
        var base: Range<Int>
        var replacement: [Substring]

        /// Whether two hunks edit the same words, or insert at the same point.
        func touches(_ other: Hunk) -> Bool {
            if base.isEmpty && other.base.isEmpty { return base.lowerBound == other.base.lowerBound }
            if base.isEmpty { return other.base.lowerBound < base.lowerBound && base.lowerBound < other.base.upperBound }
            if other.base.isEmpty { return base.lowerBound < other.base.lowerBound && other.base.lowerBound < base.upperBound }
            return base.overlaps(other.base)
        }
    }

    /// Runs of non-space characters and runs of spaces, so that joining them gives the text back.
    static func words(_ text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var inSpace: Bool?
        for index in text.indices {
            let space = text[index] == " " || text[index] == "\t"
            if let inSpace, inSpace != space {
                result.append(text[start..<index])
                start = index
            }
            inSpace = space
        }
        if start < text.endIndex { result.append(text[start...]) }
        return result
    }

    static func hunks(_ base: [Substring], _ side: [Substring]) -> [Hunk] {
        let matches = matchSequences(base, side)
        var result: [Hunk] = []
        var i = 0, j = 0
        while i < base.count || j < side.count {
            if i < base.count, let match = matches[i], match == j {
                i += 1
                j += 1
                continue
            }
            let start = i, sideStart = j
            while i < base.count, matches[i] == nil { i += 1 }
            let sideEnd = i < base.count ? (matches[i] ?? side.count) : side.count
            result.append(Hunk(base: start..<i, replacement: Array(side[sideStart..<sideEnd])))
            j = sideEnd
        }
        return result
    }
}
