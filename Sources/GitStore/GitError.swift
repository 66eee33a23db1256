import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A libgit2 failure: its code and class, git's own message, and the function that failed.
public struct GitError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var errorClass: Int32
    public var message: String
    public var function: String
    /// A commit was missing from a shallow clone: it lies beyond the history fetched.
    public var isBeyondShallowHistory = false
    /// The remote refused a push by its own rules (a hook, a protected branch), not because
    /// its branch moved on.
    public var isRefusedByRemote = false
    /// The remote sent nothing for longer than the fetch or push allowed.
    public var isRemoteSilent = false
    /// The server's TLS certificate is not one this machine trusts.
    public var isUntrustedCertificate = false
    /// The system's error number when libgit2 failed (0 if none was set).
    public var systemError: Int32 = 0

    /// The disk is full, a quota reached, or a file larger than the system allows.
    public var isOutOfSpace: Bool { [ENOSPC, EDQUOT, EFBIG].contains(systemError) }

    public init(code: Int32, errorClass: Int32 = 0, message: String, function: String) {
        self.code = code
        self.errorClass = errorClass
        self.message = message
        self.function = function
    }

    public var description: String { "\(message) (\(function), code \(code))" }

    /// libgit2 found nothing (a missing object, path, config key or repository).
    public var isNotFound: Bool { code == GIT_ENOTFOUND.rawValue && !isUnsafeOwnership }

    /// libgit2 refused a repository owned by another user (git's "dubious ownership").
    /// NB: libgit2 1.5 reports it as a safe.directory config value not found, not GIT_EOWNER.
    public var isUnsafeOwnership: Bool {
        code == GIT_EOWNER.rawValue || (code == GIT_ENOTFOUND.rawValue && message.contains("'safe.directory'"))
    }

    /// Throws if `result` is negative, reading `git_error_last()` at once (it is thread-local,
    /// overwritten by the next call, and may be NULL even after a failure).
    @discardableResult
    public static func check(_ result: Int32, _ function: String) throws(GitError) -> Int32 {
        guard result < 0 else { return result }
        throw last(code: result, function: function)
    }

    static func last(code: Int32, function: String) -> GitError {
        // NB: read first: the calls below may set it again.
        let systemError = errno
        guard let error = git_error_last() else {
            // libgit2 sets no message for some failed writes (a full disk, a file too large):
            // the system's reason is then the one to give.
            let reason =
                systemError == 0 ? "no message from libgit2" : String(cString: strerror(systemError)).lowercased()
            var failure = GitError(code: code, message: "\(function) failed: \(reason)", function: function)
            failure.systemError = systemError
            return failure
        }
        let message = error.pointee.message.map {
            String(decoding: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self).bufferUntilNull, as: UTF8.self)
        }
        var failure = GitError(
            code: code, errorClass: error.pointee.klass, message: message ?? "unknown error", function: function)
        failure.systemError = systemError
        return failure
    }
}

extension UnsafePointer where Pointee == UInt8 {
    /// The bytes up to the terminating NUL. Never traps on non-UTF-8 text.
    var bufferUntilNull: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: self, count: strlen(UnsafeRawPointer(self).assumingMemoryBound(to: CChar.self)))
    }
}

/// A C string from libgit2 as Swift text, replacing invalid UTF-8 rather than failing.
func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    return String(
        decoding: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self).bufferUntilNull, as: UTF8.self)
}
