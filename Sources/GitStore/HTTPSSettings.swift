import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How git sets up TLS for https here (git-config(1), `http.*`): the certificates to trust,
/// `GIT_SSL_CAINFO`, else `http.sslCAInfo`, else `SSL_CERT_FILE` (and `GIT_SSL_CAPATH`,
/// `http.sslCAPath`, `SSL_CERT_DIR` for a folder of them), none of which libgit2 reads itself;
/// and whether to verify the server at all (`GIT_SSL_NO_VERIFY`, `http.sslVerify`).
public struct HTTPSSettings: Sendable, Equatable {
    public var caFile: String?
    public var caPath: String?
    public var verifies: Bool
}

extension Repository {
    /// The TLS settings git would use for https remotes of this repository.
    public func httpsSettings() throws(GitError) -> HTTPSSettings {
        let (configuredFile, configuredPath) = (try configString("http.sslCAInfo"), try configString("http.sslCAPath"))
        let environment = ProcessEnvironment.value
        let caFile = environment("GIT_SSL_CAINFO") ?? configuredFile ?? environment("SSL_CERT_FILE")
        let caPath = environment("GIT_SSL_CAPATH") ?? configuredPath ?? environment("SSL_CERT_DIR")
        var verifies = try configBool("http.sslVerify") ?? true
        if environment("GIT_SSL_NO_VERIFY") != nil { verifies = false }
        return HTTPSSettings(
            caFile: caFile.map(ProcessEnvironment.expandingHome), caPath: caPath.map(ProcessEnvironment.expandingHome),
            verifies: verifies)
    }

    /// Makes libgit2 trust what the settings name (for the whole process, as git's own
    /// settings hold for its run).
    func applyCertificateLocations(_ settings: HTTPSSettings) throws(GitError) {
        guard settings.caFile != nil || settings.caPath != nil else { return }
        try GitError.check(
            todosync_set_ssl_cert_locations(settings.caFile, settings.caPath),
            "git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS)")
    }
}
