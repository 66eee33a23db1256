import GitStore

/// Setting up `todosync merge-file` as git's merge driver: `.gitattributes` names it for
/// Markdown files (committed, so every clone agrees), and each clone's own config says what to
/// run (config is not shared through a repository, so every clone needs `todosync init` once).
extension Workspace {
    /// The `.gitattributes` lines that hand Markdown files to the driver.
    static let mergeAttributeLines = ListFileSelector.markdown.map { "\($0) merge=\(MergeDriver.name)" }

    /// Whether `.gitattributes` hands list files to the driver.
    func attributesNameMergeDriver() throws(TodoSyncError) -> Bool {
        try git("reading the merge attribute") { try repository.attribute("merge", for: "TODO.md") }
            == .value(MergeDriver.name)
    }

    /// Whether this clone's git config says how to run the driver.
    func configDefinesMergeDriver() throws(TodoSyncError) -> Bool {
        try git("reading merge.\(MergeDriver.name).driver") {
            try repository.configString("merge.\(MergeDriver.name).driver")
        } != nil
    }

    /// Names the driver in this clone's config: `executable` is how todosync was run (a path,
    /// or a name found on PATH).
    func setUpMergeDriver(executable: String) throws(TodoSyncError) {
        // Quoted for the shell git runs it with.
        let quoted =
            "'" + executable.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        try git("setting up the merge driver") {
            try repository.setConfig("merge.\(MergeDriver.name).name", to: "todosync: lists merged item by item")
            try repository.setConfig(
                "merge.\(MergeDriver.name).driver", to: "\(quoted) merge-file --marker-size %L %O %A %B %P")
        }
    }

    /// Sets the driver up in this clone's config where its committed `.gitattributes` names it
    /// and the config does not (a plain `git clone`: git never copies config), so that plain
    /// `git pull` merges lists by item from the first todosync command on. Returns what to tell,
    /// once; nil when there was nothing to do or it could not be written (`mergeDriverAdvice`
    /// then says what to run).
    public func setUpMergeDriverIfAsked(executable: String) -> String? {
        guard mergeDriverAdvice() != nil else { return nil }
        do throws(TodoSyncError) {
            try setUpMergeDriver(executable: executable)
        } catch {
            return nil
        }
        return
            "set up todosync's merge driver in this clone's git config (merge.\(MergeDriver.name).driver), as its .gitattributes asks: git pull and git merge now merge lists item by item"
    }

    /// What to tell a clone whose `.gitattributes` names the driver while its config lacks it
    /// (git then merges lists line by line, with conflict markers); nil when all is well.
    public func mergeDriverAdvice() -> String? {
        guard (try? attributesNameMergeDriver()) == true, (try? configDefinesMergeDriver()) == false else { return nil }
        return
            "this clone's .gitattributes merges lists with todosync's merge driver, but its git config does not set it up (merge.todosync.driver), so git pull and git merge would merge them line by line; set it up with: todosync init"
    }
}
