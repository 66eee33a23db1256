import GitStore
import TodoModel

/// What `todosync init` did.
public struct InitOutcome {
    public var root: String
    public var createdRepository: Bool
    public var createdExampleList: Bool
    public var remote: String?
    /// The list files after init, and the Markdown files with task items it left alone (a
    /// project's own documents: templates, changelogs, anything in a dot-folder).
    public var lists: [String] = []
    public var leftAlone: [String] = []
    /// The folder looked like a software project: only the files adopted now are lists (and
    /// any TODO.md), not every Markdown file with task items.
    public var isProject = false
    /// The adoption commit (nil if the lists were already committed with ids).
    public var commit: CommitOutcome
    /// With a remote: what came in from it (its lists, when it had some), and whether the
    /// branch was pushed there.
    public var joined: SyncOutcome?
    public var pushed = false
    /// `.gitattributes` names todosync's merge driver and this clone's config sets it up.
    public var mergeDriver = false
    /// Files of the folder the remote also has: what the folder's own held that the remote's
    /// lacked, appended (`ListDocument.bringingIn`).
    public var broughtIn: [BroughtIn] = []

    public struct BroughtIn: Sendable {
        public var path: String
        /// The titles of the items appended.
        public var items: [String]
        /// How many lines of text were appended.
        public var textLines: Int
    }
}

extension Workspace {
    /// The list `todosync init` writes when the folder has none.
    static let exampleList = """
        # TODO

        Edit this file in any editor, then run `todosync` to commit the changes.

        - [ ] Try todosync 🔼
          Notes are the lines indented under an item.
        - [ ] Buy milk
        - [x] Install todosync

        """

    /// Creates (or adopts) a repository of lists in `directory`: makes the repository if there
    /// is none, adopts the Markdown files that hold task items (not a project's own documents,
    /// `isProjectDocument`) and records them in `.gitattributes`, writes an example TODO.md if
    /// there is no list, and commits ids for every item.
    ///
    /// With `remote`: sets it up as `origin` with the branch tracking it and fetches first. A
    /// remote that holds the branch is taken in as `git clone` would (no example list is
    /// written) or merged with a related local history; one that is empty gets the new
    /// commit pushed. An unrelated history is refused, as by sync.
    ///
    /// `executable`: how todosync was run, for git's config to run it as the merge driver (nil:
    /// no merge driver is set up).
    ///
    /// `progress`: told how a long adoption (a vault of thousands of notes) is getting on, a
    /// line at a time, for a terminal to show.
    public static func initialize(
        at directory: String, remote: String? = nil, runsHooks: Bool = true, executable: String? = nil,
        configuration: WorkspaceConfiguration = WorkspaceConfiguration(), progress: ((String) -> Void)? = nil
    ) throws(TodoSyncError) -> InitOutcome {
        StuckReadGuard.limit = configuration.objectReadTimeout
        Trace.isOn = configuration.traces
        try FileSystem.createDirectory(directory)
        var created = false
        let repository: Repository
        do {
            repository = try Repository.open(at: directory)
        } catch  where error.isUnsafeOwnership {
            throw dubiousOwnership(from: directory)
        } catch  where error.isNotFound {
            repository = try git("creating the repository") {
                try Repository.create(at: directory, initialBranch: "main")
            }
            created = true
        } catch {
            throw .git(error, while: "opening \(directory)")
        }
        let workspace = try Workspace(repository: repository, startDirectory: directory, configuration: configuration)
        workspace.runsHooks = runsHooks
        workspace.progress = progress
        do {
            return try workspace.writing { () throws(TodoSyncError) in
                try workspace.checkReadyToCommit()
                return try workspace.initialize(createdRepository: created, remote: remote, executable: executable)
            }
        } catch {
            // A repository this init made and could not give a first commit (the remote was
            // unreachable, a file was in the way) is taken away again: no half-made repository.
            if created, case .unborn? = try? repository.head() {
                let gitDirectory = workspace.root + "/.git"
                if FileSystem.kind(of: gitDirectory) == .directory { FileSystem.removeTreeItMade(gitDirectory) }
            }
            throw error
        }
    }

    private func initialize(
        createdRepository created: Bool, remote: String?, executable: String?
    ) throws(TodoSyncError) -> InitOutcome {
        var joined: SyncOutcome?, broughtIn: [InitOutcome.BroughtIn] = []
        if let remote {
            try setUpRemote(remote)
            (joined, broughtIn) = try joinRemote()
        }
        var documents: [ListDocument] = []
        let scan = try scanCandidates()
        for (index, path) in scan.files.enumerated() {
            tellProgress("Reading notes", index, of: scan.files.count)
            guard let bytes = try FileSystem.read(root + "/" + path) else { continue }
            documents.append(try ListDocument.parsing(path, bytes))
        }
        let isProject =
            Self.projectMarkers.contains { FileSystem.exists(root + "/" + $0) }
            || documents.contains { Self.hasProjectDocumentName($0.path) }
        var lists: [String] = [], leftAlone: [String] = [], recorded: [String] = [], unmarked: [String] = []
        let noAttributes = Self.attributesSayNothing(attributeSourceStamps(scan))
        for document in documents {
            let marking = noAttributes ? .unspecified : try marking(of: document.path)
            if selector.isList(document, marking: marking) {
                lists.append(document.path)
            } else if document.hasItems {
                if marking == .unmarked {
                    unmarked.append(document.path)
                } else if Self.isProjectDocument(document.path) {
                    leftAlone.append(document.path)
                } else {
                    lists.append(document.path)
                    recorded.append(document.path)
                }
            }
        }
        var wroteExample = false
        if lists.isEmpty, !FileSystem.exists(root + "/TODO.md") {
            lists = ["TODO.md"]
            wroteExample = true
        }
        // A lists folder: every Markdown file with items is a list, now and later. A project:
        // only the files adopted here (and any TODO.md).
        var marks = isProject ? recorded.map { ListFileSelector.attributeLine(for: $0, isList: true) } : []
        if !isProject, try marking(of: "any new file.md") != .marked {
            marks = ListFileSelector.markdown.map { "\($0) \(ListFileSelector.attribute)" }
        }
        // What is left alone stays so when new items are typed into it.
        if !isProject { marks += leftAlone.map { ListFileSelector.attributeLine(for: $0, isList: false) } }
        // Plain git merges (pull, rebase, cherry-pick) of lists go through todosync's driver,
        // which leaves any file that is not a list to git's own line merge.
        if executable != nil, try !attributesNameMergeDriver() { marks += Self.mergeAttributeLines }
        try writeInitialFiles(example: wroteExample, attributeLines: marks)
        leftAlone += unmarked
        if lists.count >= Self.progressFrom {
            progress?("Committing \(lists.count) lists: ids written into them, stored in git")
        }
        // The folder's own lines brought into the remote's files are committed with the
        // adoption: a list as one, another Markdown file as the text it is.
        var alongside = [Self.attributesFile: "Record which files are lists in \(Self.attributesFile)"]
        for brought in broughtIn where !lists.contains(brought.path) {
            alongside[brought.path] = "Bring this folder's own text of \(brought.path) in"
        }
        let outcome = try commit(
            summary: !broughtIn.isEmpty
                ? "Bring this folder's own lists in"
                : created || wroteExample ? "Start todo lists" : "Adopt lists into todosync",
            kind: .adopt, alongside: alongside)
        if let executable { try setUpMergeDriver(executable: executable) }
        let pushed = joined == nil ? false : try sync().pushed
        return InitOutcome(
            root: root, createdRepository: created, createdExampleList: wroteExample,
            remote: remote.map(Credentials.removed),
            lists: lists.sorted(), leftAlone: leftAlone.sorted(), isProject: isProject, commit: outcome, joined: joined,
            pushed: pushed,
            mergeDriver: executable != nil, broughtIn: broughtIn)
    }

    static let attributesFile = ".gitattributes"

    /// How many files make an adoption long enough to tell how it is getting on.
    static let progressFrom = 1_000

    /// Tells `progress` of `done` of `total` files, a twentieth at a time, for long work only.
    func tellProgress(_ what: String, _ done: Int, of total: Int) {
        guard let progress, total >= Self.progressFrom, done % max(1, total / 20) == 0 else { return }
        progress("\(what): \(done) of \(total)")
    }

    /// Writes the example list and the lines that mark lists into `.gitattributes` (added to
    /// what it holds), so the adoption commit that follows reads them as lists.
    private func writeInitialFiles(example: Bool, attributeLines: [String]) throws(TodoSyncError) {
        guard example || !attributeLines.isEmpty else { return }
        guard let branch = try branchReference() else { throw detachedHead() }
        var files: [WritePlan.FileWrite] = []
        if example {
            files.append(WritePlan.FileWrite(path: "TODO.md", expected: nil, final: Array(Self.exampleList.utf8)))
        }
        if !attributeLines.isEmpty {
            let path = Self.attributesFile
            let existing = try FileSystem.read(root + "/" + path)
            var text = existing.map { String(decoding: $0, as: UTF8.self) } ?? ""
            if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
            text += "# Lists todosync keeps (todosync init --help)\n" + attributeLines.map { $0 + "\n" }.joined()
            files.append(WritePlan.FileWrite(path: path, expected: existing, final: Array(text.utf8)))
        }
        let current = try git("reading \(branch)") { try repository.reference(branch) }
        _ = try apply(WritePlan(branch: branch, expectedHead: current, files: files, reflogMessage: "todosync init"))
        // Written within this clock tick: libgit2 must not answer from what it read before.
        try git("reading .gitattributes") { try repository.forgetCachedAttributes() }
    }

    /// Files and folders at a folder's root that say it is a software project.
    static let projectMarkers = [
        ".github", ".gitlab", ".gitlab-ci.yml", ".gitea", ".forgejo", "Package.swift", "package.json", "Cargo.toml",
        "go.mod",
        "pyproject.toml", "setup.py", "Makefile", "CMakeLists.txt", "pom.xml", "build.gradle", "Gemfile", "LICENSE",
        "COPYING", "src",
    ]

    /// A project's own Markdown, which may hold checkboxes that are not anyone's list: files in
    /// dot-folders (`.github/…`) and template folders, and the usual project documents.
    static func isProjectDocument(_ path: String) -> Bool {
        let folders = path.split(separator: "/").dropLast()
        return folders.contains { $0.hasPrefix(".") || $0.uppercased().hasSuffix("_TEMPLATE") }
            || hasProjectDocumentName(path)
    }

    /// CHANGELOG.md, CONTRIBUTING.md and the like: a sign of a software project.
    static func hasProjectDocumentName(_ path: String) -> Bool {
        let name = (path.split(separator: "/").last ?? "").uppercased()
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        return [
            "CHANGELOG", "CHANGES", "CONTRIBUTING", "CODE_OF_CONDUCT", "SECURITY", "LICENSE", "AUTHORS",
            "PULL_REQUEST_TEMPLATE", "ISSUE_TEMPLATE", "RELEASE_NOTES",
        ].contains(stem)
    }

    /// `origin` at `url`, and the current branch tracking `origin/<branch>`.
    func setUpRemote(_ url: String) throws(TodoSyncError) {
        let existing = try git("reading remote.origin.url") { try repository.configString("remote.origin.url") }
        if let existing, existing != url {
            throw TodoSyncError(
                "this repository already has a remote 'origin' at \(existing)",
                hint: "to use \(url) instead: git remote set-url origin \(url)")
        }
        let branch = try self.branch() ?? "main"
        try git("setting up the remote") {
            if existing == nil {
                try repository.setConfig("remote.origin.url", to: url)
                try repository.setConfig("remote.origin.fetch", to: "+refs/heads/*:refs/remotes/origin/*")
            }
            try repository.setConfig("branch.\(branch).remote", to: "origin")
            try repository.setConfig("branch.\(branch).merge", to: "refs/heads/\(branch)")
        }
    }
}

extension Workspace {
    /// Fetches the remote just set up and brings its branch in (a clone onto a branch with no
    /// commit, else a sync's merge), before init writes anything.
    private func joinRemote() throws(TodoSyncError) -> (SyncOutcome, [InitOutcome.BroughtIn]) {
        let upstream = try upstream()
        do {
            try checkReachable(upstream)
            try fetch(upstream, progress: nil)
        } catch {
            var failure = error
            failure.hint =
                "nothing was fetched and no list written; once 'git ls-remote \(upstream.url)' works here, run todosync init again"
            throw failure
        }
        var outcome = SyncOutcome(upstream: upstream)
        let (writes, reports) = try filesToBringIn(from: upstream)
        var nothingRead: [WorkingFile] = []
        try integrate(
            upstream, allowUnrelatedHistories: false, recentlyRead: &nothingRead, bringingIn: writes, into: &outcome)
        try git("reading .gitattributes") { try repository.forgetCachedAttributes() }
        return (outcome, reports)
    }

    /// A folder with no commit yet that already holds files the remote has: each Markdown file
    /// gets the remote's version with what the folder's own held that it lacks appended
    /// (`ListDocument.bringingIn`), to be committed with the adoption; any other file that
    /// differs is refused, as `git clone` refuses a folder in the way (files the remote lacks
    /// stay, and are adopted after).
    private func filesToBringIn(
        from upstream: Upstream
    ) throws(TodoSyncError) -> ([String: (local: [UInt8], merged: [UInt8])], [InitOutcome.BroughtIn]) {
        guard case .unborn = try git("reading HEAD", { try repository.head() }),
            let theirs = try git("reading \(upstream.trackingRef)", { try repository.reference(upstream.trackingRef) })
        else { return ([:], []) }
        let tree = try git("reading \(upstream.name)") { try repository.commit(theirs).tree }
        let files = try git("listing the files of \(upstream.name)") {
            try repository.files(inTree: tree, include: { _ in true })
        }
        var writes: [String: (local: [UInt8], merged: [UInt8])] = [:], reports: [InitOutcome.BroughtIn] = []
        for file in files where FileSystem.exists(root + "/" + file.path) {
            let local = try FileSystem.read(root + "/" + file.path)
            let remote = try git("reading \(file.path) of \(upstream.name)") { try repository.blob(file.blob) }
            if let local, sameBytes(local, remote) {
                writes[file.path] = (local, remote)
                continue
            }
            guard let local, selector.matches(file.path), ListDocument.binaryOffset(local) == nil,
                ListDocument.binaryOffset(remote) == nil
            else {
                throw TodoSyncError(
                    "\(file.path) is already here, and \(upstream.name) has a different file of that name; todosync will not overwrite it; nothing was merged",
                    hint:
                        "move it aside (or init in an empty folder), run todosync init again, then copy what you need back in"
                )
            }
            let brought = try ListDocument.parsing(file.path, remote).bringingIn(
                try ListDocument.parsing(file.path, local))
            writes[file.path] = (local, brought.document.render())
            reports.append(InitOutcome.BroughtIn(path: file.path, items: brought.items, textLines: brought.textLines))
        }
        return (writes, reports.sorted { $0.path < $1.path })
    }
}
