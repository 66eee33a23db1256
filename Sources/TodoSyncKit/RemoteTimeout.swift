#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GitStore

extension Workspace {
    /// How long a remote may send nothing before a fetch or push gives up:
    /// `TODOSYNC_REMOTE_TIMEOUT`, else `git config todosync.remoteTimeout`, in seconds (0: wait
    /// forever), else a minute. nil: no limit.
    func silenceLimit(_ doing: String, _ upstream: Upstream) throws(TodoSyncError) -> SilenceLimit? {
        var configured = configuration.remoteTimeout
        if configured == nil {
            configured = try git("reading todosync.remoteTimeout") {
                try repository.configString("todosync.remoteTimeout")
            }
        }
        var seconds = Self.defaultRemoteTimeout
        if let configured {
            guard let value = Double(configured), value >= 0, value.isFinite else {
                throw TodoSyncError(
                    "todosync.remoteTimeout (or TODOSYNC_REMOTE_TIMEOUT) is '\(configured)', not a number of seconds; nothing was fetched",
                    hint:
                        "set it to how long a remote may stay silent, such as 60, or 0 to wait forever: git config todosync.remoteTimeout 60"
                )
            }
            seconds = value
        }
        guard seconds > 0 else { return nil }
        let error = TodoSyncError(
            "\(doing) \(upstream.remote) (\(upstream.url)) stopped: the remote sent nothing for \(Int(seconds)) s; nothing was changed here",
            hint: Self.remoteTimeoutHint(upstream))
        return SilenceLimit(seconds: seconds, message: "todosync: error: \(error.message)\nhint: \(error.hint ?? "")\n")
    }

    static let defaultRemoteTimeout: Double = 60

    static func remoteTimeoutHint(_ upstream: Upstream) -> String {
        "check the network and the server ('git ls-remote \(upstream.remote)' should answer); your commits are safe here; how long todosync waits: git config todosync.remoteTimeout SECONDS"
    }
}
