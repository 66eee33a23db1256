import Foundation
import TestSupport

/// A bare repository in a scratch folder that clones sync through: by path, or served by a
/// real `git daemon` on 127.0.0.1.
final class Remote {
    let scratch = Scratch()
    var path: String { scratch.path + "/lists.git" }
    private var daemon: Process?
    private(set) var url: String

    init() throws {
        _ = try git("init", "-q", "--bare", "-b", "main", "lists.git", in: scratch.path)
        url = scratch.path + "/lists.git"
    }

    /// Serves the repository with `git daemon` (push enabled) and switches `url` to git://.
    func serve() throws {
        for attempt in 0..<5 {
            let port = Int.random(in: 20_000...60_000)
            let process = Process()
            // NB: git-daemon itself, not the `git` wrapper, which does not pass on SIGTERM.
            process.executableURL = URL(fileURLWithPath: Self.gitExecPath + "/git-daemon")
            process.arguments = [
                "--reuseaddr", "--export-all", "--enable=receive-pack", "--listen=127.0.0.1",
                "--port=\(port)", "--base-path=\(scratch.path)", scratch.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let candidate = "git://127.0.0.1:\(port)/lists.git"
            for _ in 0..<50 {
                if (try? run("/usr/bin/git", ["ls-remote", candidate], in: scratch.path))?.status == 0 {
                    daemon = process
                    url = candidate
                    return
                }
                guard process.isRunning else { break }
                usleep(100_000)
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if attempt == 4 { throw TestFailure("git daemon did not start") }
        }
    }

    deinit {
        if let daemon, daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
    }

    static let gitExecPath: String = {
        let path = (try? run("/usr/bin/git", ["--exec-path"], in: "/"))?.stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        return path.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/lib/git-core"
    }()

    /// A clone whose first commit holds `files` (committed and pushed with plain git), or an
    /// empty clone when the remote has commits already.
    func clone(seeding files: [String: String] = [:]) throws -> Fixture {
        let clone = try Fixture(cloning: url)
        clone.keptAlive = self
        if !files.isEmpty {
            for (name, text) in files { try clone.write(name, text) }
            _ = try clone.git("add", "-A")
            _ = try clone.git("commit", "-q", "-m", "Seed lists")
            _ = try clone.git("push", "-q", "origin", "HEAD:main")
        }
        return clone
    }
}

extension Remote {
    /// Two clones of a remote seeded with `files`, both holding the same ids: alice commits
    /// and pushes the ids, bob takes them in (his adoption commit is merged unless it is byte
    /// for byte alice's, made in the same second, so alice syncs again to hold all of it).
    static func withTwoSyncedClones(
        seeding files: [String: String]
    ) throws -> (alice: Fixture, bob: Fixture, keep: Remote) {
        let (remote, alice, bob) = try Remote.withTwoClones(seeding: files)
        try alice.todosync()
        try alice.sync()
        try bob.sync()
        try alice.sync()
        return (alice, bob, remote)
    }

    /// A remote seeded with `files` by a first clone (alice), and a second clone of it (bob).
    static func withTwoClones(seeding files: [String: String]) throws -> (remote: Remote, alice: Fixture, bob: Fixture)
    {
        let remote = try Remote()
        let alice = try remote.clone(seeding: files)
        return (remote, alice, try remote.clone())
    }
}

extension Fixture {
    /// Commits every tracked change and pushes it with plain git, as a user without todosync would.
    func commitAndPushWithGit(_ message: String) throws {
        _ = try git("commit", "-q", "-am", message)
        _ = try git("push", "-q", "origin", "HEAD:main")
    }

    /// `todosync` with `arguments` as a named person (git's own variables, as git takes
    /// them), which must succeed.
    @discardableResult
    func todosync(as name: String, _ arguments: String...) throws -> ProcessResult {
        let result = try run(todosyncBinary, arguments, in: path, environment: ["GIT_AUTHOR_NAME": name])
        guard result.status == 0 else { throw TestFailure("todosync \(arguments) as \(name): \(result.stderr)") }
        return result
    }

    /// `todosync sync`, which must succeed.
    @discardableResult
    func sync(_ extra: String...) throws -> ProcessResult {
        let result = try run(todosyncBinary, ["sync"] + extra, in: path)
        guard result.status == 0 else {
            throw TestFailure(
                "todosync sync exited \(result.status)\nstdout: \(result.stdout)\nstderr: \(result.stderr)")
        }
        return result
    }

    var head: String { (try? git("rev-parse", "HEAD"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }
}
