/// Gives every item an id, following the rules of docs/FORMAT.md ("Which id an item gets").
///
/// Pure: the caller supplies the last commit's lists and the random source, so the same inputs
/// always give the same ids (tests pass a seeded generator).
public enum IDAssignment {
    /// The last commit's lists with every item identified.
    public struct Base: Sendable {
        public var lists: ListSet
        /// How many different ids `lists` holds: as many as its items when none is repeated.
        let distinctIDCount: Int
        /// Every id in `lists`. Built on each call (not kept: a million-item list's set is
        /// tens of megabytes, and a sync holds three versions); a caller asking often keeps it.
        public var ids: Set<ItemID> { lists.ids }
        /// Per path, the items that had no readable id in the commit (or were later copies of a
        /// repeated id) and the ids derived for them.
        var adopted: [String: [Adopted]]
        /// The files holding such items.
        public var adoptedPaths: Set<String> { Set(adopted.keys) }
        /// The ids derived for the items of `path` that had none (their lines do not hold them).
        public func adoptedIDs(in path: String) -> Set<ItemID> { Set(adopted[path]?.map(\.id) ?? []) }

        public static let empty = Base(lists: ListSet(), adopted: [:])

        init(lists: ListSet, adopted: [String: [Adopted]], distinctIDCount: Int? = nil) {
            self.lists = lists
            self.distinctIDCount = distinctIDCount ?? lists.ids.count
            self.adopted = adopted
        }
    }

    /// An item committed with no readable id (or as a later copy of a repeated id), and the id
    /// derived for it.
    struct Adopted: Sendable {
        var id: ItemID
        var title: String
        /// A copy of a repeated id, not an item without one.
        var wasCopy: Bool
        /// The hex digits left in its damaged id comment, if it had one.
        var damagedDigits: [UInt8]?
    }

    /// What `assign` did to the working lists.
    public struct Result: Sendable {
        public var lists: ListSet
        /// Paths whose bytes changed (ids were written).
        public var changedPaths: [String]
        public var idsWritten: Int { writtenIDs.count }
        /// The ids written into lines, in path order.
        public var writtenIDs: [ItemID]
        public var diagnostics: [Diagnostic]

        /// Nothing to write.
        public static let unchanged = Result(lists: ListSet(), changedPaths: [], writtenIDs: [], diagnostics: [])
    }

    /// Whether the working lists are the base's files holding exactly the base's ids, in the
    /// same order (`holdBaseIDs`): an edit of titles, boxes, fields or notes, the common case.
    /// Then nothing is assigned, found without a table of every id (at a million items,
    /// building one was most of the assignment).
    static func holdsBaseIDs(_ working: ListSet, _ base: Base) -> Bool {
        working.documents.keys.elementsEqual(base.lists.documents.keys)
            && holdBaseIDs(Array(working.documents.values), base)
    }

    /// Whether each document holds exactly the ids the base's version of its file holds, in
    /// the same order, every item with one, where the base's ids are all different (none
    /// derived, as many as its items): then their ids are in order, each used once across the
    /// base's files.
    public static func holdBaseIDs(_ documents: [ListDocument], _ base: Base) -> Bool {
        guard base.adopted.isEmpty, base.distinctIDCount == base.lists.documents.values.reduce(0, { $0 + $1.nodeCount })
        else { return false }
        return documents.allSatisfy { document in
            guard let baseDocument = base.lists[document.path], document.nodeCount == baseDocument.nodeCount else {
                return false
            }
            return (0..<document.nodeCount).allSatisfy { node in
                document.id(ofNode: node).map { $0 == baseDocument.id(ofNode: node) } ?? false
            }
        }
    }

    /// A line of a commit's list file whose item needs an id derived from history: it has no
    /// readable id (a plain `git` edit), or it is a later copy of a repeated id. `copy`: how many
    /// lines of the file before it hold exactly the same bytes.
    public struct DerivedLine: Hashable, Sendable {
        public var path: String
        public var line: [UInt8]
        public var copy: Int
    }

    /// What `resolveBase` must derive ids for in a commit's lists (`lines`, in file order, for
    /// the engine to find in history), and every id read.
    public struct Unidentified: Sendable {
        /// By path, in file order.
        fileprivate var nodes: [(path: String, nodes: [NeedingDerivedID])]
        fileprivate var ids: Set<ItemID>
        public var lines: [DerivedLine] { nodes.flatMap { $0.nodes.map(\.line) } }
        /// An id stands on more than one item: which copy keeps it is judged against the
        /// parent version (`unidentified(_:parentVersion:)`).
        public var hasRepeatedIDs: Bool
    }

    /// - Parameter parentVersion: the lists of the commit's first parent, identified; needed
    ///   only when an id is repeated (without it, the earliest copy keeps the id).
    public static func unidentified(_ lists: ListSet, parentVersion: ListSet? = nil) -> Unidentified {
        let (nodes, ids, hasRepeatedIDs) = needingDerivedIDs(lists, parentVersion: parentVersion)
        return Unidentified(nodes: nodes, ids: ids, hasRepeatedIDs: hasRepeatedIDs)
    }

    /// Identifies a commit's lists. Items without a readable id and later copies of a repeated
    /// id get name-based ids from the commit that introduced their line (`introducedBy`: found
    /// in history by the engine, the same on every clone), the path, the line and its copy
    /// number; so every clone derives the same ids, whatever commits stacked on top since.
    ///
    /// - Parameter unidentified: `unidentified(lists)`, if the caller has it.
    public static func resolveBase(
        _ lists: ListSet, _ unidentified: Unidentified? = nil, introducedBy: (DerivedLine) -> String
    ) -> Base {
        var resolved = lists
        var adopted: [String: [Adopted]] = [:]
        let needing = unidentified ?? Self.unidentified(lists)
        var seen = needing.ids
        for (path, entries) in needing.nodes {
            guard var document = resolved[path] else { continue }
            var updates: [(Int, ItemID)] = []
            for entry in entries {
                // The line as text; as hex digits if it is not valid UTF-8 (decoding would make
                // different lines one name).
                let text =
                    String(validating: entry.line.line, as: UTF8.self)
                    ?? entry.line.line.map { String($0, radix: 16) }.joined(separator: " ")
                let name = "\(introducedBy(entry.line))\n\(path)\n\(text)\n\(entry.line.copy)"
                let derived = ItemID.named(name)
                seen.insert(derived)
                updates.append((entry.node, derived))
                adopted[path, default: []].append(
                    Adopted(
                        id: derived, title: document.title(ofNode: entry.node), wasCopy: !entry.wasIDLess,
                        damagedDigits: document.damagedIDDigits(ofNode: entry.node)))
            }
            document.setIDs(updates)
            resolved[path] = document
        }
        return Base(lists: resolved, adopted: adopted, distinctIDCount: seen.count)
    }

    /// `resolveBase` with every derived line taken as introduced by `commit` (tests, and lists
    /// with no history).
    public static func resolveBase(_ lists: ListSet, commit: String) -> Base {
        resolveBase(lists) { _ in commit }
    }

    fileprivate struct NeedingDerivedID {
        var node: Int
        var line: DerivedLine
        var wasIDLess: Bool
    }

    /// Every node with no readable id, and every copy of a repeated id but the one that keeps
    /// it (`DuplicateKeeper`, against `parentVersion`), with its line and copy number; every id
    /// read; and whether an id was repeated.
    private static func needingDerivedIDs(
        _ lists: ListSet, parentVersion: ListSet?
    ) -> (nodes: [(path: String, nodes: [NeedingDerivedID])], ids: Set<ItemID>, hasRepeatedIDs: Bool) {
        var result: [(path: String, nodes: [NeedingDerivedID])] = []
        var ids = Set<ItemID>(minimumCapacity: lists.documents.values.reduce(0) { $0 + $1.nodeCount })
        var repeatedIDs = Set<ItemID>()
        for document in lists.documents.values {
            for case let id? in document.nodeIDs where !ids.insert(id).inserted { repeatedIDs.insert(id) }
        }
        // Where each repeated id stands (rare: looked for only when there is one).
        var repeated: [ItemID: [DuplicateKeeper.Place]] = [:]
        if !repeatedIDs.isEmpty {
            for (path, document) in lists.documents {
                for (node, id) in document.nodeIDs.enumerated() {
                    if let id, repeatedIDs.contains(id) {
                        repeated[id, default: []].append(DuplicateKeeper.Place(path: path, node: node))
                    }
                }
            }
        }
        var copies: [String: Set<Int>] = [:]
        for (id, places) in repeated {
            let keeper = DuplicateKeeper.keeper(of: id, among: places, in: lists, parentVersion: parentVersion)
            for (index, place) in places.enumerated() where index != keeper {
                copies[place.path, default: []].insert(place.node)
            }
        }
        for (path, document) in lists.documents {
            var nodes: [(node: Int, wasIDLess: Bool)] = []
            let pathCopies = copies[path] ?? []
            for (node, id) in document.nodeIDs.enumerated() where id == nil || pathCopies.contains(node) {
                nodes.append((node, id == nil))
            }
            guard !nodes.isEmpty else { continue }
            // Copy numbers: how often each needed line's bytes stood earlier in the file.
            let wanted = Set(nodes.map { LineKey(document.lines[document.nodeLine($0.node)].content) })
            var countSoFar: [LineKey: Int] = [:]
            var copyAt: [Int: Int] = [:]
            for (index, line) in document.lines.enumerated() {
                let key = LineKey(line.content)
                guard wanted.contains(key) else { continue }
                copyAt[index] = countSoFar[key, default: 0]
                countSoFar[key, default: 0] += 1
            }
            result.append(
                (
                    path,
                    nodes.map { node, wasIDLess in
                        let lineIndex = document.nodeLine(node)
                        let line = DerivedLine(
                            path: path, line: Array(document.lines[lineIndex].content), copy: copyAt[lineIndex] ?? 0)
                        return NeedingDerivedID(node: node, line: line, wasIDLess: wasIDLess)
                    }
                ))
        }
        return (result, ids, !repeated.isEmpty)
    }

    /// Identifies the working lists against the last commit's, writing ids into the documents.
    public static func assign<G: RandomNumberGenerator>(
        _ working: ListSet, base: Base, using generator: inout G
    ) -> Result {
        if holdsBaseIDs(working, base) {
            return Result(lists: working, changedPaths: [], writtenIDs: [], diagnostics: [])
        }
        var diagnostics: [Diagnostic] = []

        // Where each readable id first stands in the working files, and every place of an id
        // that stands in more than one (rare). NB: not an array per id: at 100,000 items those
        // allocations were most of the time.
        var firstPlace: [ItemID: (path: String, node: Int)] = [:]
        firstPlace.reserveCapacity(working.documents.values.reduce(0) { $0 + $1.nodeCount })
        var repeated: [ItemID: [(path: String, node: Int)]] = [:]
        for (path, document) in working.documents {
            for (node, id) in document.nodeIDs.enumerated() {
                guard let id else { continue }
                if let earlier = firstPlace[id] {
                    repeated[id, default: [earlier]].append((path, node))
                } else {
                    firstPlace[id] = (path, node)
                }
            }
        }
        // Ids in use: those in the files plus those handed out below.
        var handedOut = Set<ItemID>()
        func isUsed(_ id: ItemID) -> Bool { firstPlace[id] != nil || handedOut.contains(id) }
        var updates: [String: [(Int, ItemID)]] = [:]

        func fresh() -> ItemID {
            var id = ItemID.random(using: &generator)
            while isUsed(id) { id = ItemID.random(using: &generator) }
            handedOut.insert(id)
            return id
        }
        // Paths and nodes below come from `working` itself, so the lookups find their document.
        func line(_ path: String, _ node: Int) -> Int { (working.documents[path]?.nodeLine(node) ?? -1) + 1 }
        func title(_ path: String, _ node: Int) -> String { working.documents[path]?.title(ofNode: node) ?? "" }

        // Per path and title, the ids derived for committed id-less items and committed copies
        // of a repeated id, first first: the ids every clone reading that commit derives.
        var adoptable: [String: [String: [ItemID]]] = [:]
        var adoptableCopies: [String: [String: [ItemID]]] = [:]
        for (path, entries) in base.adopted {
            for entry in entries.reversed() {
                if entry.wasCopy {
                    adoptableCopies[path, default: [:]][entry.title, default: []].append(entry.id)
                } else {
                    adoptable[path, default: [:]][entry.title, default: []].append(entry.id)
                }
            }
        }

        // A pasted copy: the occurrence that stands where the id stood keeps it; the others
        // get the id derived for them if the copy was committed so, else a new one.
        for (id, places) in repeated {
            let keeper = DuplicateKeeper.keeper(
                of: id, among: places.map { DuplicateKeeper.Place(path: $0.path, node: $0.node) }, in: working,
                parentVersion: base.lists)
            for (index, place) in places.enumerated() where index != keeper {
                let newID: ItemID
                if let derived = adoptableCopies[place.path]?[title(place.path, place.node)]?.popLast(),
                    !isUsed(derived)
                {
                    newID = derived
                    handedOut.insert(derived)
                } else {
                    newID = fresh()
                }
                updates[place.path, default: []].append((place.node, newID))
                diagnostics.append(
                    Diagnostic(
                        file: place.path, line: line(place.path, place.node),
                        message:
                            "id \(id) is used twice (also at line \(line(places[keeper].path, places[keeper].node))); gave this copy a new id"
                    ))
            }
        }

        // Items with no readable id: committed so (plain git), lost (an editor), or new.
        var lost: [LostIDMatch.Lost] = []
        for (path, document) in working.documents {
            for (node, id) in document.nodeIDs.enumerated() where id == nil {
                let itemTitle = title(path, node)
                let damagedDigits = document.damagedIDDigits(ofNode: node)
                // Committed without an id (plain git): the id derived from that commit.
                if damagedDigits == nil, let derived = adoptable[path]?[itemTitle]?.popLast(), !isUsed(derived) {
                    handedOut.insert(derived)
                    updates[path, default: []].append((node, derived))
                    continue
                }
                lost.append(LostIDMatch.Lost(path: path, node: node, title: itemTitle, damagedDigits: damagedDigits))
            }
        }
        if !lost.isEmpty {
            let missing = LostIDMatch.missing(from: base.lists, isPresent: isUsed)
            let found = missing.isEmpty ? [:] : LostIDMatch.match(lost, missing, base: base.lists, working: working)
            var restored: [String: (count: Int, firstNode: Int)] = [:]
            for (index, item) in lost.enumerated() {
                let id = found[index] ?? fresh()
                if found[index] != nil { handedOut.insert(id) }
                updates[item.path, default: []].append((item.node, id))
                if item.damagedDigits != nil {
                    diagnostics.append(
                        Diagnostic(
                            file: item.path, line: line(item.path, item.node),
                            message: found[index] != nil
                                ? "damaged id comment repaired: matched the item to id \(id) of the last commit"
                                : "damaged id comment replaced: no item of the last commit matched, so it has a new id")
                    )
                } else if found[index] != nil {
                    restored[item.path, default: (0, item.node)].count += 1
                }
            }
            for (path, entry) in restored.sorted(by: { $0.key < $1.key }) {
                let what =
                    entry.count == 1
                    ? "an item had lost its id comment" : "\(entry.count) items had lost their id comments"
                diagnostics.append(
                    Diagnostic(
                        file: path, line: line(path, entry.firstNode),
                        message:
                            "\(what) (an editor saved a copy from before todosync wrote them?); matched to the last commit's items, the ids are back"
                    ))
            }
        }

        var lists = working
        var written: [ItemID] = []
        for (path, pathUpdates) in updates.sorted(by: { $0.key < $1.key }) {
            guard var document = working.documents[path] else { continue }
            document.setIDs(pathUpdates)
            lists[path] = document
            written += pathUpdates.map(\.1)
        }
        return Result(lists: lists, changedPaths: updates.keys.sorted(), writtenIDs: written, diagnostics: diagnostics)
    }
}

extension ListDocument {
    /// Writes several ids at once (one re-classification), by node index.
    mutating func setIDs(_ updates: [(node: Int, id: ItemID)]) {
        guard !updates.isEmpty else { return }
        for (node, id) in updates {
            let lineIndex = nodeLine(node)
            lines[lineIndex] = ListLine(content: lineWithID(id, node: node)[...], ending: lines[lineIndex].ending)
        }
        replaceLines(0..<0, with: [])
    }
}

extension IDAssignment {
    /// `side` (a commit's lists, resolved) with its lost or damaged ids given back from
    /// `parent`, its first parent's lists (`recoverLostIDs`): the ids an adoption of the commit
    /// writes, and the lists it compares with.
    public static func recoveringLostIDs(_ side: Base, from parent: ListSet) -> Base {
        let lists = recoverLostIDs(side, base: parent)
        var adopted = side.adopted
        for (path, entries) in side.adopted {
            guard let before = side.lists[path]?.nodeIDs, let after = lists[path]?.nodeIDs, before != after else {
                continue
            }
            let nodeOf = firstNodes(before)
            for (index, entry) in entries.enumerated() {
                if let node = nodeOf[entry.id], let recovered = after[node] { adopted[path]?[index].id = recovered }
            }
        }
        return Base(lists: lists, adopted: adopted)
    }

    /// Each id's first node (a lookup per adopted item, not a walk of the file for each).
    private static func firstNodes(_ ids: [ItemID?]) -> [ItemID: Int] {
        var nodes: [ItemID: Int] = [:]
        for (node, id) in ids.enumerated() {
            if let id, nodes[id] == nil { nodes[id] = node }
        }
        return nodes
    }

    /// Whether `side` holds an item whose id was lost or damaged (not a later copy of an id):
    /// only then can `recoverLostIDs` give one back.
    public static func mayRecoverLostIDs(_ side: Base) -> Bool {
        side.adopted.values.contains { $0.contains { !$0.wasCopy } }
    }

    /// Items of `side` that lost their id comment in a plain `git` edit got a derived id from
    /// `resolveBase`; where such an item matches an item of `base` that `side` no longer has
    /// (`LostIDMatch`: by title, then by place), it takes that item's id back, so a merge sees
    /// one item edited, not one removed and another added.
    ///
    /// Depends only on the two commits' lists, so every clone that merges them decides alike.
    public static func recoverLostIDs(_ side: Base, base: ListSet) -> ListSet {
        guard mayRecoverLostIDs(side) else { return side.lists }
        let missing = LostIDMatch.missing(from: base, isPresent: side.ids.contains)
        guard !missing.isEmpty else { return side.lists }
        var lost: [LostIDMatch.Lost] = []
        for (path, entries) in side.adopted.sorted(by: { $0.key < $1.key }) {
            guard let nodeIDs = side.lists[path]?.nodeIDs else { continue }
            let nodeOf = firstNodes(nodeIDs)
            for entry in entries where !entry.wasCopy {
                guard let node = nodeOf[entry.id] else { continue }
                lost.append(
                    LostIDMatch.Lost(path: path, node: node, title: entry.title, damagedDigits: entry.damagedDigits))
            }
        }
        var updates: [String: [(node: Int, id: ItemID)]] = [:]
        for (index, id) in LostIDMatch.match(lost, missing, base: base, working: side.lists) {
            updates[lost[index].path, default: []].append((lost[index].node, id))
        }
        var result = side.lists
        for (path, pathUpdates) in updates {
            guard var document = result[path] else { continue }
            document.setIDs(pathUpdates)
            result[path] = document
        }
        return result
    }
}
