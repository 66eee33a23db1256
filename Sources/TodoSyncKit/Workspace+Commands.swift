import GitStore
import TodoModel

/// What an item command (or a batch of them) did.
public struct CommandOutcome {
    /// Editor edits that were pending, committed first as their own unit.
    public var pendingCommit: CommitOutcome?
    /// nil when the command changed nothing (checking a checked item, say).
    public var commit: OID?
    public var message: CommitMessage
    public var changes: [Change]
    /// Recurring items checked off whose rule todosync cannot follow.
    public var warnings: [Diagnostic] = []
}

extension Workspace {
    /// Applies the requests in order to the lists as committed and makes ONE commit of the
    /// result: one undo unit. Edits pending in the files are committed first, as their own unit.
    ///
    /// Any request that fails (no such item, several match, a bad title) stops everything before
    /// anything is written; in a batch, the error names the line (`lineNumbers[i]`).
    public func perform(_ requests: [ItemRequest], lineNumbers: [Int]? = nil) throws(TodoSyncError) -> CommandOutcome {
        try writing { () throws(TodoSyncError) in
            try retryingAfterSaves { () throws(TodoSyncError) in try performLocked(requests, lineNumbers: lineNumbers) }
        }
    }

    private func performLocked(_ given: [ItemRequest], lineNumbers: [Int]?) throws(TodoSyncError) -> CommandOutcome {
        var requests = given
        for index in requests.indices {
            guard case .end(let file?) = requests[index].destination else { continue }
            do {
                requests[index] = requests[index].naming(file: try listPath(file))
            } catch {
                var refusal = error
                if let lineNumbers { refusal.message = "line \(lineNumbers[index]): " + refusal.message }
                throw refusal
            }
        }
        try checkReadyToCommit()
        let pending = try commit()
        var head: HeadSnapshot
        if let read = try Trace.phase(
            "read and parse HEAD's lists for the command", { () throws(TodoSyncError) in try headForCommand() }),
            read.commit != nil
        {
            head = read
        } else if try unbornBranch().map({ $0.advice == nil }) == true, requests.allSatisfy({ $0.destination != nil }) {
            // A new repository (no remote branch holding lists): the first item starts the
            // file TODO.md, in the branch's first commit.
            head = HeadSnapshot(commit: nil, base: .empty, files: [:])
        } else {
            throw TodoSyncError(
                "there are no lists here yet",
                hint: try unbornBranch()?.advice ?? UnbornBranch.firstListHint + ", or todosync init")
        }
        var before = head.base.lists
        // A file named with --file that holds no item yet is not among the lists: read it in.
        for request in requests {
            guard case .end(let file?) = request.destination, before[file] == nil else { continue }
            try checkCanHoldList(file)
            guard let bytes = try FileSystem.read(root + "/" + file) else { continue }
            before[file] = try ListDocument.parsing(file, bytes)
            head.files[file] = (bytes, TreeChange.regularFileMode)
        }
        var lists = before
        var moved = Set<ItemID>()
        var generator = SystemRandomNumberGenerator()
        // No list yet: items go to a new TODO.md, as `add`'s help says.
        let defaultFile =
            before.documents.isEmpty ? "TODO.md" : RequestContext.defaultFile(among: before.documents.keys)
        let context = RequestContext(defaultFile: defaultFile, today: try today(), doneDates: try doneDates())
        for (index, request) in requests.enumerated() {
            let place = lineNumbers.map { "line \($0[index]): " } ?? ""
            do {
                let command = try Trace.phase("find the item") {
                    try request.resolve(in: lists, context: context) { ItemID.random(using: &generator) }
                }
                if case .move(let id, _) = command { moved.insert(id) }
                lists = try Trace.phase("apply the command") { try command.apply(to: lists) }
            } catch let failure as ItemRequest.Failure {
                throw Self.explain(failure, prefix: place, batch: lineNumbers != nil)
            } catch let failure as EditError {
                throw Self.explain(.edit(failure), prefix: place, batch: lineNumbers != nil)
            } catch {
                throw TodoSyncError(place + "\(error)", hint: "todosync list shows every item with its id and place")
            }
        }
        var changes = Trace.phase("changes") { ListSet.changes(from: before, to: lists, moving: moved) }
        let next = lists.nextOccurrences(checkedIn: changes, today: context.today)
        if let command = next.command {
            do {
                lists = try command.apply(to: lists)
            } catch {
                throw TodoSyncError(
                    "the next occurrence cannot be added: \(error); nothing was changed",
                    hint:
                        "check the item's 🔁 rule and dates (todosync list --recurring), or check it off by editing the file"
                )
            }
            changes = Change.tellingNextOccurrences(
                ListSet.changes(from: before, to: lists, moving: moved), next.following)
        }
        var message = CommitMessage.describing(changes)
        if requests.count == 1, case .settle(_, let choice) = requests[0], let settled = changes.first?.item {
            let kept = if case .version(let number) = choice { "version \(number) kept" } else { "every version kept" }
            message.summary = "Settle the clash of \"\(settled.plainTitle)\" (\(kept))"
            if message.body.isEmpty { message.body = changes.map { "- " + $0.phrase } }
        }
        let kind: UnitTrailer.Kind = lineNumbers == nil ? .command : .batch
        message.trailers = [UnitTrailer.line(kind)]
        let pendingCommit = pending.commit == nil ? nil : pending
        guard !changes.isEmpty else {
            return CommandOutcome(pendingCommit: pendingCommit, commit: nil, message: message, changes: [])
        }
        let commitID = try commitLists(lists, over: head, message: message)
        return CommandOutcome(
            pendingCommit: pendingCommit, commit: commitID, message: message, changes: changes, warnings: next.warnings)
    }

    /// HEAD's lists, the command's starting point (the commit just made holds every edit).
    /// Where git's index vouches that a working file holds HEAD's blob, the file is read
    /// rather than the blob: in a vault, thousands of blobs each put through git's filters
    /// cost far more than reading the files. One reading pass: gitattributes from the note.
    func headForCommand() throws(TodoSyncError) -> HeadSnapshot? {
        try readingPass { () throws(TodoSyncError) -> HeadSnapshot? in
            _ = try scanForPass()
            guard let tree = try readHeadTree() else { return nil }
            let paths = tree.files.map(\.path)
            let stamps = try git("reading git's index") { try repository.indexStamps(for: paths) }
            let stats = prefetchStats(paths)
            let vouched = paths.indices.filter { position in
                stats[position].map { stat in stamps.blob(at: position, stat: stat) != nil } ?? false
            }.map { paths[$0] }
            Trace.note("HEAD's lists read from the working tree: \(vouched.count) of \(paths.count)")
            return try readHead(tree, reusing: try readWorkingFiles(vouched), stamps: stamps)
        }
    }

    /// What to do about an edit the lists refuse.
    static func hint(for error: EditError) -> String {
        switch error {
        case .noSuchItem: "todosync list shows every item with its id"
        case .invalidTitle: "a title is one line of text: no line break, not empty"
        case .invalidNotes:
            "notes are text under the item: write any items as items of their own (todosync add --under)"
        case .duplicateID: "run todosync, which gives a copied id a new one"
        case .insideItself: "choose an item outside it"
        case .cannotLand:
            "choose another place (--before, --after or --under another item), or close the block in the file"
        case .wouldChange: "make this change by editing the file, where you see the lines around it"
        case .noClash: "todosync status lists the clashes to settle"
        case .noSuchVersion, .oneValueOnly: "todosync status lists each clash with its versions"
        case .clashVersionHoldsItem:
            "move the item out of the clash first (todosync mv), or keep all versions: --keep all"
        case .unfinishedClash: "keep the lines you want, delete the clash comments, then run todosync"
        }
    }

    static func explain(_ failure: ItemRequest.Failure, prefix: String, batch: Bool) -> TodoSyncError {
        let nothing = batch ? "nothing in the batch was applied" : "nothing was changed"
        switch failure {
        case .query(.noMatch(let text)):
            return TodoSyncError(
                "\(prefix)no item matches \"\(text)\"; \(nothing)",
                hint: "todosync list shows every item with its id; give part of its title or the first digits of its id"
            )
        case .query(.ambiguous(let text, let candidates)):
            let shown = candidates.prefix(10).map {
                "  \($0.id.description.prefix(8))  \($0.title)  (\($0.file):\($0.line))"
            }
            let more = candidates.count > 10 ? ["  … and \(candidates.count - 10) more"] : []
            return TodoSyncError(
                "\(prefix)\"\(text)\" matches \(candidates.count) items; \(nothing):\n"
                    + (shown + more).joined(separator: "\n"),
                hint: "give more of the title, or the first digits of the id")
        case .edit(let error):
            return TodoSyncError("\(prefix)\(error); \(nothing)", hint: hint(for: error))
        case .noFile(let lists) where lists.isEmpty:
            return TodoSyncError(
                "\(prefix)there is no list file to add to; \(nothing)", hint: "name one with --file TODO.md")
        case .noFile(let lists):
            return TodoSyncError(
                "\(prefix)there are \(lists.count) lists and no TODO.md, so todosync does not guess which one gets the item; \(nothing)",
                hint: "name one with --file: " + lists.sorted().joined(separator: ", "))
        }
    }
}

extension Workspace {
    /// `todosync.doneDates`: whether checking an item off writes ✅ today (auto: where its list
    /// already has done dates).
    func doneDates() throws(TodoSyncError) -> RequestContext.DoneDates {
        guard let text = try git("reading todosync.doneDates", { try repository.configString("todosync.doneDates") })
        else { return .auto }
        guard let value = RequestContext.DoneDates(rawValue: text.lowercased()) else {
            throw TodoSyncError(
                "todosync.doneDates is '\(text)'; nothing was changed",
                hint:
                    "set it to auto (where the list already has done dates), always or never: git config todosync.doneDates always"
            )
        }
        return value
    }
}
