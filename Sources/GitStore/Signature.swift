import CLibGit2

/// Who made a commit and when.
public struct Signature: Hashable, Sendable {
    public var name: String
    public var email: String
    /// Seconds since 1970.
    public var time: Int64
    /// Minutes east of UTC.
    public var offsetMinutes: Int32

    public init(name: String, email: String, time: Int64, offsetMinutes: Int32) {
        self.name = name
        self.email = email
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    init(_ signature: UnsafePointer<git_signature>) {
        name = string(signature.pointee.name) ?? ""
        email = string(signature.pointee.email) ?? ""
        time = signature.pointee.when.time
        offsetMinutes = signature.pointee.when.offset
    }

    /// A libgit2 signature for the duration of `body`.
    func withGitSignature<R>(_ body: (UnsafeMutablePointer<git_signature>) throws(GitError) -> R) throws(GitError) -> R
    {
        var pointer: UnsafeMutablePointer<git_signature>?
        try GitError.check(git_signature_new(&pointer, name, email, time, Int32(offsetMinutes)), "git_signature_new")
        defer { git_signature_free(pointer) }
        guard let pointer else {
            throw GitError(code: -1, message: "libgit2 returned no signature", function: "git_signature_new")
        }
        return try body(pointer)
    }
}

extension Signature {
    /// The current time and the local UTC offset, with no name (libgit2 computes both).
    public static func now() -> Signature {
        Libgit2.ensureInitialized()
        var pointer: UnsafeMutablePointer<git_signature>?
        guard git_signature_now(&pointer, "-", "-") == 0, let pointer else {
            return Signature(name: "", email: "", time: 0, offsetMinutes: 0)
        }
        defer { git_signature_free(pointer) }
        return Signature(
            name: "", email: "", time: pointer.pointee.when.time, offsetMinutes: pointer.pointee.when.offset)
    }
}
