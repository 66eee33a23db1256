import Foundation
import Testing
import TestSupport

/// Remotes reached as git reaches them: ssh through the user's OpenSSH (a real sshd on
/// loopback, reached through a config alias with its own port), and a path on this machine
/// through git's own upload-pack and receive-pack, so the remote's hooks run and a branch that
/// moved is never overwritten. git itself is the witness.
@Suite(.serialized) struct RemoteTransportTests {
    private func todosync(_ clone: String, _ arguments: [String], ssh: String?) throws -> ProcessResult {
        try run(todosyncBinary, arguments, in: clone, environment: ["GIT_SSH_COMMAND": ssh])
    }

    /// A clone made by `git clone` through the same ssh set-up, holding one list.
    private func clone(_ server: SSHServer, seeding list: String? = nil) throws -> Fixture {
        let fixture = Fixture(existing: Scratch())
        let cloned = try run(
            "/usr/bin/git", ["-c", "init.defaultBranch=main", "clone", "-q", server.url, "."], in: fixture.path,
            environment: ["GIT_SSH_COMMAND": server.sshCommand])
        guard cloned.status == 0 else { throw TestFailure("git clone failed: \(cloned.stderr)") }
        try fixture.markMarkdownAsLists()
        if let list {
            try fixture.write("TODO.md", list)
            _ = try fixture.git("add", "TODO.md")
            _ = try fixture.git("commit", "-qm", "Seed")
            let pushed = try run(
                "/usr/bin/git", ["push", "-q", "origin", "HEAD:main"], in: fixture.path,
                environment: ["GIT_SSH_COMMAND": server.sshCommand])
            guard pushed.status == 0 else { throw TestFailure("git push failed: \(pushed.stderr)") }
        }
        return fixture
    }

    @Test(.enabled(if: SSHServer.isAvailable)) func syncRunsTheUsersSSHWithItsConfigAlias() throws {
        let server = try SSHServer()
        let alice = try clone(server, seeding: "- [ ] Buy milk\n")
        let bob = try clone(server)
        try alice.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n")
        let synced = try todosync(alice.path, ["sync"], ssh: server.sshCommand)
        #expect(synced.status == 0, "\(synced.stderr)")
        // ssh ran as git runs it: the alias, then the service and the quoted path.
        #expect(server.log.contains("tsbox git-upload-pack '\(server.repository)'"), "\(server.log)")
        #expect(server.log.contains("tsbox git-receive-pack '\(server.repository)'"), "\(server.log)")
        #expect(try git("show", "main:TODO.md", in: server.repository).contains("- [ ] Call Bob <!-- id: "))

        // core.sshCommand, as git reads it, when the environment names none.
        _ = try bob.git("config", "core.sshCommand", server.sshCommand)
        #expect(try todosync(bob.path, ["sync"], ssh: nil).status == 0)
        #expect(try bob.read("TODO.md").contains("- [ ] Call Bob <!-- id: "))
        try bob.expectCleanAndSound()
    }

    @Test(.enabled(if: SSHServer.isAvailable)) func sshFailuresShowSSHsOwnMessageAndChangeNothing() throws {
        let server = try SSHServer()
        let alice = try clone(server, seeding: "- [ ] Buy milk\n")
        _ = try todosync(alice.path, ["sync"], ssh: server.sshCommand)
        let head = try alice.git("rev-parse", "HEAD")

        // A changed host key: ssh's warning, not a guess about the network.
        try server.forgetHostKey()
        let changed = try todosync(alice.path, ["sync"], ssh: server.sshCommand)
        #expect(changed.status == 1)
        #expect(
            changed.stderr.contains("REMOTE HOST IDENTIFICATION HAS CHANGED")
                || changed.stderr.contains("Host key verification failed"), "\(changed.stderr)")
        #expect(changed.stderr.contains("GIT_SSH_COMMAND, core.sshCommand"))

        // A key with a passphrase and no agent or terminal to give it: refused, in ssh's words.
        try server.write("known_hosts", "[127.0.0.1]:\(server.port) " + server.read("host_key.pub"))
        try server.writeClientConfig(identity: "id_pass")
        let locked = try run(
            todosyncBinary, ["sync"], in: alice.path,
            environment: ["GIT_SSH_COMMAND": server.sshCommand, "SSH_AUTH_SOCK": nil, "DISPLAY": nil])
        #expect(locked.status == 1)
        #expect(locked.stderr.contains("Permission denied"), "\(locked.stderr)")
        #expect(try alice.git("rev-parse", "HEAD") == head)
        try alice.expectCleanAndSound()
    }

    @Test(.enabled(if: SSHServer.isAvailable)) func aPassphraseKeyWorksThroughTheAgent() throws {
        let server = try SSHServer()
        let alice = try clone(server, seeding: "- [ ] Buy milk\n")
        try server.writeClientConfig(identity: "id_pass.pub")
        try server.write("askpass", "#!/bin/sh\necho 'secret phrase'\n")
        chmod(server.directory + "/askpass", 0o755)
        try alice.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n")
        // ssh-agent runs the script (no daemon), stopped at its end; only ssh-add gets the passphrase.
        let script = """
            SSH_ASKPASS=\(server.directory)/askpass SSH_ASKPASS_REQUIRE=force DISPLAY=:0 ssh-add \(server.directory)/id_pass </dev/null || exit 90
            \(todosyncBinary) sync
            status=$?
            ssh-agent -k >/dev/null
            exit $status
            """
        let synced = try run(
            "/usr/bin/ssh-agent", ["/bin/sh", "-c", script], in: alice.path,
            environment: ["GIT_SSH_COMMAND": server.sshCommand, "SSH_AUTH_SOCK": nil, "SSH_ASKPASS": nil])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try git("show", "main:TODO.md", in: server.repository).contains("Call Bob"))
    }

    @Test func aLocalRemotesHooksRunAndItsRefusalIsShown() throws {
        let remote = try Remote()
        let alice = try remote.clone(seeding: ["TODO.md": "- [ ] Buy milk\n"])
        try alice.todosync("sync")
        let before = try git("rev-parse", "main", in: remote.path)
        try remote.scratch.write(
            "lists.git/hooks/pre-receive", "#!/bin/sh\necho 'pushes are frozen today' >&2\nexit 1\n")
        chmod(remote.path + "/hooks/pre-receive", 0o755)
        try alice.write("TODO.md", try alice.read("TODO.md") + "- [ ] Call Bob\n")
        let refused = try alice.todosync("sync", expectStatus: 1)
        #expect(refused.stderr.contains("pre-receive hook declined"), "\(refused.stderr)")
        #expect(refused.stderr.contains("remote: pushes are frozen today"))
        #expect(refused.stderr.contains("the remote's own rules refused the push"))
        #expect(try git("rev-parse", "main", in: remote.path) == before)
        // Committed here, safe, and pushed once the remote allows it.
        #expect(alice.lastSubject == "Add \"Call Bob\"")
        try FileManager.default.removeItem(atPath: remote.path + "/hooks/pre-receive")
        try alice.todosync("sync")
        #expect(try git("show", "main:TODO.md", in: remote.path).contains("Call Bob"))
    }

    /// Another push lands between todosync's fetch and its push (a pre-receive hook moves the
    /// branch, once): the push is refused rather than overwriting it, and the next round merges.
    @Test func aBranchThatMovedDuringThePushIsNeverOverwritten() throws {
        let remote = try Remote()
        let alice = try remote.clone(seeding: ["TODO.md": "- [ ] Buy milk\n"])
        try alice.todosync("sync")
        let bob = try remote.clone()
        try bob.todosync("sync")
        try bob.write("TODO.md", try bob.read("TODO.md") + "- [ ] From Bob\n")
        try bob.todosync()
        _ = try bob.git("push", "-q", "origin", "HEAD:refs/heads/bob")
        try remote.scratch.write(
            "lists.git/hooks/pre-receive",
            """
            #!/bin/sh
            # Once: the branch moves to Bob's commit while this push is under way.
            [ -e "$GIT_DIR/moved" ] && exit 0
            touch "$GIT_DIR/moved"
            env -u GIT_QUARANTINE_PATH git update-ref refs/heads/main refs/heads/bob
            exit 0

            """)
        chmod(remote.path + "/hooks/pre-receive", 0o755)

        try alice.write("TODO.md", try alice.read("TODO.md") + "- [ ] From Alice\n")
        let synced = try alice.todosync("sync")
        #expect(synced.status == 0)
        let merged = try git("show", "main:TODO.md", in: remote.path)
        #expect(merged.contains("From Bob") && merged.contains("From Alice"), "\(merged)")
        #expect(try git("merge-base", "--is-ancestor", "bob", "main", in: remote.path).isEmpty)
    }
}
