/// Writing the merged files: each container's tokens become lines under the merged
/// indentation; unchanged lines keep their exact bytes.
extension ListMerger {
    private struct OutputLine {
        init(content: [UInt8], ending: LineEnding, sourceEndings: [LineEnding]) {
            self.init(slice: content[...], ending: ending, sourceEndings: sourceEndings)
        }

        init(slice content: ArraySlice<UInt8>, ending: LineEnding, sourceEndings: [LineEnding]) {
            self.content = content
            self.ending = ending
            self.sourceEndings = sourceEndings
        }

        /// A version's line as it is, with the file endings of every version that has it alike.
        init<S: Sequence>(_ raw: RawLine, alike versions: S) where S.Element == RawLine {
            content = raw.line.original.content
            ending = raw.line.original.ending
            sourceEndings = versions.filter { $0 == raw }.map(\.line.fileEnding)
        }

        /// NB: a slice of the version's bytes where the line is unchanged, not a copy: most are.
        var content: ArraySlice<UInt8>
        var ending: LineEnding
        /// The dominant endings of the files the line came from (every version that has these
        /// exact bytes); empty for a line the merge wrote. A line keeps its own ending if one of
        /// them is the merged file's.
        var sourceEndings: [LineEnding]
    }

    /// The kept items each container holds, by number: a file's top level, or an item's body.
    struct Members {
        var ofFile: [String: [Int]] = [:]
        var ofItem: [[Int]]

        func of(_ key: ContainerKey, owner: Int?) -> [Int] {
            if let owner { return ofItem[owner] }
            if case .file(let path) = key { return ofFile[path] ?? [] }
            return []
        }
    }

    /// A merged file as lines, before it is parsed.
    struct RenderedFile {
        var path: String
        var lines: [ListLine]
    }

    mutating func renderFiles() -> [RenderedFile] {
        markers = Self.clashMarkers
        var members = Members(ofItem: Array(repeating: [], count: numbering.count))
        for number in 0..<numbering.count where kept[number] {
            guard let found = placement[number] else { continue }
            if let owner = itemNumber(found.container) {
                members.ofItem[owner].append(number)
            } else if case .file(let path) = found.container {
                members.ofFile[path, default: []].append(number)
            }
        }
        var files: [RenderedFile] = []
        for path in mergedFiles {
            var output: [OutputLine] = []
            renderContainer(
                .file(path), owner: nil, prefix: [], path: path, ownerTitle: nil, members: members, into: &output)
            let ending =
                pick(
                    layout(.base).fileEndings[path], layout(.ours).fileEndings[path], layout(.theirs).fileEndings[path])
                ?? .lf
            var lines = output.map { line in
                ListLine(content: line.content, ending: line.sourceEndings.contains(ending) ? line.ending : ending)
            }
            // One ending per file: only the last line may lack one.
            for index in lines.indices.dropLast() where lines[index].ending == .none { lines[index].ending = ending }
            if pick(hasBOM(.base, path), hasBOM(.ours, path), hasBOM(.theirs, path)) == true, !lines.isEmpty {
                lines[0].content = ArraySlice([0xEF, 0xBB, 0xBF] + Array(lines[0].content))
            }
            files.append(RenderedFile(path: path, lines: lines))
        }
        return files
    }

    /// Whether a version's file starts with a byte order mark; nil if it has no such file.
    private func hasBOM(_ side: MergeSide, _ path: String) -> Bool? {
        layout(side).documents[path] == nil ? nil : layout(side).filesWithBOM.contains(path)
    }

    /// Writes a container's merged tokens. `owner`: the number of the item whose body this is
    /// (nil for a file); `ownerTitle`, its merged title, for reports.
    private mutating func renderContainer(
        _ key: ContainerKey, owner: Int?, prefix: [UInt8], path: String, ownerTitle: ArraySlice<UInt8>?,
        members: Members, into output: inout [OutputLine]
    ) {
        var (tokens, clashed) = mergedOrder(of: key, owner: owner, members: members.of(key, owner: owner))
        if clashed {
            reports.append(
                MergeReport(.linesClash, file: path, item: ownerTitle.map { String(decoding: $0, as: UTF8.self) }))
        }
        if let owner, !clashNotes.isEmpty, let notes = clashNotes[numbering.ids[owner]] {
            tokens.insert(contentsOf: notes.map(Token.marker), at: 0)
        }
        var previous: Token?
        var lineSides: ContainerSides?  // NB: fetched once per container, not per line.
        var underPrefix: BySide<Bool>?  // Whether each version's container had this indentation.
        for token in tokens {
            defer { previous = token }
            let afterChild: Bool = if case .item? = previous { true } else { false }
            switch token {
            case .marker(let index):
                output.append(OutputLine(content: prefix + markers[index], ending: .lf, sourceEndings: []))
            case .line:
                let known = lineSides ?? sides(of: key)
                lineSides = known
                let line = renderLine(token, key, known, prefix: prefix, afterChild: afterChild)
                if afterChild, Self.wouldContinueParagraph(line.content), let previous, let last = output.last?.content,
                    Self.wouldContinue(after: last), !adjacentInSomeVersion(previous, token, key)
                {
                    // NB: plain text right after an item's line would continue that item's
                    // paragraph (CommonMark's lazy continuation) and become its note; a blank
                    // line keeps it where the merge put it.
                    output.append(OutputLine(content: [], ending: line.ending, sourceEndings: line.sourceEndings))
                }
                output.append(line)
            case .item(let number):
                let known =
                    underPrefix
                    ?? {
                        var found = BySide<Bool>()
                        for side in [MergeSide.base, .ours, .theirs] {
                            found[side] = layout(side).container(key)?.prefix == prefix
                        }
                        return found
                    }()
                underPrefix = known
                renderItem(
                    number, in: key, underPrefix: known, prefix: prefix, path: path, members: members, into: &output)
            }
        }
    }

    /// A line under `prefix`: its own bytes where some version had it under the same
    /// indentation (the side that changed them, if the bytes differ), else the prefix and its
    /// relative content.
    ///
    /// NB: a note written lazily (without the indentation) that the merge put right after a
    /// child item would continue the child's paragraph; it is indented instead.
    private func renderLine(
        _ token: Token, _ key: ContainerKey, _ sides: ContainerSides, prefix: [UInt8], afterChild: Bool
    ) -> OutputLine {
        guard case .line(let side, let index) = token else {
            return OutputLine(content: prefix, ending: .lf, sourceEndings: [])
        }
        var versions = BySide<MergeLayout.Line>()
        var underPrefix = BySide<RawLine>()
        if side == .base {
            for (version, match) in [
                (MergeSide.ours, sides.oursMatch[index]), (.theirs, sides.theirsMatch[index]), (.base, index),
            ] {
                guard let match, let container = layout(version).container(key) else { continue }
                versions[version] = container.lines[match]
                if container.prefix == prefix { underPrefix[version] = RawLine(container.lines[match]) }
            }
        } else if let container = layout(side).container(key) {
            versions[side] = container.lines[index]
            if container.prefix == prefix { underPrefix[side] = RawLine(container.lines[index]) }
        }
        if let raw = pick(underPrefix[.base], underPrefix[.ours], underPrefix[.theirs]),
            !(afterChild
                && raw.line.isLazy(
                    column: layout(.base).container(key)?.column ?? layout(side).container(key)?.column ?? 0))
        {
            return OutputLine(raw, alike: underPrefix.values)
        }
        guard let line = versions[.ours] ?? versions[.theirs] ?? versions[.base] else {
            return OutputLine(content: prefix, ending: .lf, sourceEndings: [])
        }
        let content = line.relative.isEmpty ? [] : prefix + line.relative
        return OutputLine(content: content, ending: line.original.ending, sourceEndings: [line.fileEnding])
    }

    /// Whether some version has `token` right after `previous` in this container (then the
    /// two lines read there as they will here).
    private mutating func adjacentInSomeVersion(_ previous: Token, _ token: Token, _ key: ContainerKey) -> Bool {
        let sides = sides(of: key)
        return [MergeSide.base, .ours, .theirs].contains { side in
            let sequence = sides.sequence(side)
            guard let index = sequence.firstIndex(of: token), index > 0 else { return false }
            return sequence[index - 1] == previous
        }
    }

    /// Whether plain text right after a line would continue it (an item's or a paragraph's).
    static func wouldContinue(after line: ArraySlice<UInt8>) -> Bool {
        TaskHead.parse(line, from: line.startIndex) != nil || wouldContinueParagraph(line)
    }

    static func wouldContinueParagraph(_ slice: ArraySlice<UInt8>) -> Bool {
        let (_, start) = leadingIndent(slice, from: slice.startIndex)
        return start < slice.endIndex && ListParser.isPlainText(slice, start)
    }

    /// A line compared by its bytes and ending.
    private struct RawLine: Equatable {
        var line: MergeLayout.Line
        init(_ line: MergeLayout.Line) { self.line = line }
        static func == (a: RawLine, b: RawLine) -> Bool { a.line.original == b.line.original }
    }

    private mutating func renderItem(
        _ number: Int, in key: ContainerKey, underPrefix: BySide<Bool>, prefix: [UInt8], path: String,
        members: Members, into output: inout [OutputLine]
    ) {
        let old = version(.base, number)
        let mine = item(.ours, number), other = item(.theirs, number)
        guard let anyVersion = mine ?? other else { return }
        let ours = mine ?? anyVersion, theirs = other ?? anyVersion

        if takingAlikeLines, let old, let line = Self.lineAlike(old, ours, theirs, in: key, underPrefix: underPrefix) {
            // The common case: nothing to merge in the item's line.
            output.append(line)
            renderBody(
                number, line: line, prefix: prefix, path: path, title: TaskHead.joined(old.title, old.after),
                members: members, into: &output)
            return
        }
        let (title, after) = mergeLineText(
            numbering.ids[number], old: old.map { ($0.title, $0.after) }, ours: (ours.title, ours.after),
            theirs: (theirs.title, theirs.after))
        let isDone = pick(old?.isDone, ours.isDone, theirs.isDone) ?? ours.isDone
        var box = pick(old?.box, ours.box, theirs.box) ?? ours.box
        if (box != UInt8(ascii: " ")) != isDone { box = isDone ? UInt8(ascii: "x") : UInt8(ascii: " ") }
        // The indentation before the marker goes with the place: a moved item takes the moving
        // side's; otherwise it and the marker are presentation, merged like fields.
        let placedBy = placement[number]?.side ?? .base
        let placedVersion = placedBy == .base ? (old ?? ours) : (placedBy == .ours ? ours : theirs)
        let indent = { (lead: ArraySlice<UInt8>) in lead.prefix { $0.isSpaceOrTab } }
        var relative = Array(
            placedBy == .base
                ? pick(old.map { indent($0.lead) }, indent(ours.lead), indent(theirs.lead)) ?? indent(ours.lead)
                : indent(placedVersion.lead))
        let marker = { (lead: ArraySlice<UInt8>) in lead.drop { $0.isSpaceOrTab } }
        relative += pick(old.map { marker($0.lead) }, marker(ours.lead), marker(theirs.lead)) ?? marker(ours.lead)
        relative.append(box)
        relative += pick(old?.middle, ours.middle, theirs.middle) ?? ours.middle
        relative += title
        relative += pick(old?.comment, ours.comment, theirs.comment) ?? ours.comment
        relative += after
        relative += pick(old?.trailing, ours.trailing, theirs.trailing) ?? ours.trailing

        // A version whose line reads the same under the same indentation gives its bytes.
        var same = BySide<RawLine>()
        for side in [MergeSide.ours, .theirs, .base] {
            guard let copy = version(side, number), copy.head.relative.elementsEqual(relative),
                layout(side).container(copy.container)?.prefix == prefix
            else { continue }
            same[side] = RawLine(copy.head)
        }
        let line =
            pick(same[.base], same[.ours], same[.theirs]).map { OutputLine($0, alike: same.values) }
            ?? OutputLine(
                content: prefix + relative, ending: ours.head.original.ending, sourceEndings: [ours.head.fileEnding])
        output.append(line)

        renderBody(
            number, line: line, prefix: prefix, path: path, title: TaskHead.joined(title[...], after[...]),
            members: members, into: &output)
    }

    /// The item's reports, then its notes and children under the indentation its merged line gives.
    private mutating func renderBody(
        _ number: Int, line: OutputLine, prefix: [UInt8], path: String, title: ArraySlice<UInt8>,
        members: Members, into output: inout [OutputLine]
    ) {
        let id = numbering.ids[number]
        if !itemReports.isEmpty, let kinds = itemReports[id] {
            let owner = String(decoding: title, as: UTF8.self)
            for kind in kinds { reports.append(MergeReport(kind, file: path, item: owner)) }
        }
        let content = line.content
        let bodyPrefix =
            TaskHead.parse(content, from: content.startIndex).map {
                MergeLayout.bodyIndent(of: content, head: $0).prefix
            }
            ?? prefix + Array("  ".utf8)
        renderContainer(
            .item(id), owner: number, prefix: bodyPrefix, path: path, ownerTitle: title, members: members, into: &output
        )
    }

    /// The item's line when all three versions hold it with the same bytes, in the container
    /// being written, under the same indentation (what the general path would give, found
    /// without building the line from its parts).
    private static func lineAlike(
        _ old: MergeLayout.Item, _ ours: MergeLayout.Item, _ theirs: MergeLayout.Item, in key: ContainerKey,
        underPrefix: BySide<Bool>
    ) -> OutputLine? {
        guard underPrefix[.base] == true, underPrefix[.ours] == true, underPrefix[.theirs] == true,
            old.container == key, ours.container == key, theirs.container == key,
            ours.head.original == old.head.original, theirs.head.original == old.head.original,
            ours.head.relative.elementsEqual(old.head.relative), theirs.head.relative.elementsEqual(old.head.relative)
        else { return nil }
        return OutputLine(
            slice: old.head.original.content, ending: old.head.original.ending,
            sourceEndings: [old.head.fileEnding, ours.head.fileEnding, theirs.head.fileEnding])
    }

    /// The value of a field after a three-way merge: the side that changed it (ours if both did).
    /// A version that lacks the thing (nil) counts as unchanged.
    func pick<T: Equatable>(_ base: T?, _ ours: T?, _ theirs: T?) -> T? {
        let mine = ours ?? base, other = theirs ?? base
        if mine == base { return other }
        return mine
    }
}

extension MergeLayout.Line {
    /// Indented less than its container's content column: a lazy continuation line.
    func isLazy(column: Int) -> Bool {
        let content = original.content
        let (columns, end) = leadingIndent(content, from: content.startIndex)
        return end < content.endIndex && columns < column
    }
}
