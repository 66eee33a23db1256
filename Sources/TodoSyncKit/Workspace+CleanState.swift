#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore
import QuickStatus

extension Workspace {
    /// How long a file must have been left alone before a clean-state note relies on its stamp.
    /// A change within the same tick of a file system's clock can leave the stamp as it was;
    /// 2 s is the coarsest tick in use (FAT), and covers a write still under way.
    public static let settleTime: Int64 = 2_000_000_000

    /// Records that the working tree is clean and that `status` said `report` (and whether a
    /// commit could run), so that the next `status` or `todosync` can answer again from stamps
    /// alone (see `CleanState`). Best effort and only when safe: never for a unit with anything
    /// to commit or warn about, nor when a file it stamps changed within `settleTime` before
    /// this workspace was opened, nor when git config includes other files (their paths are
    /// not known here).
    ///
    /// `report` is asked for only once the note will be written (it reads the upstream).
    public func recordCleanState(_ unit: PendingUnit, report: () -> [String], settleTime: Int64 = Workspace.settleTime)
    {
        guard !Trace.isOn, unit.isEmpty, unit.diagnostics.isEmpty, unit.idsToWrite == 0,
            let environment = CleanState.currentEnvironment(), let paths = cleanStatePaths(unit.scan)
        else { return }
        var stamps: [FileStamp] = []
        for path in paths {
            guard let stamp = FileStamp.take(path), stamp.isSettled(before: openedAt - settleTime) else { return }
            stamps.append(stamp)
        }
        // The most recently changed first: the file a user edits next is most likely the one
        // edited last, so the next check finds the change at once, not after half a vault.
        stamps.sort { ($0.status?.changed ?? .max) > ($1.status?.changed ?? .max) }
        let commitReady = (try? checkReadyToCommit()) != nil
        let note = CleanState(
            root: root, environment: environment, stamps: stamps, report: report(), commitReady: commitReady)
        guard let bytes = note.encoded(), bytes.count < CleanState.maximumNoteSize else { return }
        FileSystem.writeCache(repository.gitDirectory + CleanState.fileName, bytes)
    }

    /// Every path whose stamp a clean-state note needs, absolute; nil when the answer depends on
    /// something a stamp cannot show.
    func cleanStatePaths(_ scan: CandidateScan) -> [String]? {
        let gitDirectory = repository.gitDirectory
        // A linked worktree or reftable keeps refs where these stamps do not look.
        guard !scan.folders.isEmpty, gitDirectory == root + "/.git/", !FileSystem.exists(gitDirectory + "reftable")
        else { return nil }
        // A file it cannot read is warned about every time.
        guard scan.namesNotUTF8.isEmpty else { return nil }
        // Another build of todosync may word its answer differently.
        var paths = RunningProgram.path.map { [$0] } ?? []
        // git's index decides which files .gitignore leaves out (never a tracked one) and which
        // are outside a sparse checkout.
        // gitattributes (the todosync attribute) decide which Markdown files are lists.
        for name in ["HEAD", "config", "packed-refs", "commondir", "info/exclude", "info/attributes", "index"] {
            paths.append(gitDirectory + name)
        }
        // Where git marks an operation in progress (as libgit2's git_repository_state reads
        // it): a commit is refused while one is.
        for name in [
            "MERGE_HEAD", "REVERT_HEAD", "CHERRY_PICK_HEAD", "BISECT_LOG", "sequencer/todo", "rebase-merge",
            "rebase-apply",
        ] {
            paths.append(gitDirectory + name)
        }
        if let branch = try? branch() { paths.append(gitDirectory + "refs/heads/" + branch) }
        if let upstream = try? upstream() { paths.append(gitDirectory + upstream.trackingRef) }

        let user = Self.userFolders()
        var configFiles = [gitDirectory + "config", user.home + "/.gitconfig", user.git + "/config", "/etc/gitconfig"]
        configFiles += Repository.outsideConfigFiles().filter { !configFiles.contains($0) }
        // [include] and [includeIf] sections name files found only by reading config: no note then.
        guard !configFiles.contains(where: includesOtherFiles) else { return nil }
        paths += configFiles.dropFirst()
        // NB: info/exclude and info/attributes are stamped above (no linked worktree here).
        let stamped = Set(paths)
        paths += (outsideIgnoreFiles() + outsideAttributeFiles()).filter { !stamped.contains($0) }

        for folder in scan.folders {
            let absolute = folder.isEmpty ? root : root + "/" + folder
            paths += [absolute, absolute + "/.gitignore", absolute + "/.gitattributes"]
        }
        paths += scan.nestedRepositories.map { root + "/" + $0 }
        paths += scan.files.map { root + "/" + $0 }
        return paths
    }
}

/// Whether a git config file has an `[include]` or `[includeIf ...]` section (any case).
func includesOtherFiles(_ configFile: String) -> Bool {
    guard let bytes = try? FileSystem.read(configFile) else { return false }
    // NB: a closure, not the key path `\.isNewline`: a key path to a standard library getter
    // makes the debug build's dynamic linker warn on standard error.
    return String(decoding: bytes, as: UTF8.self).split { $0.isNewline }.contains { line in
        let section = line.drop { $0 == " " || $0 == "\t" }.lowercased()
        return section.hasPrefix("[include]") || section.hasPrefix("[include ") || section.hasPrefix("[includeif")
    }
}

extension Workspace {
    /// What a clean-state note answers for `status` (or, with `status` false, for a plain
    /// `todosync`) in `directory`, from file stamps alone: the repository is not opened and
    /// libgit2 not started. nil: work it out.
    public static func answerFromStamps(
        status: Bool, in directory: String, configuration: WorkspaceConfiguration = WorkspaceConfiguration()
    ) -> [String]? {
        guard !configuration.traces else { return nil }
        return CleanState.answer(status ? .status : .commit, in: directory)
    }
}
