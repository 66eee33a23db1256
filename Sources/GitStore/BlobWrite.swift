import Dispatch

/// A blob being stored on a thread of its own while the caller goes on: hashing and compressing
/// a large file is most of a commit's work, and it need not wait for the rest to be worked out
/// (`git add` likewise stores a file long before `git commit`). The thread opens its own
/// repository handle: libgit2's handles are not shared between threads.
///
/// The blob is put in place only once its id is asked for: until then the write can be
/// stopped, leaving nothing behind, however far it got (the caller may learn only later that
/// the bytes are not the ones to commit). One released before its id was asked for is stopped,
/// and released only once its thread is done with it.
public final class BlobWrite: Sendable {
    /// The bytes being stored.
    public let bytes: [UInt8]
    /// NB: what the writing thread holds; it must not hold the `BlobWrite` itself, or releasing
    /// that would not stop and wait for the write (its deinit would never run in time).
    private let progress: Progress

    /// NB: unchecked Sendable: semaphores, and an `outcome` set once on the other thread
    /// before `finished` is signalled and read only after waiting for it.
    private final class Progress: @unchecked Sendable {
        let finished = DispatchSemaphore(value: 0)
        /// Signalled by `stop()`; the writing thread takes the signal between pieces.
        let stopRequest = DispatchSemaphore(value: 0)
        /// Signalled by `id()` and `stop()`: the writing thread waits for it before it puts the
        /// blob in place (a stop request signalled by then stops it).
        let decided = DispatchSemaphore(value: 0)
        /// Set once, on the writing thread, before `finished` is signalled; read only after
        /// waiting. `.success(nil)`: stopped.
        var outcome: Result<OID?, GitError>?
    }

    /// Starts storing `bytes` in the repository whose git directory is `gitDirectory`.
    public init(storing bytes: [UInt8], in gitDirectory: String) {
        self.bytes = bytes
        let progress = Progress()
        self.progress = progress
        DispatchQueue.global().async {
            do throws(GitError) {
                let repository = try Repository.open(gitDirectory: gitDirectory)
                let stopped = { progress.stopRequest.wait(timeout: .now()) == .success }
                progress.outcome = .success(
                    try repository.writeBlob(bytes, stoppingWhen: stopped) {
                        progress.decided.wait()
                        return !stopped()
                    })
            } catch {
                progress.outcome = .failure(error)
            }
            progress.finished.signal()
        }
    }

    deinit {
        stop()
        progress.finished.wait()
    }

    /// Asks the write to stop if it has not finished (before its next piece, or before the
    /// blob is put in place).
    public func stop() {
        progress.stopRequest.signal()
        progress.decided.signal()
    }

    /// Lets the write put the blob in place and waits for it to end: the blob's id, nil if it
    /// was stopped first, or the error libgit2 gave.
    public func id() throws(GitError) -> OID? {
        progress.decided.signal()
        progress.finished.wait()
        defer { progress.finished.signal() }
        guard let outcome = progress.outcome else { preconditionFailure("BlobWrite finished without an outcome") }
        return try outcome.get()
    }
}

/// A blob being read on a thread of its own while the caller goes on: a large list's last
/// committed version is inflated and checked (libgit2 verifies every object it reads) while
/// its working version is read and parsed. The thread opens its own repository handle.
public final class BlobRead: Sendable {
    public let blob: OID
    private let progress: Progress

    /// NB: unchecked Sendable: semaphores, and an `outcome` set once on the other thread
    /// before `finished` is signalled and read only after waiting for it.
    private final class Progress: @unchecked Sendable {
        let finished = DispatchSemaphore(value: 0)
        /// Set once, on the reading thread, before `finished` is signalled.
        var outcome: Result<[UInt8], GitError>?
    }

    /// Starts reading `blob` from the repository whose git directory is `gitDirectory`.
    public init(reading blob: OID, in gitDirectory: String) {
        self.blob = blob
        let progress = Progress()
        self.progress = progress
        DispatchQueue.global().async {
            progress.outcome = Result { () throws(GitError) in
                try Repository.open(gitDirectory: gitDirectory).blob(blob)
            }
            progress.finished.signal()
        }
    }

    // NB: released unread, it is not waited for: the thread holds only its own handle and
    // `progress`, and a read leaves nothing behind.

    /// Waits for the read to end: the blob's bytes, or the error libgit2 gave.
    public func bytes() throws(GitError) -> [UInt8] {
        progress.finished.wait()
        defer { progress.finished.signal() }
        guard let outcome = progress.outcome else { preconditionFailure("BlobRead finished without an outcome") }
        return try outcome.get()
    }
}
