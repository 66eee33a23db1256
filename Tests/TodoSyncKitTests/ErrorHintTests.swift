import GitStore
import Testing
@testable import TodoSyncKit

/// Every error says what to do (docs/CLI.md, "one voice"), git's failures included: the hint
/// fits what git said, and git's own words stay in the message.
@Suite struct ErrorHintTests {
    @Test(arguments: [
        ("failed to create locked file '/r/.git/objects/ab/x': Permission denied", "permissions"),
        ("could not open '/r/.git/index.lock': Read-only file system", "permissions"),
        ("failed to lock file '/r/.git/refs/heads/main.lock' for writing", "a .lock file"),
        ("object not found - no match for id (1234)", "git fsck"),
    ])
    func aGitFailureGetsAHintThatFitsIt(message: String, hint: String) {
        let error = TodoSyncError.git(
            GitError(code: -1, message: message, function: "git_odb_write"), while: "storing the commit")
        #expect(error.message == "storing the commit failed: \(message)")
        #expect(error.hint?.contains(hint) == true, "\(error.hint ?? "no hint")")
    }
}
