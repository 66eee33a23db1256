/// The proxy a connection to a remote goes through, and the setting that names it.
public struct ProxySetting: Equatable, Sendable {
    public var url: String
    /// `remote.origin.proxy`, `http.proxy`, `HTTPS_PROXY` …
    public var source: String
}

extension Repository {
    /// The proxy libgit2 uses for remote `name` at `url` (as git chooses it): `remote.<name>.proxy`,
    /// `http.proxy`, then `https_proxy`/`HTTPS_PROXY` (`http_proxy` for http://) unless
    /// `no_proxy` names the host. nil: a direct connection (or not http at all).
    public func proxy(forRemote name: String, url: String) throws(GitError) -> ProxySetting? {
        let lowered = url.lowercased()
        let isHTTPS = lowered.hasPrefix("https://")
        guard isHTTPS || lowered.hasPrefix("http://") else { return nil }
        for key in ["remote.\(name).proxy", "http.proxy"] {
            if let value = try configString(key), !value.isEmpty { return ProxySetting(url: value, source: key) }
        }
        let names = isHTTPS ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy", "HTTP_PROXY"]
        guard let source = names.first(where: { ProcessEnvironment.value($0) != nil }),
            let value = ProcessEnvironment.value(source)
        else { return nil }
        let host = RemoteEndpoint.host(ofURL: url).lowercased()
        let exempt = (ProcessEnvironment.value("no_proxy") ?? ProcessEnvironment.value("NO_PROXY") ?? "")
            .split(separator: ",").map { String($0.filter { $0 != " " }).lowercased() }
        if exempt.contains(where: { $0 == "*" || host == $0 || host.hasSuffix($0.hasPrefix(".") ? $0 : "." + $0) }) {
            return nil
        }
        return ProxySetting(url: value, source: source)
    }
}
