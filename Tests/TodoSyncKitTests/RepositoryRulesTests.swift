import Foundation
import Testing
import TestSupport

/// The repository's own rules, as git applies them (issue 31, point 6).
@Suite struct RepositoryRulesTests {
    static let secret = "Call the lawyer about the will"

    /// A list under a clean/smudge filter (git-crypt style; rot13 here) is refused: todosync
    /// cannot run the filter, and committing what it reads would put the plain text into history.
    @Test func aListUnderAFilterIsRefusedAndNothingLeaks() throws {
        // Marked as `todosync init` marks a folder of lists.
        let fixture = try Fixture(listsRepository: false)
        _ = try fixture.git("config", "filter.crypt.clean", "tr a-zA-Z n-za-mN-ZA-M")
        _ = try fixture.git("config", "filter.crypt.smudge", "tr a-zA-Z n-za-mN-ZA-M")
        try fixture.write(".gitattributes", "*.md todosync\nprivate/** filter=crypt\n")
        try fixture.write("TODO.md", "- [ ] Buy milk\n")
        try fixture.write("private/plans.md", "- [ ] Book the trip\n")
        _ = try fixture.git("add", "-A")
        _ = try fixture.git("commit", "-qm", "plain git, filtered")
        let head = fixture.head
        try fixture.write("private/plans.md", "- [ ] Book the trip\n- [ ] \(Self.secret)\n")

        let refused = try fixture.todosync(expectStatus: 1)
        #expect(refused.stderr.contains("private/plans.md is a list under git's filter 'crypt'"), "\(refused.stderr)")
        #expect(refused.stderr.contains("/private/plans.md -todosync"), "\(refused.stderr)")
        try fixture.todosync("add", "Leak", "--file", "private/new.md", expectStatus: 1)
        #expect(fixture.head == head)
        let objects = try fixture.git("cat-file", "--batch-all-objects", "--batch")
        #expect(!objects.contains(Self.secret) && !objects.contains("Book the trip"))

        // Left to git, as the hint says: todosync goes on with the other lists.
        try fixture.write(".gitattributes", "*.md todosync\nprivate/** filter=crypt\n/private/plans.md -todosync\n")
        _ = try fixture.git("commit", "-qm", "leave plans to git", ".gitattributes")
        try fixture.todosync()
        #expect(try fixture.ids(in: "TODO.md").count == 1)
        #expect(try fixture.ids(in: "private/plans.md").isEmpty)
        #expect(!(try fixture.git("cat-file", "--batch-all-objects", "--batch")).contains(Self.secret))
    }

    private func installHook(_ fixture: Fixture, _ name: String, _ script: String) throws {
        let path = fixture.path + "/.git/hooks/" + name
        try FileManager.default.createDirectory(atPath: fixture.path + "/.git/hooks", withIntermediateDirectories: true)
        try Data(("#!/bin/sh\n" + script).utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    /// pre-commit sees the commit to be made in git's index and may refuse it; --no-verify
    /// skips it; commit-msg may reword the message; post-commit runs once the branch moved.
    @Test func commitHooksRunAsGitRunsThem() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        try fixture.todosync()
        try installHook(
            fixture, "pre-commit",
            """
            git diff --cached --name-only > .git/pre-commit.log
            git show :TODO.md >> .git/pre-commit.log
            if [ -e .git/refuse ]; then echo "pre-commit: not today" >&2; exit 1; fi
            """)
        try installHook(fixture, "commit-msg", "echo 'Reviewed-by: The Hook' >> \"$1\"\n")
        try installHook(fixture, "post-commit", "git rev-parse HEAD > .git/post-commit.log\n")

        try fixture.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n")
        try fixture.todosync()
        let seen = try fixture.read(".git/pre-commit.log")
        #expect(seen.hasPrefix("TODO.md\n") && seen.contains("- [ ] Call Bob <!-- id: "), "\(seen)")
        #expect(fixture.lastBody.contains("Reviewed-by: The Hook"))
        #expect(try fixture.read(".git/post-commit.log") == fixture.head + "\n")

        // Refused: nothing committed, the edit stays as typed; an item command likewise.
        try fixture.write(".git/refuse", "")
        let head = fixture.head
        try fixture.write("TODO.md", "- [ ] Buy milk\n- [ ] Call Bob\n- [ ] Water plants\n")
        let typed = try fixture.read("TODO.md")
        let refused = try fixture.todosync(expectStatus: 1)
        #expect(refused.stderr.contains("pre-commit: not today"), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("the pre-commit hook refused the commit (exit status 1); nothing was committed"))
        #expect(refused.stderr.contains("--no-verify"))
        #expect(fixture.head == head)
        #expect(try fixture.read("TODO.md") == typed)
        try fixture.todosync("--no-verify")
        #expect(try fixture.git("log", "-1", "--format=%s") == "Add \"Water plants\"\n")
        try fixture.todosync("add", "Pay rent", "--no-verify")
        #expect(fixture.commitCount == 5)
        try fixture.todosync("done", "Pay rent", expectStatus: 1)
        #expect(fixture.commitCount == 5)
        try fixture.expectCleanAndSound()
    }

    @Test func prePushSeesWhatGitShowsItAndMayRefuse() throws {
        let (remote, alice, _) = try Remote.withTwoClones(seeding: ["TODO.md": "- [ ] Buy milk\n"])
        try alice.sync()
        let remoteHead = try git("rev-parse", "main", in: remote.path).trimmingCharacters(in: .newlines)
        try installHook(
            alice, "pre-push",
            "echo \"$1 $2\" > .git/pre-push.log\ncat >> .git/pre-push.log\necho 'pre-push: tests fail' >&2\nexit 1\n")
        try alice.todosync("add", "Call Bob")
        let refused = try alice.todosync("sync", expectStatus: 1)
        #expect(
            refused.stderr.contains("pre-push: tests fail")
                && refused.stderr.contains("the pre-push hook refused the push"), "\(refused.stderr)")
        #expect(try git("rev-parse", "main", in: remote.path).trimmingCharacters(in: .newlines) == remoteHead)
        #expect(
            try alice.read(".git/pre-push.log")
                == "origin \(remote.url)\nrefs/heads/main \(alice.head) refs/heads/main \(remoteHead)\n")
        try alice.sync("--no-verify")
        #expect(try git("rev-parse", "main", in: remote.path).trimmingCharacters(in: .newlines) == alice.head)
    }

    /// commit.gpgSign with gpg.format ssh: every commit todosync makes is signed as git signs
    /// it, and git verifies it; a key that cannot sign stops the commit, changing nothing.
    @Test func commitsAreSignedWhenGitAsks() throws {
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        let keys = Scratch()
        _ = try run(
            "/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "signing", "-f", keys.path + "/signing"],
            in: keys.path)
        try keys.write("allowed_signers", "committer@example.com " + (try keys.read("signing.pub")))
        for (key, value) in [
            ("commit.gpgSign", "true"), ("gpg.format", "ssh"), ("user.signingKey", keys.path + "/signing"),
            ("gpg.ssh.allowedSignersFile", keys.path + "/allowed_signers"),
        ] {
            _ = try fixture.git("config", key, value)
        }
        try fixture.todosync()
        try fixture.todosync("add", "Call Bob")
        for commit in ["HEAD", "HEAD~1"] {
            let verified = try run("/usr/bin/git", ["verify-commit", commit], in: fixture.path)
            #expect(verified.status == 0, "\(verified.stderr)")
            #expect(verified.stderr.contains("Good \"git\" signature for committer@example.com"), "\(verified.stderr)")
        }

        _ = try fixture.git("config", "user.signingKey", keys.path + "/missing")
        let head = fixture.head
        let refused = try fixture.todosync("add", "Unsigned", expectStatus: 1)
        #expect(
            refused.stderr.contains("commit.gpgSign asks for signed commits, and ssh-keygen could not sign the commit"),
            "\(refused.stderr)")
        #expect(fixture.head == head)
        #expect(try !fixture.read("TODO.md").contains("Unsigned"))
    }

    /// gpg.format openpgp (git's default): signed through gpg with the user's key, as
    /// `git commit -S` signs; `git verify-commit` accepts the signature.
    @Test(.enabled(if: GPGAgent.isAvailable, "needs gnupg (scripts/ensure-test-tools.sh)"))
    func commitsAreSignedWithOpenPGP() throws {
        let gpg = try GPGAgent()
        let fixture = try Fixture(gitFiles: ["TODO.md": "- [ ] Buy milk\n"])
        _ = try fixture.git("config", "commit.gpgSign", "true")
        _ = try fixture.git("config", "user.signingKey", gpg.fingerprint)
        let environment: [String: String?] = ["GNUPGHOME": gpg.home]
        let committed = try run(todosyncBinary, ["add", "Call Bob"], in: fixture.path, environment: environment)
        #expect(committed.status == 0, "\(committed.stderr)")
        let verified = try run(
            "/usr/bin/git", ["verify-commit", "--raw", "HEAD"], in: fixture.path, environment: environment)
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stderr.contains("GOODSIG") && verified.stderr.contains(gpg.fingerprint), "\(verified.stderr)")

        let head = fixture.head
        _ = try fixture.git("config", "user.signingKey", "nobody@example.com")
        let refused = try run(todosyncBinary, ["add", "Unsigned"], in: fixture.path, environment: environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("commit.gpgSign asks for signed commits"), "\(refused.stderr)")
        #expect(fixture.head == head)
        #expect(try !fixture.read("TODO.md").contains("Unsigned"))
    }
}
