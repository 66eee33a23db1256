#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import TodoModel

/// The list files as the last commit holds them.
struct HeadSnapshot {
    var commit: Commit?
    var base: IDAssignment.Base
    /// Bytes and mode of every list file in the commit.
    var files: [String: (bytes: [UInt8], mode: UInt32)]
    /// The blob of every list file in the commit.
    var blobs: [String: OID] = [:]
}

/// HEAD's commit and the files of its tree that may be lists (ids only, no contents).
struct HeadTree {
    var commit: Commit
    var files: [TreeFile]
}

/// The list files as the working tree holds them, exactly as read.
struct WorkingSnapshot {
    var lists: ListSet
    /// nil: a list file of the last commit that is gone from the working tree.
    var readBytes: [String: [UInt8]?]
    /// Each file's stat as it was read, for git's index.
    var readStats: [String: FileStat] = [:]
}

/// A candidate file of the working tree, read and parsed.
struct WorkingFile {
    /// The stat of a version that is no file (a commit's, parsed already): no index entry
    /// matches it.
    static let noStat = FileStat(
        ctime: Timestamp(seconds: 0, nanoseconds: 0), mtime: Timestamp(seconds: 0, nanoseconds: 0), device: 0, inode: 0,
        userID: 0,
        groupID: 0, size: 0)

    /// A candidate file as read, not yet parsed.
    struct Read {
        var path: String
        var bytes: [UInt8]
        var stat: FileStat
    }

    var path: String
    var bytes: [UInt8]
    var stat: FileStat
    var document: ListDocument
}

extension Workspace {
    /// HEAD's commit (on a branch or detached) and candidate files; nil on a branch with no
    /// commit yet.
    func readHeadTree() throws(TodoSyncError) -> HeadTree? {
        guard let commit = try readHeadCommit() else { return nil }
        return HeadTree(commit: commit, files: try candidateFiles(inTree: commit.tree, among: nil))
    }

    /// HEAD's commit (on a branch or detached); nil on a branch with no commit yet.
    func readHeadCommit() throws(TodoSyncError) -> Commit? {
        let commitID: OID
        switch try git("reading HEAD", { try repository.head() }) {
        case .unborn: return nil
        case .branch(_, let commit), .detached(let commit): commitID = commit
        }
        return try git("reading the last commit") { try repository.commit(commitID) }
    }

    /// HEAD's lists, read and identified. `working`: the working tree's versions, parsed; a
    /// file git's index vouches (by `stamps`) holds HEAD's bytes is taken as it is, and HEAD's
    /// version of an edited one is parsed by taking the working parse where their lines agree.
    /// `among`: the only paths read (the lists a sync's sides changed); nil: every candidate.
    ///
    /// An item whose id a plain git commit lost or damaged takes back the id the commit's first
    /// parent gave it (`IDAssignment.recoverLostIDs`: the damaged digits, the title, the
    /// place), not a new one: whichever clone reads the commit, as the last commit, a merge's
    /// base or side, or a unit to undo, identifies it alike, and a merge pairs the item with
    /// the other side's edits. `recoveringLostIDs` false: the parent itself is read so (its
    /// own parent is not consulted: one step, never a walk down the history).
    func readHead(
        _ headTree: HeadTree?, reusing working: [WorkingFile] = [], stamps: IndexStamps? = nil,
        among: Set<String>? = nil,
        recoveringLostIDs: Bool = true
    ) throws(TodoSyncError) -> HeadSnapshot {
        guard let headTree else { return HeadSnapshot(commit: nil, base: .empty, files: [:]) }
        let commit = headTree.commit
        var documents: [ListDocument] = []
        var files: [String: (bytes: [UInt8], mode: UInt32)] = [:]
        var blobs: [String: OID] = [:]
        var workingFiles: [String: WorkingFile] = [:]
        for file in working { workingFiles[file.path] = file }
        for file in headTree.files {
            let working = workingFiles[file.path]
            let bytes: [UInt8], document: ListDocument
            if let working, let stamps, try holds(working, file.blob, stamps) {
                // The working file holds HEAD's bytes: nothing to read.
                (bytes, document) = (working.bytes, working.document)
            } else {
                bytes = try committedBytes(file)
                // The working parse serves as it is where the bytes are the same, else in part.
                if let working, working.bytes.sameBytes(as: bytes) {
                    document = working.document
                } else {
                    document = try ListDocument.parsing(file.path, bytes, reusing: working?.document)
                }
            }
            guard try isList(document) else { continue }
            documents.append(document)
            files[file.path] = (bytes, file.mode)
            blobs[file.path] = file.blob
        }
        let lists = ListSet(documents)
        var unidentified = IDAssignment.unidentified(lists)
        if unidentified.hasRepeatedIDs, let parent = commit.parents.first {
            // Which copy of a repeated id keeps it is judged against the first parent, identified
            // as a local commit's last commit is (so both decide alike).
            unidentified = IDAssignment.unidentified(lists, parentVersion: try parentLists(parent, among: among))
        }
        let derived = unidentified.lines
        let introductions =
            derived.isEmpty
            ? [:]
            : try Trace.phase("find the commits that introduced id-less lines") { () throws(TodoSyncError) in
                try LineIntroductions(repository: repository).find(derived, from: commit)
            }
        var base = IDAssignment.resolveBase(lists, unidentified) { line in
            (introductions[line] ?? commit.id).description
        }
        // Only the parent's versions of the files holding such items are read (not every list
        // of a vault for one note edited with plain git), whichever paths the caller reads.
        let holding = base.adoptedPaths
        if recoveringLostIDs, IDAssignment.mayRecoverLostIDs(base), let parent = commit.parents.first,
            let parentLists = try parentLists(
                parent, among: among.map { $0.intersection(holding) } ?? holding, recoveringLostIDs: false)
        {
            base = IDAssignment.recoveringLostIDs(base, from: parentLists)
        }
        return HeadSnapshot(commit: commit, base: base, files: files, blobs: blobs)
    }

    /// Whether a working file holds `blob`: git's index vouches for it by stat or, where it
    /// does not (the file was written since, copied, touched), its bytes as git stores them
    /// hash to it, as git checks. Not hashed: a large file written since the index took it in,
    /// most likely the edit, which the comparison with HEAD's bytes settles anyway.
    func holds(_ file: WorkingFile, _ blob: OID, _ stamps: IndexStamps) throws(TodoSyncError) -> Bool {
        try holds(file.path, file.bytes, file.stat, blob, stamps)
    }

    func holds(
        _ path: String, _ bytes: [UInt8], _ stat: FileStat, _ blob: OID, _ stamps: IndexStamps
    ) throws(TodoSyncError) -> Bool {
        if stamps.blob(at: path, stat: stat) == blob { return true }
        guard bytes.count <= Self.largestHashedUnvouched || stamps.sizeAndMTimeMatch(at: path, stat: stat) else {
            return false
        }
        if let known = pass?.hashes[path] { return known == blob }
        let stored = try storedBytes(bytes, at: path)
        let hash = try git("hashing \(path)") { try Repository.blobID(of: stored) }
        pass?.hashes[path] = hash
        return hash == blob
    }

    /// See `holds`: hashing a file this size costs less than reading HEAD's version of it.
    static let largestHashedUnvouched = 256 << 10

    /// A list file of a commit as the working tree holds it: as `git checkout` writes it or,
    /// where git converts the file's content and would store the working file as this very
    /// blob, the working file's bytes (line endings as the user keeps them, which a write then
    /// expects to find and keeps).
    private func committedBytes(_ file: TreeFile) throws(TodoSyncError) -> [UInt8] {
        let ahead = pass?.blobsReadAhead.removeValue(forKey: file.blob)
        guard try convertsContent(at: file.path) else {
            return try git("reading \(file.path) from the last commit") { () throws(GitError) in
                if let ahead { return try ahead.bytes() }
                return try repository.blob(file.blob)
            }
        }
        let checkedOut = try committedBytes(file.blob, at: file.path)
        guard let working = try FileSystem.read(root + "/" + file.path), !working.sameBytes(as: checkedOut) else {
            return checkedOut
        }
        let stored = try storedBytes(working, at: file.path)
        let storedID = try git("hashing \(file.path)") { try Repository.blobID(of: stored) }
        return storedID == file.blob ? working : checkedOut
    }

    /// A parent commit's lists, identified; nil beyond a shallow clone's history.
    private func parentLists(
        _ id: OID, among: Set<String>?, recoveringLostIDs: Bool = true
    ) throws(TodoSyncError) -> ListSet? {
        do {
            return try readCommit(id, among: among, recoveringLostIDs: recoveringLostIDs).base.lists
        } catch  where error.isBeyondShallowHistory {
            return nil
        }
    }

    /// The lists of any commit, read and identified as `readHead` does. `fromWorkingTree`: the
    /// commit is HEAD, and a working file git's index vouches for (by stat) is taken as read
    /// from the working tree rather than from the commit (right after a commit, every one).
    /// `among`: only these paths are read (nil: every candidate file of the commit).
    /// `parsedLike`: another version of these lists, already parsed (an undo's HEAD, for the
    /// unit and its parent): the parse reuses what the two hold alike.
    /// With `fromWorkingTree`, the working files stand for the commit's lists where they hold
    /// its blobs; a file `recentlyRead` (this run's commit read it) is taken as read if its stat
    /// is the same and its times are before the workspace was opened: a save since then has
    /// later times (file times come from the clock `openedAt` reads). The merge's write checks
    /// the bytes it replaces in any case.
    func readCommit(
        _ id: OID, fromWorkingTree: Bool = false, among: Set<String>? = nil, recoveringLostIDs: Bool = true,
        parsedLike: HeadSnapshot? = nil,
        recentlyRead: [WorkingFile] = []
    ) throws(TodoSyncError) -> HeadSnapshot {
        // A few files (a sync's changed notes, an undo's) are asked of libgit2 one by one: in a
        // vault, decoding the note for what gitattributes say of them costs more.
        if (among?.count ?? .max) > 64 { preloadNotedAttributes() }
        let commit = try git("reading commit \(id.short)") { try repository.commit(id) }
        let files = try candidateFiles(inTree: commit.tree, among: among)
        guard fromWorkingTree else {
            var like: [WorkingFile] = []
            for (path, file) in parsedLike?.files ?? [:] {
                guard let document = parsedLike?.base.lists[path] else { continue }
                like.append(WorkingFile(path: path, bytes: file.bytes, stat: WorkingFile.noStat, document: document))
            }
            return try readHead(
                HeadTree(commit: commit, files: files), reusing: like, among: among,
                recoveringLostIDs: recoveringLostIDs)
        }
        let paths = files.map(\.path)
        let stamps = try git("reading git's index") { try repository.indexStamps(for: paths) }
        var recent: [String: WorkingFile] = [:]
        for file in recentlyRead { recent[file.path] = file }
        var working: [WorkingFile] = []
        var unread: [String] = []
        for path in paths {
            if let file = recent[path], file.stat.isSettled(before: openedAt),
                FileSystem.regularFileStat(root + "/" + path) == file.stat
            {
                working.append(file)
            } else {
                unread.append(path)
            }
        }
        if !recentlyRead.isEmpty {
            Trace.note("files taken as just read: \(working.map(\.path)) of \(recentlyRead.map(\.path))")
        }
        working += try readWorkingFiles(unread)
        return try readHead(
            HeadTree(commit: commit, files: files), reusing: working, stamps: stamps, among: among,
            recoveringLostIDs: recoveringLostIDs)
    }

    /// Starts reading these trees' versions of each large list among `paths` (a few: an
    /// undo's, a sync's changed lists) on threads of their own, while the working versions are
    /// read and parsed (`committedBytes` takes them).
    func readAhead(_ paths: Set<String>, of trees: [OID]) throws(TodoSyncError) {
        guard pass != nil, paths.count <= 8, !trees.isEmpty else { return }
        let large = paths.filter { path in
            (FileSystem.regularFileStat(root + "/" + path)?.size).map { Int($0) >= Self.largestHashedUnvouched }
                ?? false
        }
        guard !large.isEmpty else { return }
        for tree in trees {
            for file in try candidateFiles(inTree: tree, among: large) where pass?.blobsReadAhead[file.blob] == nil {
                pass?.blobsReadAhead[file.blob] = BlobRead(reading: file.blob, in: repository.gitDirectory)
                Trace.note("read ahead: \(file.path) of tree \(tree.short)")
            }
        }
    }

    /// The files of a tree that may be lists, among `paths` (nil: all of them).
    func candidateFiles(inTree tree: OID, among paths: Set<String>?) throws(TodoSyncError) -> [TreeFile] {
        let selector = self.selector
        return try git("listing the files of tree \(tree.short)") {
            guard let paths else { return try repository.files(inTree: tree, include: selector.matches) }
            return try repository.files(inTree: tree, among: paths.filter(selector.matches))
        }
    }

    /// The candidate paths that differ between two trees (`old` nil: the empty tree).
    func changedCandidates(from old: OID?, to new: OID) throws(TodoSyncError) -> Set<String> {
        let selector = self.selector
        let paths = try git("comparing trees") { try repository.changedPaths(from: old, to: new) }
        return Set(paths.filter(selector.matches))
    }

    /// Reads and parses every candidate file of the working tree once; both the fast check and
    /// the full comparison use the result.
    func readWorkingFiles(_ paths: [String]) throws(TodoSyncError) -> [WorkingFile] {
        try parseWorkingFiles(readWorkingBytes(paths))
    }

    /// Every candidate file's bytes and stat; a file gone meanwhile is skipped.
    func readWorkingBytes(_ paths: [String]) throws(TodoSyncError) -> [WorkingFile.Read] {
        var result: [WorkingFile.Read] = []
        for (index, path) in paths.enumerated() {
            tellProgress("Reading notes for the commit", index, of: paths.count)
            guard let (bytes, stat) = try FileSystem.readWithStat(root + "/" + path) else { continue }
            result.append(WorkingFile.Read(path: path, bytes: bytes, stat: stat))
        }
        return result
    }

    func parseWorkingFiles(_ files: [WorkingFile.Read]) throws(TodoSyncError) -> [WorkingFile] {
        var result: [WorkingFile] = []
        for file in files {
            result.append(
                WorkingFile(
                    path: file.path, bytes: file.bytes, stat: file.stat,
                    document: try ListDocument.parsing(file.path, file.bytes)))
        }
        return result
    }

    /// The working tree's lists. A list of the last commit that is not a file here is gone,
    /// unless it is outside a sparse checkout (then it stands as committed); one that is now a
    /// directory or a symbolic link is refused, naming it.
    func workingSnapshot(_ files: [WorkingFile], head: HeadSnapshot) throws(TodoSyncError) -> WorkingSnapshot {
        var documents: [ListDocument] = []
        var readBytes: [String: [UInt8]?] = [:]
        var readStats: [String: FileStat] = [:]
        var seen = Set<String>()
        for file in files {
            seen.insert(file.path)
            guard try isList(file.document) || head.files[file.path] != nil else { continue }
            documents.append(file.document)
            readBytes[file.path] = file.bytes
            readStats[file.path] = file.stat
        }
        let missing = try filesNotInWorkingTree(head.files.keys.filter { !seen.contains($0) })
        if let (path, kind) = missing.replaced.first {
            throw TodoSyncError(
                "\(path) is now \(kind), no longer the list file the last commit holds; nothing was changed",
                hint:
                    "move it aside and bring the list back (git restore \(path)), or stop keeping it: git rm --cached \(path)"
            )
        }
        for path in missing.gone { readBytes[path] = .some(nil) }
        for path in missing.outsideSparseCheckout {
            if let document = head.base.lists[path] { documents.append(document) }
        }
        return WorkingSnapshot(lists: ListSet(documents), readBytes: readBytes, readStats: readStats)
    }

    /// Files of the last commit that the working tree does not hold as regular files: removed,
    /// outside a sparse checkout (git's index marks them skip-worktree), or replaced by a
    /// directory or a symbolic link (git would record that, not the file), sorted.
    func filesNotInWorkingTree(_ paths: [String]) throws(TodoSyncError) -> MissingFiles {
        var missing = MissingFiles()
        guard !paths.isEmpty else { return missing }
        let sparse = try git("reading git's index") { try repository.pathsSkippingWorktree(paths) }
        for path in paths.sorted() {
            if let link = FileSystem.symbolicLink(on: path, under: root) {
                missing.replaced.append((path, link == path ? "a symbolic link" : "behind a symbolic link (\(link))"))
                continue
            }
            switch FileSystem.kind(of: root + "/" + path) {
            case nil:
                if sparse.contains(path) {
                    missing.outsideSparseCheckout.insert(path)
                } else {
                    missing.gone.append(path)
                }
            case .file?: continue
            case .directory?: missing.replaced.append((path, "a directory"))
            case .other?, .symlink?: missing.replaced.append((path, "no regular file"))
            }
        }
        return missing
    }

    /// The files of the working tree that may be lists (selected by name, not ignored by git,
    /// not symbolic links: git stores a link, not the list; not inside nested repositories),
    /// and the folders looked through to find them.
    func scanCandidates() throws(TodoSyncError) -> CandidateScan {
        var scan = CandidateScan()
        var folders = [""]
        // Where no ignore file names a pattern, none is looked up per file (libgit2 reads every
        // ignore file along each path). A folder is walked after every folder above it, so
        // the .gitignore files met so far include all that could leave out what it holds.
        let outsidePatterns = outsideIgnoreFiles().contains(where: Self.namesIgnorePatterns)
        var ignoreFileMet = false
        while let folder = folders.popLast() {
            scan.folders.append(folder)
            let absolute = folder.isEmpty ? root : root + "/" + folder
            let listing = FileSystem.entries(of: absolute)
            for bytes in listing.notUTF8 where selector.matches(String(decoding: bytes, as: UTF8.self)) {
                scan.namesNotUTF8.append((folder.isEmpty ? [] : Array((folder + "/").utf8)) + bytes)
            }
            if !ignoreFileMet { ignoreFileMet = listing.entries.contains { $0.name == ".gitignore" } }
            let ignores = outsidePatterns || ignoreFileMet
            for (name, kind) in listing.entries where name != ".git" {
                let path = folder.isEmpty ? name : folder + "/" + name
                switch kind {
                case .directory:
                    if FileSystem.exists(root + "/" + path + "/.git") {
                        scan.nestedRepositories.append(path)
                    } else if !ignores {
                        folders.append(path)
                    } else if try !isLeftOut(folder: path + "/") {
                        folders.append(path)
                    }
                case .file:
                    if selector.matches(path) { scan.files.append(path) }
                default:
                    continue
                }
            }
        }
        scan.files.sort(by: PathOrder.precedes)
        // A file git tracks is never left out by .gitignore: only the others are looked up.
        guard outsidePatterns || ignoreFileMet else { return scan }
        let untracked = try git("reading git's index") { try repository.untrackedPositions(among: scan.files) }
        var leftOut = Set<Int>()
        for position in untracked where try isLeftOut(file: scan.files[position]) { leftOut.insert(position) }
        if !leftOut.isEmpty {
            scan.files = scan.files.enumerated().filter { !leftOut.contains($0.offset) }.map(\.element)
        }
        return scan
    }

    /// Whether an ignore file holds a line that is neither blank nor a comment (a file that
    /// cannot be read counts as one that does).
    static func namesIgnorePatterns(_ path: String) -> Bool {
        let bytes: [UInt8]
        do throws(TodoSyncError) {
            guard let read = try FileSystem.read(path) else { return false }
            bytes = read
        } catch {
            return true
        }
        // NB: only a "#" that starts the line makes a comment; a line of blanks is empty.
        return bytes.split(separator: UInt8(ascii: "\n")).contains { line in
            line.first != UInt8(ascii: "#") && line.contains { ![0x20, 0x09, 0x0D].contains($0) }
        }
    }

    /// Whether .gitignore leaves out a file git does not track (one it tracks never is).
    private func isLeftOut(file path: String) throws(TodoSyncError) -> Bool {
        try git("checking .gitignore for \(path)") { () throws(GitError) in
            try repository.isIgnored(path)
        }
    }

    /// Whether .gitignore leaves a folder out, and git tracks nothing inside it.
    private func isLeftOut(folder path: String) throws(TodoSyncError) -> Bool {
        try git("checking .gitignore for \(path)") { () throws(GitError) in
            try repository.isIgnored(path) ? !(try repository.tracksFiles(inside: path)) : false
        }
    }
}

extension ListDocument {
    /// Parses a list file, refusing one too large to hold (rather than stopping on the precondition).
    static func parsing(
        _ path: String, _ bytes: [UInt8], reusing other: ListDocument? = nil
    ) throws(TodoSyncError) -> ListDocument {
        guard bytes.count <= maximumSize else {
            throw TodoSyncError(
                "\(path) holds \(bytes.count / 1_048_576) MB; todosync reads list files of up to 2 GB",
                hint: "split it into several list files, or exclude it: git config --add todosync.exclude \(path)")
        }
        return ListDocument(path: path, bytes: bytes, reusing: other)
    }
}

/// What a search of the working tree for list files found, and where it looked.
struct CandidateScan {
    /// Files that may be lists, in `PathOrder`.
    var files: [String] = []
    /// Every folder searched ("" is the root); ignored folders are not searched.
    var folders: [String] = []
    /// Folders skipped because they hold a repository of their own.
    var nestedRepositories: [String] = []
    /// Paths whose names are not valid UTF-8: never read (nor committed) as lists.
    var namesNotUTF8: [[UInt8]] = []
}

/// Files of a commit the working tree does not hold as regular files (`filesNotInWorkingTree`).
struct MissingFiles {
    var gone: [String] = []
    var outsideSparseCheckout = Set<String>()
    var replaced: [(path: String, kind: String)] = []
}

extension Workspace {
    /// Versions compared (undo, a sync's merge or fast-forward) made to speak of the same files: a
    /// file that is a list in one version but holds no item in another (items moved into a
    /// notes file) is read into that other version as it stands there. Otherwise the merge
    /// would take it as absent there: undoing the move deleted the notes, and a fast-forward
    /// refused to write a file it took for new (or deleted one whose items moved out).
    func sharingFiles(_ snapshots: [HeadSnapshot]) throws(TodoSyncError) -> [HeadSnapshot] {
        let paths = Set(snapshots.flatMap { $0.base.lists.documents.keys })
        var result = snapshots
        for index in result.indices {
            guard let commit = result[index].commit else { continue }
            for path in paths.sorted() where result[index].base.lists[path] == nil {
                guard
                    let file = try git(
                        "reading \(path) in commit \(commit.id.short)",
                        { try repository.file(at: path, inTree: commit.tree) })
                else { continue }
                let bytes = try committedBytes(file)
                result[index].base.lists[path] = try ListDocument.parsing(path, bytes)
                result[index].files[path] = (bytes, file.mode)
                result[index].blobs[path] = file.blob
            }
        }
        return result
    }
}
