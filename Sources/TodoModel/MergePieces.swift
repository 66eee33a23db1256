/// The merge of large files in pieces: each file is cut before items that all three versions
/// hold alike and in step, each piece merged as a file of its own (its untouched runs folded,
/// `StableRuns`), and the merged pieces joined. A piece's data fits in the caches where a whole
/// 100,000-item merge's does not, so the merge's cost per item grows less with the lists
/// (docs/PERFORMANCE.md: what still grows is the work done over the whole file).
///
/// The result is the whole merge's, byte for byte, reports and all, where nothing crosses a
/// cut; where something does (an item moved into another piece, lines a side moved past a
/// cut), this gives nil and the lists are merged whole. docs/MERGE.md gives the reasoning.
enum MergePieces {
    /// About how many items a piece holds: the reference for linear work in the benchmarks.
    static let pieceItems = 1_000

    /// How far from where it is expected (the blocks between cuts counted alike) a side's copy
    /// of a cut item is looked for.
    private static let searchWindow = 16

    static func merge(
        base: ListSet, ours: ListSet, theirs: ListSet, pieceItems: Int = pieceItems, keepingOurs: Bool = false,
        takingAlikeLines: Bool = true
    ) -> ListMerge.Outcome? {
        // Small lists already fit in the caches; files on one side only are the whole merge's to settle.
        guard base.documents.values.contains(where: { $0.nodeCount >= 2 * pieceItems }) else { return nil }
        guard ours.documents.keys.elementsEqual(base.documents.keys), theirs.documents.keys.elementsEqual(base.documents.keys) else {
            return nil
        }
        // Base's ids, unique: an id a side shows in a piece whose base lacks it must be no other piece's.
        guard let baseIDs = IDFingerprints(base) else { return nil }
        var merge = PieceByPiece(baseIDs: baseIDs, keepingOurs: keepingOurs, takingAlikeLines: takingAlikeLines)
        var documents: [ListDocument] = []
        var reports: [MergeReport] = []
        for (path, baseDocument) in base.documents {
            // NB: every version holds every path (checked above).
            let versions = [baseDocument, ours[path]!, theirs[path]!]
            guard let merged = merge.file(versions, pieceItems: pieceItems) else { return nil }
            documents.append(merged.document)
            reports += merged.reports
        }
        return ListMerge.Outcome(lists: ListSet(documents), reports: reports)
    }

    /// The state of one merge in pieces: the ids sides added, by the piece that shows them.
    private struct PieceByPiece {
        let baseIDs: IDFingerprints
        let keepingOurs: Bool
        let takingAlikeLines: Bool
        var newIDs: [ItemID: Int] = [:]
        var pieceCount = 0

        /// A file's three versions merged piece by piece, and its reports; nil where that is not
        /// the whole merge.
        mutating func file(_ versions: [ListDocument], pieceItems: Int) -> (document: ListDocument, reports: [MergeReport])? {
            let ending = versions[0].dominantEnding
            // The merge writes changed lines with the file's dominant ending: every piece must use the same.
            guard versions[1].dominantEnding == ending, versions[2].dominantEnding == ending else { return nil }
            let blocks = versions.map(StableRuns.blocks)
            let cuts = MergePieces.cuts(versions, blocks, every: pieceItems)
            // NB: once per file: a SHA-1 per piece was 3% of a merge.
            let fileSpace = StableRuns.fileSpace(versions[0].path)
            var output = MergedFile(path: versions[0].path, base: versions[0])
            output.lines.reserveCapacity(versions.map { $0.lines.count }.max()! + 64)
            // Each version's piece between two cuts (the file's start, its end): blocks, then lines.
            let ends = [[0, 0, 0]] + cuts + [blocks.map { $0.count }]
            func lineStart(_ v: Int, _ block: Int) -> Int { block < blocks[v].count ? blocks[v][block].lines.lowerBound : versions[v].lines.count }
            for index in 0...cuts.count {
                let (first, end) = (ends[index], ends[index + 1])
                let piece = StableRuns.FilePiece(
                    versions: versions,
                    lines: versions.indices.map { v in (index == 0 ? 0 : lineStart(v, first[v]))..<lineStart(v, end[v]) },
                    blocks: versions.indices.map { v in blocks[v][first[v]..<end[v]] })
                guard merge(piece, ending: ending, fileSpace: fileSpace, into: &output) else { return nil }
                // Only the file's last line may lack an ending.
                guard index == cuts.count || output.lines.last?.ending != LineEnding.none else { return nil }
            }
            return (output.document(), output.reports)
        }

        /// Merges one piece and appends it to the file; false where the whole merge could differ.
        private mutating func merge(_ piece: StableRuns.FilePiece, ending: LineEnding, fileSpace: ItemID, into output: inout MergedFile) -> Bool {
            let found = StableRuns.findRuns(piece, fileSpace: fileSpace, isTaken: baseIDs.mayContain)
            guard let folded = StableRuns.fold(piece, found) else { return false }
            var merger = ListMerger(
                base: MergeLayout(ListSet([folded[0]]), fileEnding: ending), ours: MergeLayout(ListSet([folded[1]]), fileEnding: ending),
                theirs: MergeLayout(ListSet([folded[2]]), fileEnding: ending))
            // An item of base's that a side shows in another piece, or an item added in two pieces,
            // crosses a cut (and a folded id shown again would be held twice).
            for id in merger.numbering.idsNewOnASide {
                guard !baseIDs.mayContain(id) else { return false }
                if let other = newIDs.updateValue(pieceCount, forKey: id), other != pieceCount { return false }
            }
            pieceCount += 1
            merger.keepingOurs = keepingOurs
            merger.takingAlikeLines = takingAlikeLines
            merger.placeholdersEndingClosed = Set(found.filter { !$0.run.endsOpen }.map(\.run.id))
            let (files, reports) = merger.runUnparsed()
            guard files.count == 1, found.allSatisfy({ merger.isUnmoved($0.run.id) }) else { return false }
            output.add(reports)
            guard output.leaves(merger.sides(of: .file(piece.path)).leftInGaps, inPiece: pieceCount) else { return false }
            var placeholders = StableRuns.Placeholders(found.map(\.run))
            guard placeholders.unfold(files[0], base: output.base, into: &output.lines, spans: &output.spans) != nil else { return false }
            return placeholders.allSeen
        }
    }

    /// A file merged piece by piece: its lines so far, base's parse of its runs, its reports,
    /// and per side the pieces where lines were left unmatched between items.
    private struct MergedFile {
        let path: String
        let base: ListDocument
        var lines: [ListLine] = []
        var spans: [ListParser.KnownSpan] = []
        /// Per side (ours, theirs): the pieces that left lines of base, and of the side, unmatched.
        private var leftInGaps = [(base: Set<Int>(), side: Set<Int>()), (base: Set<Int>(), side: Set<Int>())]
        /// The items' reports, in the file's order, and whether lines of the file's top level
        /// clashed in some piece.
        private var itemReports: [MergeReport] = []
        private var linesClashed = false

        init(path: String, base: ListDocument) {
            (self.path, self.base) = (path, base)
        }

        mutating func add(_ reports: [MergeReport]) {
            for report in reports {
                if report.kind == .linesClash, report.item == nil { linesClashed = true } else { itemReports.append(report) }
            }
        }

        /// As the whole merge gives them: a clash of the file's top-level lines once, first
        /// (it is found before the file is written), then the items' in file order.
        var reports: [MergeReport] {
            (linesClashed ? [MergeReport(.linesClash, file: path)] : []) + itemReports
        }

        /// Notes what each side left unmatched between items in a piece; false once such lines
        /// would have been matched across pieces (the whole merge matches them across the
        /// file: lines a side moved), unless base's or the side's are in no piece.
        mutating func leaves(_ left: [(base: Bool, side: Bool)], inPiece piece: Int) -> Bool {
            for side in leftInGaps.indices {
                if left[side].base { leftInGaps[side].base.insert(piece) }
                if left[side].side { leftInGaps[side].side.insert(piece) }
                let (base, mine) = leftInGaps[side]
                guard base.isEmpty || mine.isEmpty || base.union(mine).count == 1 else { return false }
            }
            return true
        }

        func document() -> ListDocument { ListDocument(path: path, lines: lines, splicing: spans) }
    }

    /// Where to cut a file: for each cut, the block of its item in base, ours and theirs. A cut
    /// comes before a top-level item at least `pieceItems` items after the last cut, that all
    /// three hold with the same lines, each after the same block: so it starts the piece in
    /// every version, and every order the sides kept holds it.
    static func cuts(_ versions: [ListDocument], _ blocks: [[StableRuns.Block]], every pieceItems: Int) -> [[Int]] {
        guard !blocks.contains(where: { $0.isEmpty }) else { return [] }
        var cuts: [[Int]] = []
        var last = [0, 0, 0]
        var k = 1
        while k < blocks[0].count {
            defer { k += 1 }
            guard blocks[0][k].nodes.lowerBound - blocks[0][last[0]].nodes.lowerBound >= pieceItems else { continue }
            let id = blocks[0][k].id, previous = blocks[0][k - 1].id
            // Where each side holds the item, right after the same block as base.
            var cut = [k]
            for side in 1...2 {
                let expected = last[side] + (k - last[0])
                let (lower, upper) = (max(last[side] + 1, expected - searchWindow), min(blocks[side].count, expected + searchWindow + 1))
                guard lower < upper, let found = (lower..<upper).first(where: { blocks[side][$0].id == id }), blocks[side][found - 1].id == previous,
                    StableRuns.sameLines(versions[0], blocks[0][k].lines, versions[side], blocks[side][found].lines)
                else { break }
                cut.append(found)
            }
            guard cut.count == 3 else { continue }
            cuts.append(cut)
            last = cut
        }
        return cuts
    }
}
