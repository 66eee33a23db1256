#if os(Linux)
import Foundation
import Testing
import TestSupport
@testable import GitStore

/// The CA bundle Debian's libgit2 parses at set-up is declined then and loaded on first need.
@Suite struct CertificateBundleTests {
    /// The path this libgit2 was built to read (Debian's).
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: systemBundle), "no system CA bundle on this machine"))
    func setUpDeclinesTheBundleAndALaterLoadParsesIt() throws {
        let scratch = Scratch()
        _ = try Repository.create(at: scratch.path)  // libgit2's set-up has run
        // Another test may already have used a remote elsewhere; either way set-up asked for this file.
        let asked = CertificateBundle.deferredPath ?? CertificateBundle.loadedPath
        #expect(asked == Self.systemBundle)

        try CertificateBundle.loadIfDeferred()
        #expect(CertificateBundle.loadedPath == Self.systemBundle)
        #expect(CertificateBundle.deferredPath == nil)
        #expect(CertificateBundle.lastParseResult.load(ordering: .relaxed) >= 0, "mbedTLS read the bundle")
    }

    @Test func addressesOnThisMachineNeedNoTLS() {
        for local in ["/srv/lists.git", "../lists.git", "lists.git", "file:///srv/lists.git", "./a:b"] {
            #expect(Repository.isOnThisMachine(local), "\(local)")
        }
        for remote in ["https://example.com/lists.git", "http://example.com/l", "git://127.0.0.1/l", "ssh://host/l", "git@host:l.git", "host:l"] {
            #expect(!Repository.isOnThisMachine(remote), "\(remote)")
        }
    }
}
#endif
