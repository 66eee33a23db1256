import Foundation
import TestSupport

/// A real forward proxy on 127.0.0.1: tinyproxy with basic auth (user `proxyuser`), logging every
/// connection it carries, started by start-stop-daemon as `HTTPSServer` starts nginx.
final class HTTPProxy {
    let scratch = Scratch()
    private(set) var port = 0
    static let user = "proxyuser"
    let password = "proxy-" + UUID().uuidString.prefix(8)
    /// The proxy's URL without credentials, and with them.
    var url: String { "http://127.0.0.1:\(port)" }
    var authenticatedURL: String { "http://\(Self.user):\(password)@127.0.0.1:\(port)" }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tinyproxy") }

    init(requiringPassword: Bool = true) throws {
        for attempt in 0..<5 {
            port = Int.random(in: 20_000...60_000)
            try scratch.write(
                "tinyproxy.conf",
                """
                Port \(port)
                Listen 127.0.0.1
                Timeout 60
                LogFile "\(scratch.path)/tinyproxy.log"
                LogLevel Connect
                MaxClients 20
                Allow 127.0.0.1
                \(requiringPassword ? "BasicAuth \(Self.user) \(password)" : "")

                """)
            let started = try run(
                "/usr/sbin/start-stop-daemon",
                [
                    "--start", "--background", "--make-pidfile", "--pidfile", scratch.path + "/tinyproxy.pid", "--exec",
                    "/usr/bin/tinyproxy", "--",
                    "-d", "-c", scratch.path + "/tinyproxy.conf",
                ], in: scratch.path)
            if started.status == 0 {
                for _ in 0..<50 {
                    if isListening { return }
                    usleep(100_000)
                }
            }
            stop()
            if attempt == 4 { throw TestFailure("tinyproxy did not start") }
        }
    }

    /// Whether something accepts connections on the port yet.
    private var isListening: Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Every connection the proxy was asked to open (`CONNECT host:port` lines).
    var tunnels: [String] {
        let log = (try? scratch.read("tinyproxy.log")) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "Request (file descriptor"),
                let connect = line[range.upperBound...].range(of: "CONNECT ")
            else { return nil }
            return String(line[connect.upperBound...].prefix { $0 != " " })
        }
    }

    private func stop() {
        guard let text = try? scratch.read("tinyproxy.pid"),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        kill(pid, SIGKILL)
        try? FileManager.default.removeItem(atPath: scratch.path + "/tinyproxy.pid")
    }

    deinit { stop() }
}
