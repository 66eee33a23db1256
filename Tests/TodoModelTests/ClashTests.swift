import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// Clashes as the file holds them (docs/MERGE.md, "Clashes"): found on every clone from the
/// text alone, never nested, settled by choosing a version.
@Suite struct ClashTests {
    static let notesClash = """
        - [ ] Trip ^a
          <!-- todosync clash: one version -->
          leave at 10
          <!-- todosync clash: the other version -->
          leave at 8
          take the train
          <!-- todosync clash: end; keep what you want and delete these comments -->
        - [ ] Tax form 📅 2026-06-05 ^b
          todosync clash: the other side set the due date to 📅 2026-08-26
        - [ ] Oat milk ⏫ ^c
          todosync clash: this item was also renamed to: Soy milk

        """

    static func document(_ text: String) -> ListDocument {
        ListDocument(path: "TODO.md", bytes: Array(withIDs(text).utf8))
    }

    static func text(_ document: ListDocument) -> String {
        withShortIDs(String(decoding: document.render(), as: UTF8.self))
    }

    @Test func everyKindOfClashIsFoundWithItsLinesAndItem() {
        let clashes = Self.document(Self.notesClash).clashes
        #expect(clashes.count == 3)
        #expect(clashes[0].lines == 2...7)
        #expect(clashes[0].item == shortID("a"))
        #expect(clashes[0].kind == .lines(versions: [["  leave at 10"], ["  leave at 8", "  take the train"]]))
        #expect(
            clashes[1]
                == Clash(
                    file: "TODO.md", lines: 9...9, item: shortID("b"), itemTitle: "Tax form 📅 2026-06-05",
                    kind: .field(note: "the other side set the due date to 📅 2026-08-26")))
        #expect(clashes[2].kind == .title(other: "Soy milk"))
        #expect(clashes[2].lines == 11...11)
        #expect(clashes.allSatisfy { $0.description.hasPrefix("TODO.md:") })
    }

    @Test func aClashInTheFilesOwnTextHasNoItem() {
        let merged = mergeTexts(
            base: "Intro\n\n- [ ] Milk ^a\n", ours: "Intro, ours\n\n- [ ] Milk ^a\n",
            theirs: "Intro, theirs\n\n- [ ] Milk ^a\n")
        let clashes = Self.document(merged.text).clashes
        #expect(clashes.count == 1)
        #expect(clashes.first?.item == nil)
        #expect(clashes.first?.kind == .lines(versions: [["Intro, ours"], ["Intro, theirs"]]))
    }

    @Test func commentsLeftOverFromABlockAreAnUnfinishedClash() {
        let text = "- [ ] Trip ^a\n  <!-- todosync clash: one version -->\n  leave at 10\n  leave at 8\n"
        let clashes = Self.document(text).clashes
        #expect(clashes.map(\.kind) == [.unfinished])
        #expect(clashes.first?.lines == 2...4)
        #expect(
            Self.document("Some text\n<!-- todosync clash: end; keep what you want and delete these comments -->\n")
                .clashes.map(\.kind) == [.unfinished])
    }

    @Test func textThatOnlyMentionsAClashIsNone() {
        let text =
            "I read about a todosync clash: yesterday.\n\n- [ ] Milk ^a\n  the notes say todosync clash: nothing\n<!-- todosync clash -->\n"
        #expect(Self.document(text).clashes.isEmpty)
        #expect(!Self.document("- [ ] Milk ^a\n").mayHoldClashes)
        #expect(Self.document(Self.notesClash).mayHoldClashes)
    }

    // MARK: - Never nested

    @Test func aClashOnLinesOfAnUnsettledClashJoinsItsBlock() {
        let base = """
            - [ ] Trip ^a
              <!-- todosync clash: one version -->
              leave at 10
              <!-- todosync clash: the other version -->
              leave at 8
              <!-- todosync clash: end; keep what you want and delete these comments -->

            """
        let ours = base.replacingOccurrences(of: "leave at 10", with: "leave at 9")
        let theirs = base.replacingOccurrences(of: "leave at 10", with: "leave at 11")
        let merged = mergeTexts(base: base, ours: ours, theirs: theirs)
        let clashes = Self.document(merged.text).clashes
        #expect(clashes.count == 1, "\(merged.text)")
        #expect(
            clashes.first?.kind == .lines(versions: [["  leave at 11"], ["  leave at 9"], ["  leave at 8"]]),
            "\(merged.text)")
        #expect(merged.text.components(separatedBy: "one version").count == 2, "\(merged.text)")
        // The same merge the other way round writes the same bytes.
        #expect(mergeTexts(base: base, ours: theirs, theirs: ours).text == merged.text)
    }

    @Test func joiningDropsOnlyTheInnerBlocksStartAndEnd() {
        let lines = [
            "<!-- todosync clash: one version -->", "a", "  <!-- todosync clash: one version -->", "b",
            "  <!-- todosync clash: the other version -->", "c",
            "  <!-- todosync clash: end; keep what you want and delete these comments -->", "d",
            "<!-- todosync clash: the other version -->", "e",
            "<!-- todosync clash: end; keep what you want and delete these comments -->", "f",
        ]
        let joined = ClashMarker.joiningNested(Self.listLines(lines))?.map {
            String(decoding: $0.content, as: UTF8.self)
        }
        #expect(joined == [lines[0], "a", "b", lines[4], "c", "d", lines[8], "e", lines[10], "f"])
        #expect(ClashMarker.joiningNested(Self.listLines(["a", lines[0], "b", lines[8], "c", lines[10]])) == nil)
    }

    static func listLines(_ texts: [String]) -> [ListLine] {
        texts.map { ListLine(content: Array($0.utf8)[...], ending: .lf) }
    }

    /// Random nestings of clash blocks and text: joining keeps every other line in order,
    /// leaves no block inside another and changes nothing where none nests.
    @Test func joiningKeepsEveryOtherLineAndLeavesNoNesting() async {
        let pieces = [
            "<!-- todosync clash: one version -->", "  <!-- todosync clash: the other version -->",
            "<!-- todosync clash: end; keep what you want and delete these comments -->", "text", "  - [ ] item", "",
        ]
        await propertyCheck(count: 300, input: Gen.int(in: 0...5).array(of: 0...24)) { picks in
            let lines = picks.map { pieces[$0] }
            let joined = ClashMarker.joiningNested(Self.listLines(lines)).map {
                $0.map { String(decoding: $0.content, as: UTF8.self) }
            }
            let result = joined ?? lines
            let isMarker = { (line: String) in ClashMarker.of(Array(line.utf8)[...]) != nil }
            #expect(result.filter { !isMarker($0) } == lines.filter { !isMarker($0) })
            var depth = 0, deepest = 0
            for line in result {
                switch ClashMarker.of(Array(line.utf8)[...]) {
                case .start?: depth += 1
                case .end?: depth = max(0, depth - 1)
                default: break
                }
                deepest = max(deepest, depth)
            }
            #expect(deepest <= 1, "\(result)")
            if joined == nil { #expect(deepest <= 1) }
        }
    }

    // MARK: - Settling

    @Test func settlingLinesKeepsTheChosenVersionOrAll() throws {
        let document = Self.document(Self.notesClash)
        #expect(
            Self.text(try document.settlingClashes(of: shortID("a"), keep: .version(2))).hasPrefix(
                "- [ ] Trip ^a\n  leave at 8\n  take the train\n- [ ] Tax form"))
        #expect(
            Self.text(try document.settlingClashes(of: shortID("a"), keep: .version(1))).hasPrefix(
                "- [ ] Trip ^a\n  leave at 10\n- [ ] Tax form"))
        #expect(
            Self.text(try document.settlingClashes(of: shortID("a"), keep: .all)).hasPrefix(
                "- [ ] Trip ^a\n  leave at 10\n  leave at 8\n  take the train\n- [ ] Tax form"))
        #expect(throws: EditError.noSuchVersion(title: "Trip", file: "TODO.md", line: 2, count: 2)) {
            try document.settlingClashes(of: shortID("a"), keep: .version(3))
        }
    }

    @Test func settlingATitleTakesTheOtherWordsAndKeepsTheFields() throws {
        let document = Self.document(Self.notesClash)
        let kept = try document.settlingClashes(of: shortID("c"), keep: .version(1))
        #expect(Self.text(kept).hasSuffix("- [ ] Oat milk ⏫ ^c\n"))
        let other = try document.settlingClashes(of: shortID("c"), keep: .version(2))
        #expect(Self.text(other).hasSuffix("- [ ] Soy milk ⏫ ^c\n"), "\(Self.text(other))")
        #expect(throws: EditError.oneValueOnly(title: "Oat milk ⏫", file: "TODO.md", line: 11)) {
            try document.settlingClashes(of: shortID("c"), keep: .all)
        }
    }

    @Test func settlingAFieldSetsTheOtherValueOrKeepsThisOne() throws {
        let document = Self.document(Self.notesClash)
        #expect(
            Self.text(try document.settlingClashes(of: shortID("b"), keep: .version(2))).contains(
                "- [ ] Tax form 📅 2026-08-26 ^b\n- [ ] Oat"))
        #expect(
            Self.text(try document.settlingClashes(of: shortID("b"), keep: .version(1))).contains(
                "- [ ] Tax form 📅 2026-06-05 ^b\n- [ ] Oat"))
        let removed = Self.document(
            "- [ ] Tax form 📅 2026-06-05 ^b\n  todosync clash: the other side removed the due date\n")
        #expect(Self.text(try removed.settlingClashes(of: shortID("b"), keep: .version(2))) == "- [ ] Tax form ^b\n")
    }

    @Test func settlingNeverRemovesAnItem() throws {
        let text = """
            - [ ] Trip ^a
              <!-- todosync clash: one version -->
              leave at 10
              <!-- todosync clash: the other version -->
              - [ ] Book seats ^s
              <!-- todosync clash: end; keep what you want and delete these comments -->

            """
        let document = Self.document(text)
        #expect(throws: EditError.clashVersionHoldsItem(title: "Book seats", file: "TODO.md", line: 5, version: 2)) {
            try document.settlingClashes(of: shortID("a"), keep: .version(1))
        }
        let kept = try document.settlingClashes(of: shortID("a"), keep: .version(2))
        #expect(Self.text(kept) == "- [ ] Trip ^a\n  - [ ] Book seats ^s\n")
        #expect(throws: EditError.noClash(title: "Book seats")) {
            try kept.settlingClashes(of: shortID("s"), keep: .all)
        }
    }
}
