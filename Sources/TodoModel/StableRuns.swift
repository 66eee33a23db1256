/// Runs of top-level items that neither side touched, folded into one placeholder item each
/// before the item-by-item merge and unfolded after it, so a merge costs what the edits cost
/// rather than what the lists hold.
///
/// A pass around the merge, not part of it: the merge reads the folded lists as any others.
/// A run is a sequence of whole top-level blocks (an item, its body, and the lines up to the
/// next top-level item) that all three versions hold byte for byte, in the same order, in the
/// same file, whose ids occur nowhere else. Such a block parses the same whatever surrounds it
/// (it starts with a top-level item, which closes every open block), and the merge would copy
/// it unchanged; the placeholder stands for it in the merge's ordering. A file is folded only
/// where neither side reorders base's top-level items, so no placeholder can move; each must
/// come out of the merge once, in order and unchanged, or the merge runs again unfolded. The
/// property tests check the folded merge against the whole one.
struct StableRuns {
    struct Run {
        var path: String
        var id: ItemID
        /// The placeholder's item line, then an empty line if the run ends where text written
        /// after it would not continue its last line (a blank line, a heading): the merge
        /// must read the end of the placeholder as it would read the end of the run.
        var placeholder: [ListLine]
        var lines: ArraySlice<ListLine>
    }

    private(set) var runs: [Run] = []
    private(set) var base = ListSet(), ours = ListSet(), theirs = ListSet()
    /// Base's files that runs were taken from, whose parse the unfolded files reuse.
    private var unfoldedBase: [String: ListDocument] = [:]
    /// Base's ids by node number (across its files), and the nodes runs folded away.
    private var taken: [ItemID: Int] = [:]
    private var hiddenNodes: [Bool] = []

    /// The folded versions, or nil if no run is worth folding or a side shows a folded id.
    init?(base: ListSet, ours: ListSet, theirs: ListSet) {
        // Ids must be unique for a folded id to be nowhere else: base is checked whole, each
        // side for the folded ids it still shows (a pasted copy of an untouched item).
        guard let taken = Self.numbering(base) else { return nil }
        // Base's nodes (numbered across its files as `taken` numbers them) that a run folds away.
        var hiddenNodes = [Bool](repeating: false, count: taken.nodeCount)
        var folded: [[ListDocument]] = [[], [], []]
        for (path, baseDocument) in base.documents {
            guard let oursDocument = ours[path], let theirsDocument = theirs[path] else { continue }
            // Endings decide how the merge writes lines it changes: folding must not shift them.
            // NB: each is counted once: a count reads every line of a large file.
            let ending = baseDocument.dominantEnding
            guard oursDocument.dominantEnding == ending, theirsDocument.dominantEnding == ending else { continue }
            let versions = [baseDocument, oursDocument, theirsDocument]
            guard
                let found = Self.findRuns(
                    versions, fileSpace: Self.fileSpace(path), isTaken: { taken.node[$0] != nil }),
                !found.isEmpty, let foldedVersions = Self.fold(versions, found),
                foldedVersions.allSatisfy({ $0.dominantEnding == ending })
            else { continue }
            for index in folded.indices { folded[index].append(foldedVersions[index]) }
            runs += found.map(\.run)
            unfoldedBase[path] = baseDocument
            let first = taken.firstNode[path] ?? 0  // NB: every base file is numbered.
            for run in found { for node in run.nodes { hiddenNodes[first + node] = true } }
        }
        guard !runs.isEmpty else { return nil }
        var versions = [base, ours, theirs]
        for index in versions.indices {
            for document in folded[index] { versions[index][document.path] = document }
        }
        (self.base, self.ours, self.theirs) = (versions[0], versions[1], versions[2])
        (self.taken, self.hiddenNodes) = (taken.node, hiddenNodes)
        // A side that still shows a folded id holds it twice: only the whole merge reads that right.
        guard !Self.shows(self.ours, anyOf: hides), !Self.shows(self.theirs, anyOf: hides) else { return nil }
    }

    private static func shows(_ lists: ListSet, anyOf hidden: (ItemID) -> Bool) -> Bool {
        lists.documents.values.contains { document in
            (0..<document.nodeCount).contains { document.id(ofNode: $0).map(hidden) ?? false }
        }
    }

    /// Whether a run folded this id away.
    ///
    /// NB: asked only for the folded sides' ids, a few where most folds: a lookup in a table of
    /// every base id missed the caches at 100,000 items.
    func hides(_ id: ItemID) -> Bool {
        taken[id].map { hiddenNodes[$0] } ?? false
    }

    /// The merge of the folded lists with every run back in place; nil if a placeholder did
    /// not come out of it exactly once, in its file, in order and unchanged.
    func unfold(_ merged: ListSet) -> ListSet? {
        var placeholders = Placeholders(runs)
        var documents: [ListDocument] = []
        let unfoldedCount = Dictionary(grouping: runs, by: \.path).mapValues {
            $0.reduce(0) { $0 + $1.lines.count - $1.placeholder.count }
        }
        for document in merged.documents.values {
            guard let extra = unfoldedCount[document.path] else {
                documents.append(document)
                continue
            }
            var lines: [ListLine] = []
            // NB: exactly: growing by doubling copied a large file's lines twice more.
            lines.reserveCapacity(document.lines.count + extra)
            var spans: [ListParser.KnownSpan] = []
            guard placeholders.unfold(document, base: unfoldedBase[document.path], into: &lines, spans: &spans) else {
                return nil
            }
            // NB: the runs' lines are base's, parsed there: only the lines around them are read again.
            documents.append(ListDocument(path: document.path, lines: lines, splicing: spans))
        }
        guard placeholders.allSeen else { return nil }
        return ListSet(documents)
    }

    /// The runs' placeholders, found by their lines in a merged file and put back as the runs.
    struct Placeholders {
        let runs: [Run]
        private var byContent: [ArraySlice<UInt8>: Int] = [:]
        private var seen: [Bool]

        init(_ runs: [Run]) {
            self.runs = runs
            byContent.reserveCapacity(runs.count)
            for (index, run) in runs.enumerated() { byContent[run.placeholder[0].content] = index }
            seen = [Bool](repeating: false, count: runs.count)
        }

        var allSeen: Bool { !seen.contains(false) }

        /// Appends the merged file's lines to `lines`, each placeholder replaced by its run (a
        /// span of `base`'s parse, if given); false if a placeholder came out twice, in another
        /// file, out of order or changed.
        mutating func unfold(
            _ document: ListDocument, base: ListDocument?, into lines: inout [ListLine],
            spans: inout [ListParser.KnownSpan]
        ) -> Bool {
            var previous: Int?
            var next = document.lines.startIndex
            while next < document.lines.endIndex {
                let line = document.lines[next]
                // NB: every line of the merged files passes here: hashing its bytes is left to the few that could be placeholders.
                guard line.content.starts(with: StableRuns.placeholderLead), let index = byContent[line.content] else {
                    lines.append(line)
                    next += 1
                    continue
                }
                let placeholder = runs[index].placeholder
                // Runs are numbered in file order: a placeholder out of it was moved.
                guard !seen[index], runs[index].path == document.path, previous.map({ $0 < index }) ?? true,
                    document.lines[next...].starts(with: placeholder)
                else { return false }
                seen[index] = true
                previous = index
                next += placeholder.count
                let run = runs[index].lines
                if let base {
                    spans.append(
                        ListParser.KnownSpan(
                            start: lines.count, known: base, knownStart: run.startIndex, count: run.count))
                }
                // NB: endings need no mending: the merge's render gives every line but the last
                // one, so a run's last line lacks one only where its placeholder (matched with
                // its ending) came last.
                lines += run
            }
            return true
        }
    }

    // MARK: - Finding runs

    /// A run, where it sits in each version (line ranges), and base's nodes it holds.
    struct Found {
        var run: Run
        var ranges: [Range<Int>]
        var nodes: Range<Int>
    }

    /// A top-level block of one version: its item and its lines.
    struct Block {
        var id: ItemID
        var lines: Range<Int>
        var nodes: Range<Int>
    }

    /// Where a side holds each of base's blocks: found by walking both in step (the next block
    /// is usually the next one), by a lookup table only where the side added, removed or moved.
    private struct BlockLocator {
        let blocks: [Block]
        var next = 0
        var table: [ItemID: Int]?
        /// The place of the block asked for last, and whether places ever went back: asked in
        /// base's order, they go back where the side reordered base's blocks.
        var last = -1
        var reordered = false

        init(_ blocks: [Block]) { self.blocks = blocks }

        mutating func locate(_ id: ItemID) -> Int? {
            guard let found = find(id) else { return nil }
            if found < last { reordered = true }
            last = found
            return found
        }

        private mutating func find(_ id: ItemID) -> Int? {
            if next < blocks.endIndex, blocks[next].id == id {
                next += 1
                return next - 1
            }
            // NB: the block that ended a run is asked for again, as the start of the next one.
            if next > 0, blocks[next - 1].id == id { return next - 1 }
            if table == nil {
                table = Dictionary(
                    zip(blocks.indices, blocks).map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            }
            guard let found = table?[id] else { return nil }
            next = found + 1
            return found
        }
    }

    /// How every placeholder's line starts.
    private static let placeholderLead = Array("- [ ] todosync stable run ".utf8)

    /// The name-based ids of a file's placeholders are counted on from this one.
    static func fileSpace(_ path: String) -> ItemID { ItemID.named("todosync-stable-run/\(path)") }

    /// A file's runs (its three versions); nil where a side reorders base's top-level items.
    /// `isTaken` says whether base may hold an id (placeholders must not).
    static func findRuns(_ versions: [ListDocument], fileSpace: ItemID, isTaken: (ItemID) -> Bool) -> [Found]? {
        let blocks = versions.map(Self.blocks)
        var sides = [BlockLocator(blocks[1]), BlockLocator(blocks[2])]

        // Whether base's block k is held alike by both sides: (its block index in ours, in theirs).
        // NB: both sides are asked for every block, so that every reordering is seen.
        func stable(_ k: Int) -> (Int, Int)? {
            let block = blocks[0][k]
            let o = sides[0].locate(block.id), t = sides[1].locate(block.id)
            guard let o, let t else { return nil }
            // NB: a block that starts the file may carry its byte order mark: left alone.
            guard block.lines.lowerBound > 0, block.nodes.allSatisfy({ versions[0].id(ofNode: $0) != nil }) else {
                return nil
            }
            guard sameLines(versions[0], block.lines, versions[1], blocks[1][o].lines),
                sameLines(versions[0], block.lines, versions[2], blocks[2][t].lines)
            else { return nil }
            return (o, t)
        }

        var found: [Found] = []
        var k = 0
        while k < blocks[0].count {
            guard let (o, t) = stable(k) else {
                k += 1
                continue
            }
            var end = k + 1
            while end < blocks[0].count, let (o2, t2) = stable(end), o2 == o + (end - k), t2 == t + (end - k) {
                end += 1
            }
            let id = Self.placeholderID(fileSpace: fileSpace, number: found.count, isTaken: isTaken)
            let lastLine = versions[0].lines[blocks[0][end - 1].lines.upperBound - 1]
            var placeholder = [
                ListLine(
                    content: ArraySlice(Self.placeholderLead + Array("\(found.count) <!-- id: \(id) -->".utf8)),
                    ending: lastLine.ending)
            ]
            if !ListMerger.wouldContinue(after: lastLine.content) {
                placeholder.append(ListLine(content: [], ending: lastLine.ending))
            }
            let count = end - k
            let ranges = [(0, k), (1, o), (2, t)].map { version, first in
                blocks[version][first].lines.lowerBound..<blocks[version][first + count - 1].lines.upperBound
            }
            let nodes = blocks[0][k].nodes.lowerBound..<blocks[0][end - 1].nodes.upperBound
            let run = Run(path: versions[0].path, id: id, placeholder: placeholder, lines: versions[0].lines[ranges[0]])
            found.append(Found(run: run, ranges: ranges, nodes: nodes))
            k = end
        }
        // NB: a side's block that stays put must be found there, not where a copy stands.
        guard !sides.contains(where: \.reordered) else { return nil }
        return found
    }

    /// Whether two ranges of lines hold the same bytes and endings (by `memcmp`: this runs over
    /// every line of all three versions).
    static func sameLines(_ a: ListDocument, _ aRange: Range<Int>, _ b: ListDocument, _ bRange: Range<Int>) -> Bool {
        guard aRange.count == bRange.count else { return false }
        for (i, j) in zip(aRange, bRange) {
            guard a.lines[i].ending == b.lines[j].ending, a.lines[i].content.sameBytes(as: b.lines[j].content) else {
                return false
            }
        }
        return true
    }

    /// The top-level blocks of a file, in order; empty if a top-level item has no id.
    static func blocks(_ document: ListDocument) -> [Block] {
        // NB: one pass, each block closed by the next top-level item (a list of those first
        // was another array to grow and read back, at 100,000 items).
        var result: [Block] = []
        // NB: room for every node: pages past the top-level ones are never touched.
        result.reserveCapacity(document.nodeCount)
        var open: (id: ItemID, line: Int, node: Int)?
        for node in 0..<document.nodeCount where document.parent(ofNode: node) == nil {
            guard let id = document.id(ofNode: node) else { return [] }
            let line = document.nodeLine(node)
            if let open { result.append(Block(id: open.id, lines: open.line..<line, nodes: open.node..<node)) }
            open = (id, line, node)
        }
        if let open {
            result.append(
                Block(id: open.id, lines: open.line..<document.lines.count, nodes: open.node..<document.nodeCount))
        }
        return result
    }

    /// Base's items numbered across its files: each id's node, and each file's first number.
    struct Numbering {
        var node: [ItemID: Int] = [:]
        var firstNode: [String: Int] = [:]
        var nodeCount = 0
    }

    /// The numbering of every identified item; nil if an id repeats.
    static func numbering(_ lists: ListSet) -> Numbering? {
        var result = Numbering()
        result.node.reserveCapacity(lists.documents.values.reduce(0) { $0 + $1.nodeCount })
        for (path, document) in lists.documents {
            result.firstNode[path] = result.nodeCount
            for node in 0..<document.nodeCount {
                guard let id = document.id(ofNode: node) else { continue }
                guard result.node.updateValue(result.nodeCount + node, forKey: id) == nil else { return nil }
            }
            result.nodeCount += document.nodeCount
        }
        return result
    }

    /// An id base does not hold (nor, being name-based and private, any side), the same for the
    /// same run every time: one name-based id per file, counted on from (a SHA-1 per run was a
    /// tenth of a large merge).
    private static func placeholderID(fileSpace: ItemID, number: Int, isTaken: (ItemID) -> Bool) -> ItemID {
        var attempt: UInt64 = 0
        while true {
            let id = ItemID(high: fileSpace.high ^ (attempt << 32), low: fileSpace.low &+ UInt64(number))
            if !isTaken(id) { return id }
            attempt += 1
        }
    }

    /// Each version with its runs replaced by their placeholders; nil if a version does not
    /// read back as those lines, or a placeholder would not stand alone.
    static func fold(_ versions: [ListDocument], _ found: [Found]) -> [ListDocument]? {
        var folded: [ListDocument] = []
        for index in versions.indices {
            guard let version = fold(versions[index], found.map { ($0.ranges[index], $0.run.placeholder) }) else {
                return nil
            }
            folded.append(version)
        }
        let placeholders = Set(found.map(\.run.id))
        return folded.allSatisfy({ holdsAlone($0, placeholders: placeholders) }) ? folded : nil
    }

    /// Whether each placeholder reads back as a top-level item with nothing under it. The line
    /// after a run starts a top-level item, but one indented past the placeholder's marker
    /// (`  - [ ] b` after `1. [ ] a`) would become its child.
    private static func holdsAlone(_ document: ListDocument, placeholders: Set<ItemID>) -> Bool {
        guard !placeholders.isEmpty else { return true }
        var seen = 0
        for node in 0..<document.nodeCount {
            guard let id = document.id(ofNode: node), placeholders.contains(id) else { continue }
            guard document.parent(ofNode: node) == nil, document.subtree(ofNode: node).count == 1 else { return false }
            seen += 1
        }
        return seen == placeholders.count
    }

    /// A document with each run's range replaced by its placeholder lines; nil if their bytes
    /// do not read back as those lines (a document edited line by line can hold a lone CR
    /// before an empty line, which reads back as one CRLF line: the merge of the whole lists
    /// keeps both).
    private static func fold(_ document: ListDocument, _ replacements: [(Range<Int>, [ListLine])]) -> ListDocument? {
        var lines: [ListLine] = []
        var next = 0
        for (run, placeholder) in replacements {
            lines += document.lines[next..<run.lowerBound]
            lines += placeholder
            next = run.upperBound
        }
        lines += document.lines[next...]
        // NB: into bytes of its own: the merge then reads a small file, not lines scattered
        // over a large one (at 100,000 items, those reads missed the caches).
        let folded = ListDocument(path: document.path, bytes: ListLine.join(lines))
        return folded.lines.count == lines.count ? folded : nil
    }
}
