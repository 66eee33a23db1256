import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Repository {
    /// The newest commit reachable from `starts` and not from `excluded` whose diff against
    /// any of its parents (a merge's too) changes how many times `needle` occurs in a file: git's
    /// own pickaxe, `git log -m -S<needle> --max-count=1`. nil when no commit does.
    ///
    /// Run as a git child process: git reads each version of a file without checking its hash
    /// again (libgit2 checks every object it reads), which is what lets a search through every
    /// version of a large file cost what `git log -S` costs. The objects are the ones libgit2
    /// reads: replace references are not followed.
    public func newestCommitChangingCount(
        of needle: String, from starts: [OID], excluding excluded: [OID]
    ) throws(GitError) -> OID? {
        try commitsChangingCount(of: needle, from: starts, excluding: excluded, limit: 1).first
    }

    /// `newestCommitChangingCount`, started and left running: several run at once, each on a
    /// core (`PickaxeRun.firstEnded`), and each is asked for its commit when it has ended.
    public func startPickaxe(
        of needle: String, from starts: [OID], excluding excluded: [OID]
    ) throws(GitError) -> PickaxeRun {
        let child = try ChildProcess(pickaxeArguments(needle, starts, excluded, limit: 1, ignoringCase: false))
        child.closeInput()
        return PickaxeRun(child: child)
    }

    /// Every such commit, newest first (at most `limit`); `ignoringCase`: the text in any case
    /// (`git log -i -S`).
    public func commitsChangingCount(
        of needle: String, from starts: [OID], excluding excluded: [OID] = [], limit: Int? = nil,
        ignoringCase: Bool = false
    ) throws(GitError) -> [OID] {
        guard !starts.isEmpty else { return [] }
        let result = try ChildProcess.run(
            pickaxeArguments(needle, starts, excluded, limit: limit, ignoringCase: ignoringCase), input: [])
        return try Self.pickaxeCommits(result)
    }

    private func pickaxeArguments(
        _ needle: String, _ starts: [OID], _ excluded: [OID], limit: Int?, ignoringCase: Bool
    ) -> [String] {
        var arguments = [
            "git", "--no-pager", "--no-replace-objects", "--git-dir=\(gitDirectory)", "log", "-m", "--format=%H",
            "--no-renames", "--no-textconv", "--no-ext-diff", "--no-show-signature",
        ]
        if let limit { arguments.append("--max-count=\(limit)") }
        if ignoringCase { arguments.append("--regexp-ignore-case") }
        arguments.append("-S" + needle)
        arguments += starts.map(\.description)
        if !excluded.isEmpty { arguments += ["--not"] + excluded.map(\.description) }
        return arguments
    }

    fileprivate static func pickaxeCommits(
        _ result: (status: Int32?, output: [UInt8], errors: String)
    ) throws(GitError) -> [OID] {
        guard result.status == 0 else {
            let said =
                result.errors.split(separator: "\n").first.map(String.init)
                ?? "exit status \(result.status.map(String.init) ?? "unknown")"
            throw GitError(code: -1, message: "git log -S failed: \(said)", function: "git log")
        }
        var found: [OID] = []
        for line in result.output.split(separator: 0x0A) {
            guard let id = OID(hex: String(decoding: line, as: UTF8.self)) else {
                throw GitError(code: -1, message: "git log -S printed what is not a commit id", function: "git log")
            }
            // With -m a merge is printed once for each parent it differs from.
            if found.last != id { found.append(id) }
        }
        return found
    }

    /// The commits of `start`'s first-parent line, newest first, down to one `excluded` holds.
    public func firstParentLine(from start: OID, excluding excluded: [OID]) throws(GitError) -> [OID] {
        var walk: OpaquePointer?
        try GitError.check(git_revwalk_new(&walk, pointer), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        try GitError.check(git_revwalk_simplify_first_parent(walk), "git_revwalk_simplify_first_parent")
        var raw = start.raw
        try GitError.check(git_revwalk_push(walk, &raw), "git_revwalk_push")
        for hidden in excluded {
            var raw = hidden.raw
            try GitError.check(git_revwalk_hide(walk, &raw), "git_revwalk_hide")
        }
        var line: [OID] = []
        var next = git_oid()
        while true {
            let result = git_revwalk_next(&next, walk)
            if result == GIT_ITEROVER.rawValue { return line }
            try GitError.check(result, "git_revwalk_next")
            line.append(OID(next))
        }
    }

    /// Whether a merge is among the commits reachable from `starts` and not from `excluded`.
    public func hasMerge(from starts: [OID], excluding excluded: [OID]) throws(GitError) -> Bool {
        var walk: OpaquePointer?
        try GitError.check(git_revwalk_new(&walk, pointer), "git_revwalk_new")
        defer { git_revwalk_free(walk) }
        for start in starts {
            var raw = start.raw
            try GitError.check(git_revwalk_push(walk, &raw), "git_revwalk_push")
        }
        for hidden in excluded {
            var raw = hidden.raw
            try GitError.check(git_revwalk_hide(walk, &raw), "git_revwalk_hide")
        }
        var next = git_oid()
        while true {
            let result = git_revwalk_next(&next, walk)
            if result == GIT_ITEROVER.rawValue { return false }
            try GitError.check(result, "git_revwalk_next")
            var commit: OpaquePointer?
            try GitError.check(git_commit_lookup(&commit, pointer, &next), "git_commit_lookup")
            let parents = git_commit_parentcount(commit)
            git_commit_free(commit)
            if parents > 1 { return true }
        }
    }
}

/// A `git log -S` under way (`Repository.startPickaxe`).
public final class PickaxeRun {
    private let child: ChildProcess

    fileprivate init(child: ChildProcess) { self.child = child }

    /// The commit it found (nil: none), once it has ended.
    public func result() throws(GitError) -> OID? {
        try Repository.pickaxeCommits(child.collect()).first
    }

    /// Which of `runs` has ended (or printed its commit) first; waits for one to.
    public static func firstEnded(_ runs: [PickaxeRun]) -> Int {
        var entries = runs.map { pollfd(fd: $0.child.outputDescriptor, events: Int16(POLLIN), revents: 0) }
        while true {
            let ready = poll(&entries, nfds_t(entries.count), -1)
            if ready > 0, let index = entries.firstIndex(where: { $0.revents != 0 }) { return index }
            if ready < 0, errno != EINTR { return 0 }
        }
    }
}

extension Repository {
    /// For each line of the working file at `path` (index 0 for line 1), the author time
    /// (seconds since 1970) of the commit that last changed it, nil for a line not committed
    /// yet: `git blame --porcelain`, run as git runs it (a git child process, as
    /// `newestCommitChangingCount`). Static, on the git directory alone: several run at once.
    public static func blameTimes(gitDirectory: String, workTree: String, path: String) throws(GitError) -> [Int64?] {
        let arguments = [
            "git", "--no-pager", "--no-replace-objects", "--git-dir=\(gitDirectory)", "--work-tree=\(workTree)", "-C",
            workTree,
            "blame", "--porcelain", "--", path,
        ]
        let result = try ChildProcess.run(arguments, input: [])
        guard result.status == 0 else {
            let said =
                result.errors.split(separator: "\n").first.map(String.init)
                ?? "exit status \(result.status.map(String.init) ?? "unknown")"
            throw GitError(code: -1, message: "git blame failed: \(said)", function: "git blame")
        }
        var commitOfLine: [Int: Substring] = [:]
        var times: [Substring: Int64] = [:]
        var current: Substring?
        let text = String(decoding: result.output, as: UTF8.self)
        var lineCount = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("\t") { continue }
            let fields = line.split(separator: " ")
            if fields.count >= 3, fields[0].count == 40, fields[0].allSatisfy(\.isHexDigit), let final = Int(fields[2])
            {
                current = fields[0]
                commitOfLine[final] = fields[0]
                lineCount = max(lineCount, final)
            } else if fields.count == 2, fields[0] == "author-time", let current, let time = Int64(fields[1]) {
                times[current] = time
            }
        }
        // A line not committed yet is git's zero commit.
        return (0..<lineCount).map { index in
            guard let commit = commitOfLine[index + 1], commit.contains(where: { $0 != "0" }) else { return nil }
            return times[commit]
        }
    }
}
