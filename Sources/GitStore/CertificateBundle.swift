#if os(Linux)
import CLibGit2
import Glibc
import Synchronization

/// Debian's libgit2 (1.5, built with mbedTLS) parses the whole system CA bundle inside
/// `git_libgit2_init`: 3-8 ms of every run, before a caller can decline, while only a remote
/// reached over the network ever needs it. todosync defines the mbedTLS function libgit2 calls
/// for that (a definition in the executable comes before the shared library's), declines the
/// call during set-up, keeps the path, and loads that file the first time a remote that is not
/// on this machine is used. With a libgit2 built on another TLS library this is never called.
enum CertificateBundle {
    enum State: Equatable {
        case notAsked
        case deferred(path: String)
        case loaded(path: String)
    }

    /// True only while `git_libgit2_init` runs (once, on one thread).
    static let settingUp = Atomic<Bool>(false)
    static let state = Mutex<State>(.notAsked)
    /// mbedTLS's answer the last time a bundle was passed on to it: 0, or how many certificates
    /// it skipped; negative when the file could not be read.
    static let lastParseResult = Atomic<Int32>(0)

    /// The CA bundle libgit2 asked for at set-up, and whether it has been loaded since.
    static var deferredPath: String? {
        state.withLock { if case .deferred(let path) = $0 { path } else { nil } }
    }

    static var loadedPath: String? {
        state.withLock { if case .loaded(let path) = $0 { path } else { nil } }
    }

    /// Loads the bundle set-up declined, before the first connection to a remote elsewhere.
    static func loadIfDeferred() throws(GitError) {
        Libgit2.ensureInitialized()
        try state.withLock { (state: inout State) throws(GitError) in
            guard case .deferred(let path) = state else { return }
            try GitError.check(todosync_git_set_ssl_cert_file(path), "git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS)")
            state = .loaded(path: path)
        }
    }
}

private let mbedtlsFileIOError: Int32 = -0x2900

/// libgit2's call into mbedTLS to read a CA bundle: declined (path kept) during set-up,
/// passed on to mbedTLS's own function at any other time. Public so the linker exports it.
@_cdecl("mbedtls_x509_crt_parse_file")
public func todosyncParseCertificateFile(_ chain: UnsafeMutableRawPointer?, _ path: UnsafePointer<CChar>?) -> Int32 {
    if CertificateBundle.settingUp.load(ordering: .acquiring), let path {
        CertificateBundle.state.withLock { $0 = .deferred(path: String(cString: path)) }
        return mbedtlsFileIOError
    }
    typealias ParseFile = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32
    // RTLD_NEXT: the next definition after this one, mbedTLS's.
    guard let next = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "mbedtls_x509_crt_parse_file") else {
        return mbedtlsFileIOError
    }
    let result = unsafeBitCast(next, to: ParseFile.self)(chain, path)
    CertificateBundle.lastParseResult.store(result, ordering: .relaxed)
    return result
}
#endif
