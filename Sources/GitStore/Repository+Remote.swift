import CLibGit2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A user name and password for an https remote (a token works as the password).
public struct PasswordCredential: Sendable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}

/// How far a transfer has come: objects received (or sent) of the total, and bytes.
public struct TransferProgress: Sendable {
    public var done: Int
    public var total: Int
    public var bytes: Int
}

extension Repository {
    /// The URL configured for a remote (insteadOf applied), or nil if there is no such remote.
    public func remoteURL(_ name: String) throws(GitError) -> String? {
        try remoteSettings(name)?.url
    }

    /// Fetches a remote's branches into `refs/remotes/<name>/`, as its configured refspecs say.
    /// `silence`: how long the remote may send nothing (`SilenceWatchdog`, `ChildProcess`).
    public func fetch(
        remote name: String, silence: SilenceLimit? = nil, password: PasswordCredential? = nil,
        progress: ((TransferProgress) -> Void)? = nil
    ) throws(GitError) {
        try withRemote(name, pushing: false, silence: silence, password: password) {
            (remote, context) throws(GitError) in
            var options = git_fetch_options()
            try GitError.check(
                git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
            // The proxy git would use: remote.<name>.proxy, http.proxy, then https_proxy and the like.
            options.proxy_opts.type = GIT_PROXY_AUTO
            context.progress = progress
            context.install(in: &options.callbacks)
            let specs = context.fetchRefspecs.map { strdup($0) }
            defer { specs.forEach { free($0) } }
            var pointers: [UnsafeMutablePointer<CChar>?] = specs
            let result = pointers.withUnsafeMutableBufferPointer { buffer in
                var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
                if buffer.isEmpty { return git_remote_fetch(remote, nil, &options, "fetch") }
                return git_remote_fetch(remote, &array, &options, "fetch")
            }
            try context.rethrowing(result, "git_remote_fetch")
        }
    }

    /// Pushes `localRef` to `remoteRef` on a remote (no force). A push the remote refuses
    /// because it moved on throws with `isNonFastForward`.
    public func push(
        remote name: String, localRef: String, remoteRef: String, silence: SilenceLimit? = nil,
        password: PasswordCredential? = nil,
        progress: ((TransferProgress) -> Void)? = nil
    ) throws(GitError) {
        try withRemote(name, pushing: true, silence: silence, password: password) {
            (remote, context) throws(GitError) in
            var options = git_push_options()
            try GitError.check(
                git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
            options.proxy_opts.type = GIT_PROXY_AUTO
            // As git's pack-objects (pack.threads): the pack is built on every core.
            options.pb_parallelism = 0
            context.progress = progress
            context.install(in: &options.callbacks)
            let spec = strdup("\(localRef):\(remoteRef)")
            defer { free(spec) }
            var specs: [UnsafeMutablePointer<CChar>?] = [spec]
            let result = specs.withUnsafeMutableBufferPointer { buffer in
                var array = git_strarray(strings: buffer.baseAddress, count: 1)
                return git_remote_push(remote, &array, &options)
            }
            try context.rethrowing(result, "git_remote_push")
            if let (ref, status) = context.rejected.first {
                // The branch moved there since it was read: fetch and merge again. Anything else
                // (a hook declined, a protected branch) is the remote's answer, with what it said.
                let moved = ["fetch first", "non-fast-forward", "stale info", "failed to lock", "failed to update ref"]
                    .contains { status.contains($0) }
                let said =
                    context.remoteMessages.isEmpty
                    ? "" : "\n" + context.remoteMessages.map { "remote: " + $0 }.joined(separator: "\n")
                var error = GitError(
                    code: moved ? GIT_ENONFASTFORWARD.rawValue : GIT_ERROR.rawValue,
                    message: "the remote refused \(ref): \(status)\(said)",
                    function: "git_remote_push")
                error.isRefusedByRemote = !moved
                throw error
            }
        }
    }

    private func withRemote(
        _ name: String, pushing: Bool, silence: SilenceLimit?, password: PasswordCredential?,
        _ body: (OpaquePointer?, RemoteContext) throws(GitError) -> Void
    ) throws(GitError) {
        guard let settings = try remoteSettings(name) else {
            throw GitError(
                code: GIT_ENOTFOUND.rawValue, message: "remote '\(name)' does not exist", function: "git_remote_lookup")
        }
        let url = pushing ? settings.pushURL : settings.url
        // In memory, from the settings resolved above (RemoteSettings says why not looked up).
        var createOptions = git_remote_create_options()
        try GitError.check(
            git_remote_create_options_init(&createOptions, UInt32(GIT_REMOTE_CREATE_OPTIONS_VERSION)),
            "git_remote_create_options_init")
        createOptions.repository = pointer
        createOptions.flags =
            GIT_REMOTE_CREATE_SKIP_INSTEADOF.rawValue | GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC.rawValue
        // The first refspec maps a pushed branch to its remote-tracking branch; a fetch is
        // given them all (`fetch` below).
        let fetchspec = settings.fetchRefspecs.first.map { strdup($0) }
        defer { free(fetchspec ?? nil) }
        createOptions.fetchspec = UnsafePointer(fetchspec ?? nil)
        var remote: OpaquePointer?
        try GitError.check(git_remote_create_with_opts(&remote, url, &createOptions), "git_remote_create_with_opts")
        defer { git_remote_free(remote) }
        let context = RemoteContext()
        context.fetchRefspecs = settings.fetchRefspecs
        context.password = password
        context.silence = silence
        switch RemoteEndpoint(url: url) {
        case .builtIn:
            context.watchdog = silence.map(SilenceWatchdog.init)
            if url.lowercased().hasPrefix("https://") {
                let settings = try httpsSettings()
                try applyCertificateLocations(settings)
                context.https = settings
            }
            context.credentialHelper = CredentialHelper(workTree: workTreeRoot)
        case .local(let path):
            // Relative to the working tree's root, where git runs.
            context.processEndpoint = .local(path: path.hasPrefix("/") ? path : (workdir ?? "") + path)
        case let endpoint:
            context.processEndpoint = endpoint
            context.ssh = try sshSettings()
        }
        defer { context.watchdog?.stop() }
        try withExtendedLifetime(context) { () throws(GitError) in try body(remote, context) }
        context.approveCredential()
    }

    /// How git would run ssh here (see `SSHSettings`).
    func sshSettings() throws(GitError) -> SSHSettings {
        let environment = ProcessEnvironment.value
        let command = environment("GIT_SSH_COMMAND")
        let variant = environment("GIT_SSH_VARIANT")
        return SSHSettings(
            shellCommand: command != nil ? command : try configString("core.sshCommand"),
            program: environment("GIT_SSH"),
            variant: variant != nil ? variant : try configString("ssh.variant"))
    }
}

/// What the C callbacks of one fetch or push need: credentials tried so far, refusals seen,
/// the progress handler. Passed to them as `payload`.
final class RemoteContext {
    var progress: ((TransferProgress) -> Void)?
    /// The user name and password the program gave, tried after git's credential helpers.
    var password: PasswordCredential?
    /// The remote's `remote.<name>.fetch` refspecs, which a fetch is given.
    var fetchRefspecs: [String] = []
    var rejected: [(String, String)] = []
    /// Lines the remote sent to be shown (a hook's output).
    var remoteMessages: [String] = []
    /// A remote reached through a program git would run (ssh, a local path); nil: libgit2's own.
    var processEndpoint: RemoteEndpoint?
    var ssh = SSHSettings()
    var silence: SilenceLimit?
    /// Watches libgit2's own transports for silence; the callbacks below are its signs of life.
    var watchdog: SilenceWatchdog?
    /// A Swift-side reason for a failure, reported instead of libgit2's generic one.
    var failure: String?
    /// The failure is a remote that sent nothing for too long.
    var remoteWasSilent = false
    /// The failure is a server certificate this machine does not trust.
    var untrustedCertificate = false
    /// TLS as git would set it up, for an https remote.
    var https: HTTPSSettings?
    var credentialHelper: CredentialHelper?
    /// What the credential helper gave and the server is being asked to take.
    // Which credentials were tried (RemoteContext+Credentials.swift).
    var helperCredential: [(String, String)]?
    var triedHelper = false
    var helperWasRefused = false
    var triedAgent = false
    var keysTried = 0
    var triedPassword = false
    var triedDefault = false

    func install(in callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        if processEndpoint != nil {
            callbacks.transport = { out, owner, payload in
                guard let out, let payload else { return -1 }
                let context = Unmanaged<RemoteContext>.fromOpaque(payload).takeUnretainedValue()
                guard let endpoint = context.processEndpoint else { return -1 }
                return ProcessTransport.make(out, owner: owner, endpoint: endpoint, ssh: context.ssh, context: context)
            }
        }
        callbacks.sideband_progress = { text, length, payload in
            guard let text, let payload, length > 0 else { return 0 }
            let context = Unmanaged<RemoteContext>.fromOpaque(payload).takeUnretainedValue()
            context.watchdog?.noteSign()
            let bytes = UnsafeRawBufferPointer(start: text, count: Int(length))
            for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
                let trimmed = line.drop { $0 == " " }
                if !trimmed.isEmpty { context.remoteMessages.append(String(trimmed)) }
            }
            return 0
        }
        callbacks.credentials = { out, url, username, allowed, payload in
            guard let out, let payload else { return -1 }
            let context = Unmanaged<RemoteContext>.fromOpaque(payload).takeUnretainedValue()
            let ask = { context.credential(out, url: string(url) ?? "", username: string(username), allowed: allowed) }
            return context.watchdog?.pausing(ask) ?? ask()
        }
        callbacks.transfer_progress = { stats, payload in
            guard let stats, let payload else { return 0 }
            let context = Unmanaged<RemoteContext>.fromOpaque(payload).takeUnretainedValue()
            context.watchdog?.noteSign()
            context.progress?(
                TransferProgress(
                    done: Int(stats.pointee.received_objects), total: Int(stats.pointee.total_objects),
                    bytes: Int(stats.pointee.received_bytes)))
            return 0
        }
        callbacks.push_transfer_progress = { current, total, bytes, payload in
            guard let payload else { return 0 }
            let context = Unmanaged<RemoteContext>.fromOpaque(payload).takeUnretainedValue()
            context.watchdog?.noteSign()
            context.progress?(TransferProgress(done: Int(current), total: Int(total), bytes: Int(bytes)))
            return 0
        }
        callbacks.pack_progress = { _, _, _, payload in
            // Packing what to push is work here, not the remote's silence.
            if let payload { Unmanaged<RemoteContext>.fromOpaque(payload).takeUnretainedValue().watchdog?.noteSign() }
            return 0
        }
        if https != nil {
            callbacks.certificate_check = { _, valid, host, payload in
                guard let payload else { return -1 }
                let context = Unmanaged<RemoteContext>.fromOpaque(payload).takeUnretainedValue()
                context.watchdog?.noteSign()
                if valid != 0 || context.https?.verifies == false { return 0 }
                let name = string(host) ?? "the server"
                context.untrustedCertificate = true
                context.failure =
                    "the TLS certificate of \(name) is not trusted here (no certificate authority this machine trusts signed it for \(name))"
                return GIT_ECERTIFICATE.rawValue
            }
        }
        callbacks.push_update_reference = { ref, status, payload in
            guard let payload else { return 0 }
            let context = Unmanaged<RemoteContext>.fromOpaque(payload).takeUnretainedValue()
            context.watchdog?.noteSign()
            if let status = string(status) { context.rejected.append((string(ref) ?? "", status)) }
            return 0
        }
    }

    /// Checks a libgit2 result, putting a reason found in a callback in its place.
    func rethrowing(_ result: Int32, _ function: String) throws(GitError) {
        guard result < 0 else { return }
        if let failure {
            var error = GitError(code: result, message: failure, function: function)
            error.isRemoteSilent = remoteWasSilent
            error.isUntrustedCertificate = untrustedCertificate
            throw error
        }
        _ = try GitError.check(result, function)
    }
}
