import Dispatch

/// A blob being stored on a thread of its own while the caller goes on: hashing and compressing
/// a large file is most of a commit's work, and it need not wait for the rest to be worked out
/// (`git add` likewise stores a file long before `git commit`). The thread opens its own
/// repository handle: libgit2's handles are not shared between threads.
///
/// A stored blob is inert: nothing refers to it until a tree does, and git's gc prunes it if
/// nothing ever does. The write is never abandoned half-way: releasing a `BlobWrite` waits for it.
public final class BlobWrite: @unchecked Sendable {
    /// The bytes being stored.
    public let bytes: [UInt8]
    private let finished = DispatchSemaphore(value: 0)
    /// Set once, on the writing thread, before `finished` is signalled; read only after waiting.
    private var outcome: Result<OID, GitError>?

    /// Starts storing `bytes` in the repository whose git directory is `gitDirectory`.
    public init(storing bytes: [UInt8], in gitDirectory: String) {
        self.bytes = bytes
        DispatchQueue.global().async { [self] in
            do throws(GitError) {
                outcome = .success(try Repository.open(gitDirectory: gitDirectory).writeBlob(bytes))
            } catch {
                outcome = .failure(error)
            }
            finished.signal()
        }
    }

    deinit { finished.wait() }

    /// Waits for the write to finish; the blob's id, or the error libgit2 gave.
    public func id() throws(GitError) -> OID {
        finished.wait()
        defer { finished.signal() }
        guard let outcome else { preconditionFailure("BlobWrite finished without an outcome") }
        return try outcome.get()
    }
}
