/// The law every item command keeps: it changes exactly the items it names, in exactly the way
/// it says, or it is refused and changes nothing.
///
/// An edit states its intent as the item tree it should leave in one file (`Intended`): the
/// tree before, with the subtree taken out, put in at a place, or one item's box, title or
/// notes changed. `check` parses nothing itself: it compares that intent with the tree the edited
/// document was parsed into, item by item, so a line that the Markdown around it swallows (an
/// open code fence, an HTML block, a paragraph an ordered marker cannot interrupt), an item
/// that falls out of its parent or a note that turns into an item is found before anything is
/// written.
///
/// ```swift
/// var intended = ItemTreeCheck.Intended(document)      // the tree as it is
/// intended.remove(node)                                 // minus one subtree
/// try ItemTreeCheck.check(edited, against: intended)    // EditError.wouldChange if not
/// ```
///
/// - Complexity: O(items + their note lines) per check; unchanged lines are compared as bytes.
struct ItemTreeCheck {
    /// One item of the tree an edit intends, in file order.
    struct Node: Sendable {
        var id: ItemID?
        /// 0 for an item no other task item holds.
        var depth: Int
        /// The document and node whose text the item should still read as (nil: a new item,
        /// whose box, title and notes are given).
        var source: ListDocument?
        var sourceNode: Int = 0
        /// The box it should have; nil: as `source` has it.
        var isDone: Bool?
        /// The title it should have (compared ignoring runs of white space); nil: as `source`.
        var title: String?
        /// The notes it should have; nil: as `source` has them.
        var notes: String?

        init(id: ItemID?, depth: Int, source: ListDocument, sourceNode: Int) {
            (self.id, self.depth, self.source, self.sourceNode) = (id, depth, source, sourceNode)
        }

        /// A new item: its title and box as written, no notes.
        init(id: ItemID, depth: Int, title: String, isDone: Bool) {
            (self.id, self.depth, self.title, self.isDone, self.notes) = (id, depth, title, isDone, "")
        }

        /// The title it came with.
        var sourceTitle: String { title ?? source.map { $0.title(ofNode: sourceNode) } ?? "" }
    }

    /// The item tree an edit of one document should leave.
    struct Intended {
        var nodes: [Node]

        /// The document's tree as it is.
        init(_ document: ListDocument) {
            let depths = document.nodeDepths
            nodes = depths.indices.map {
                Node(id: document.id(ofNode: $0), depth: depths[$0], source: document, sourceNode: $0)
            }
        }

        /// The tree of a block read alone, its items `depth` deeper.
        init(block document: ListDocument, depth: Int) {
            let depths = document.nodeDepths
            nodes = depths.indices.map {
                Node(id: document.id(ofNode: $0), depth: depths[$0] + depth, source: document, sourceNode: $0)
            }
        }

        /// Node indices of the subtree rooted at `node`.
        func subtree(of node: Int) -> Range<Int> {
            var end = node + 1
            while end < nodes.count, nodes[end].depth > nodes[node].depth { end += 1 }
            return node..<end
        }

        func index(of id: ItemID) -> Int? { nodes.firstIndex { $0.id == id } }
    }

    /// Compares `document`'s items with `intended`; the first difference, or nil.
    static func difference(_ document: ListDocument, from intended: Intended) -> (UnintendedChange, line: Int)? {
        let depths = document.nodeDepths
        let count = min(depths.count, intended.nodes.count)
        for index in 0..<count {
            let want = intended.nodes[index]
            let line = document.nodeLine(index) + 1
            if document.id(ofNode: index) != want.id {
                // The node here is not the one intended: one was lost, or one appeared.
                if let id = document.id(ofNode: index), !intended.nodes[index...].contains(where: { $0.id == id }) {
                    return (.appeared(line: line), line)
                }
                if want.id == nil { return (.appeared(line: line), line) }
                return (.lost(title: want.sourceTitle), line)
            }
            if depths[index] != want.depth { return (.regrouped(title: document.title(ofNode: index)), line) }
        }
        if depths.count > count { return (.appeared(line: document.nodeLine(count) + 1), document.nodeLine(count) + 1) }
        if intended.nodes.count > count {
            let want = intended.nodes[count]
            let line = count > 0 ? document.nodeLine(count - 1) + 1 : 1
            return (.lost(title: want.sourceTitle), line)
        }
        // The same items, nested as intended: then what each says.
        for index in 0..<count {
            if let what = altered(document, index, intended.nodes[index]) {
                return (.altered(title: document.title(ofNode: index), what: what), document.nodeLine(index) + 1)
            }
        }
        return nil
    }

    /// What of the item's box, title and notes differs from what is intended; nil when nothing.
    private static func altered(_ document: ListDocument, _ node: Int, _ want: Node) -> String? {
        let source = want.source
        let isDone = want.isDone ?? source?.isDone(node: want.sourceNode) ?? false
        if document.isDone(node: node) != isDone { return "the box" }
        if let title = want.title {
            if !sameWords(document.title(ofNode: node), title) { return "the title" }
        } else if let source, document.titleBytes(ofNode: node) != source.titleBytes(ofNode: want.sourceNode),
            !sameWords(document.title(ofNode: node), source.title(ofNode: want.sourceNode))
        {
            return "the title"
        }
        let notes = document.noteTexts(ofNode: node)
        if let wanted = want.notes {
            if notes != ListDocument.noteTexts(wanted) { return "the notes" }
        } else if let source, notes != source.noteTexts(ofNode: want.sourceNode) {
            return "the notes"
        }
        return nil
    }

    private static func sameWords(_ a: String, _ b: String) -> Bool {
        a.split(whereSeparator: { $0 == " " || $0 == "\t" }) == b.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }
}

/// What an edit would change beyond what it names, found by `ItemTreeCheck`.
public enum UnintendedChange: Hashable, Sendable {
    /// An item the edit should have left (or put) is no item in the result.
    case lost(title: String)
    /// A line became an item that the edit did not intend (1-based line of the result).
    case appeared(line: Int)
    /// An item ended up nested differently.
    case regrouped(title: String)
    /// An item's title, box or notes read differently (`what`: "the title", …).
    case altered(title: String, what: String)
}

extension ListDocument {
    /// Each item's depth among the task items (0: no task item holds it), in file order.
    var nodeDepths: [Int] {
        var depths = [Int](repeating: 0, count: nodeCount)
        for node in 0..<nodeCount {
            if let parent = parent(ofNode: node) { depths[node] = depths[parent] + 1 }
        }
        return depths
    }

    /// The item's note lines as the law compares them: without leading white space (a moved
    /// block is indented anew), without blank lines at either end.
    func noteTexts(ofNode node: Int) -> [ArraySlice<UInt8>] {
        var texts = noteLines(ofNode: node).map { lines[$0].content.drop(while: \.isSpaceOrTab) }
        while texts.last?.isEmpty == true { texts.removeLast() }
        while texts.first?.isEmpty == true { texts.removeFirst() }
        return texts
    }

    /// Notes as given to an edit, compared as `noteTexts(ofNode:)` reads them back.
    static func noteTexts(_ notes: String) -> [ArraySlice<UInt8>] {
        var texts = noteLineTexts(notes).map { Array($0.utf8).drop(while: \.isSpaceOrTab) }
        while texts.last?.isEmpty == true { texts.removeLast() }
        while texts.first?.isEmpty == true { texts.removeFirst() }
        return texts
    }

    /// Notes split into lines at every kind of line break Markdown knows (LF, CRLF, CR): each is
    /// written as a line of its own with the file's ending, so no break is written raw.
    static func noteLineTexts(_ notes: String) -> [Substring] {
        notes.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    }
}
