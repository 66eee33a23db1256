/// Runs of top-level items that neither side touched, folded into one placeholder item each
/// before the item-by-item merge and unfolded after it, so a merge costs what the edits cost
/// rather than what the lists hold (a 1% edit of 100,000 items merges 100 times less).
///
/// A run is a sequence of whole top-level blocks (an item, its body, and the lines up to the
/// next top-level item) that all three versions hold byte for byte, in the same order, in the
/// same file, whose ids occur nowhere else. Such a block parses the same whatever surrounds it
/// (it starts with a top-level item, which closes every open block), and the merge would copy
/// it unchanged; the placeholder stands for it in the merge's ordering. After the merge, every
/// placeholder must come out once, unmoved and unchanged, or the merge runs again unfolded.
struct StableRuns {
    struct Run {
        var path: String
        var id: ItemID
        var placeholder: ListLine
        var lines: ArraySlice<ListLine>
        /// Whether plain text written right after the run would continue its last line's
        /// paragraph (false after a blank line or a heading): the merge asks the placeholder,
        /// an item line, and must get the run's answer (`ListMerger.placeholdersEndingClosed`).
        var endsOpen: Bool
    }

    private(set) var runs: [Run] = []
    private(set) var base = ListSet(), ours = ListSet(), theirs = ListSet()
    /// Base's files that runs were taken from, whose parse the unfolded files reuse.
    private var unfoldedBase: [String: ListDocument] = [:]
    /// Base's ids by node number (across its files), and the nodes runs folded away.
    private var taken: [ItemID: Int] = [:]
    private var hiddenNodes: [Bool] = []

    /// The folded versions, or nil if no run is worth folding.
    init?(base: ListSet, ours: ListSet, theirs: ListSet) {
        // Ids must be unique for a folded id to be nowhere else. A side's stable blocks are
        // copies of base's, so a repeat among them repeats in base too: base is checked whole,
        // the sides for a folded id they still show (`hides`, asked by the merge).
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
            let piece = FilePiece(whole: [baseDocument, oursDocument, theirsDocument])
            let found = Self.findRuns(piece, fileSpace: Self.fileSpace(path)) { taken.node[$0] != nil }
            guard !found.isEmpty, let foldedVersions = Self.fold(piece, found) else { continue }
            // The merge writes changed lines with the file's dominant ending: folding must not shift it.
            guard foldedVersions.allSatisfy({ $0.dominantEnding == ending }) else { continue }
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
    }

    /// Whether a run folded this id away. An id the folded sides show must be no such id
    /// (`ListMerge` asks for the ids the folded base does not show: a side that shows a folded
    /// id holds it twice, which the merge of the whole lists reads otherwise).
    ///
    /// NB: asked only for those few ids: a lookup in a table of every base id missed the
    /// caches at 100,000 items, and each id the folded base shows is no folded one (base's
    /// ids are unique).
    func hides(_ id: ItemID) -> Bool {
        taken[id].map { hiddenNodes[$0] } ?? false
    }

    /// The merged lists with every run back in place; nil if a placeholder did not come out of
    /// the merge exactly once, unmoved and unchanged.
    func unfold(_ files: [ListMerger.RenderedFile], unmoved: (ItemID) -> Bool) -> ListSet? {
        guard runs.allSatisfy({ unmoved($0.id) }) else { return nil }
        var placeholders = Placeholders(runs)
        var documents: [ListDocument] = []
        let unfoldedCount = Dictionary(grouping: runs, by: \.path).mapValues { $0.reduce(0) { $0 + $1.lines.count - 1 } }
        for file in files {
            var lines: [ListLine] = []
            // NB: exactly: growing by doubling copied a large file's lines twice more.
            lines.reserveCapacity(file.lines.count + (unfoldedCount[file.path] ?? 0))
            var spans: [ListParser.KnownSpan] = []
            guard let touched = placeholders.unfold(file, base: unfoldedBase[file.path], into: &lines, spans: &spans) else { return nil }
            guard touched else {
                documents.append(ListDocument(path: file.path, lines: file.lines))
                continue
            }
            // NB: the runs' lines are base's, parsed there: only the lines around them are read again.
            documents.append(ListDocument(path: file.path, lines: lines, splicing: spans))
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
            for (index, run) in runs.enumerated() { byContent[run.placeholder.content] = index }
            seen = [Bool](repeating: false, count: runs.count)
        }

        var allSeen: Bool { !seen.contains(false) }

        /// Appends the merged file's lines to `lines`, each placeholder replaced by its run (a
        /// span of `base`'s parse, if given); whether a placeholder was there, or nil if one came
        /// out twice, in another file or changed.
        mutating func unfold(_ file: ListMerger.RenderedFile, base: ListDocument?, into lines: inout [ListLine], spans: inout [ListParser.KnownSpan]) -> Bool? {
            var touched = false
            for line in file.lines {
                // NB: every line of the merged files passes here: hashing its bytes is left to the few that could be placeholders.
                guard line.content.starts(with: StableRuns.placeholderLead), let index = byContent[line.content] else {
                    lines.append(line)
                    continue
                }
                guard !seen[index], runs[index].path == file.path, line == runs[index].placeholder else { return nil }
                seen[index] = true
                touched = true
                let run = runs[index].lines
                if let base {
                    spans.append(ListParser.KnownSpan(start: lines.count, known: base, knownStart: run.startIndex, count: run.count))
                }
                // NB: endings need no mending: the merge's render gives every line but the last
                // one, so a run's last line lacks one only where its placeholder (matched with
                // its ending) came last.
                lines += run
            }
            return touched
        }
    }

    // MARK: - Finding runs

    /// Lines of one file, the same stretch in all three versions (a whole file, or a piece of
    /// one that `MergePieces` merges on its own): each version's lines and top-level blocks.
    struct FilePiece {
        var versions: [ListDocument]
        var lines: [Range<Int>]
        var blocks: [ArraySlice<Block>]

        var path: String { versions[0].path }

        /// The whole of each version.
        init(whole versions: [ListDocument]) {
            self.versions = versions
            lines = versions.map { $0.lines.indices }
            blocks = versions.map { StableRuns.blocks($0)[...] }
        }

        init(versions: [ListDocument], lines: [Range<Int>], blocks: [ArraySlice<Block>]) {
            (self.versions, self.lines, self.blocks) = (versions, lines, blocks)
        }
    }

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
        let blocks: ArraySlice<Block>
        var next: Int
        var table: [ItemID: Int]?

        init(_ blocks: ArraySlice<Block>) {
            self.blocks = blocks
            next = blocks.startIndex
        }

        mutating func locate(_ id: ItemID) -> Int? {
            if next < blocks.endIndex, blocks[next].id == id {
                next += 1
                return next - 1
            }
            // NB: the block that ended a run is asked for again, as the start of the next one.
            if next > blocks.startIndex, blocks[next - 1].id == id { return next - 1 }
            if table == nil {
                table = Dictionary(zip(blocks.indices, blocks).map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
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

    /// The piece's runs; `isTaken` says whether base may hold an id (placeholders must not).
    static func findRuns(_ piece: FilePiece, fileSpace: ItemID, isTaken: (ItemID) -> Bool) -> [Found] {
        let (versions, blocks) = (piece.versions, piece.blocks)
        var sides = [BlockLocator(blocks[1]), BlockLocator(blocks[2])]

        // Whether base's block k is held alike by both sides: (its block index in ours, in theirs).
        func stable(_ k: Int) -> (Int, Int)? {
            let block = blocks[0][k]
            guard let o = sides[0].locate(block.id), let t = sides[1].locate(block.id) else { return nil }
            // NB: a block that starts the file may carry its byte order mark: left alone.
            guard block.lines.lowerBound > 0, block.nodes.allSatisfy({ versions[0].id(ofNode: $0) != nil }) else { return nil }
            guard sameLines(versions[0], block.lines, versions[1], blocks[1][o].lines),
                sameLines(versions[0], block.lines, versions[2], blocks[2][t].lines)
            else { return nil }
            return (o, t)
        }

        var found: [Found] = []
        var k = blocks[0].startIndex
        while k < blocks[0].endIndex {
            guard let (o, t) = stable(k) else {
                k += 1
                continue
            }
            var end = k + 1
            while end < blocks[0].endIndex, let (o2, t2) = stable(end), o2 == o + (end - k), t2 == t + (end - k) { end += 1 }
            let id = Self.placeholderID(fileSpace: fileSpace, number: found.count, isTaken: isTaken)
            let lastLine = versions[0].lines[blocks[0][end - 1].lines.upperBound - 1]
            let placeholder = ListLine(
                content: ArraySlice(Self.placeholderLead + Array("\(found.count) <!-- id: \(id) -->".utf8)), ending: lastLine.ending)
            let count = end - k
            let ranges = [(0, k), (1, o), (2, t)].map { version, first in
                blocks[version][first].lines.lowerBound..<blocks[version][first + count - 1].lines.upperBound
            }
            let nodes = blocks[0][k].nodes.lowerBound..<blocks[0][end - 1].nodes.upperBound
            let run = Run(
                path: piece.path, id: id, placeholder: placeholder, lines: versions[0].lines[ranges[0]],
                endsOpen: ListMerger.wouldContinue(after: lastLine.content))
            found.append(Found(run: run, ranges: ranges, nodes: nodes))
            k = end
        }
        return found
    }

    /// Whether two ranges of lines hold the same bytes and endings (by `memcmp`: this runs over
    /// every line of all three versions).
    static func sameLines(_ a: ListDocument, _ aRange: Range<Int>, _ b: ListDocument, _ bRange: Range<Int>) -> Bool {
        guard aRange.count == bRange.count else { return false }
        for (i, j) in zip(aRange, bRange) {
            guard a.lines[i].ending == b.lines[j].ending, a.lines[i].content.sameBytes(as: b.lines[j].content) else { return false }
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
        if let open { result.append(Block(id: open.id, lines: open.line..<document.lines.count, nodes: open.node..<document.nodeCount)) }
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

    /// The piece of each version with its runs replaced by their placeholders; nil if a
    /// version does not read back as those lines, or a placeholder would not stand alone.
    static func fold(_ piece: FilePiece, _ found: [Found]) -> [ListDocument]? {
        var folded: [ListDocument] = []
        for index in piece.versions.indices {
            guard let version = fold(piece.versions[index], piece.lines[index], found.map { ($0.ranges[index], $0.run.placeholder) }) else {
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

    /// The lines `range` of a document with each run's range replaced by its placeholder line;
    /// nil if their bytes do not read back as those lines (a document edited line by line can
    /// hold a lone CR before an empty line, which reads back as one CRLF line: the merge of the
    /// whole lists keeps both).
    private static func fold(_ document: ListDocument, _ range: Range<Int>, _ replacements: [(Range<Int>, ListLine)]) -> ListDocument? {
        var lines: [ListLine] = []
        var next = range.lowerBound
        // NB: a side may hold the runs in another order than base.
        for (run, placeholder) in replacements.sorted(by: { $0.0.lowerBound < $1.0.lowerBound }) {
            lines += document.lines[next..<run.lowerBound]
            lines.append(placeholder)
            next = run.upperBound
        }
        lines += document.lines[next..<range.upperBound]
        // NB: into bytes of its own: the merge then reads a small file, not lines scattered
        // over a large one (at 100,000 items, those reads missed the caches).
        let folded = ListDocument(path: document.path, bytes: ListLine.join(lines))
        return folded.lines.count == lines.count ? folded : nil
    }
}
