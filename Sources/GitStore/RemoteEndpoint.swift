/// Where a remote's URL leads, read as git reads it (git's `connect.c`), and the command git
/// would run to reach it: `ssh [-p PORT] [USER@]HOST "git-upload-pack 'PATH'"` for ssh, and
/// `git upload-pack PATH` for a path on this machine. https, http and git:// are left to
/// libgit2's own transports.
public enum RemoteEndpoint: Equatable, Sendable {
    case ssh(user: String?, host: String, port: Int?, path: String)
    case local(path: String)
    case builtIn

    public init(url: String) {
        if let separator = Self.schemeSeparator(url) {
            let scheme = url[..<separator].lowercased()
            let rest = url[url.index(separator, offsetBy: 3)...]
            switch scheme {
            case "ssh", "git+ssh", "ssh+git":
                let slash = rest.firstIndex(of: "/") ?? rest.endIndex
                let (user, host, port) = Self.authority(rest[..<slash])
                var path = String(rest[slash...])
                // ssh://host/~user/lists: a path from a home folder, as git passes it.
                if path.hasPrefix("/~") { path.removeFirst() }
                self = .ssh(user: user, host: host, port: port, path: path)
            case "file":
                let path = rest.drop { $0 != "/" }
                self = .local(path: Self.percentDecoded(path.isEmpty ? rest : path))
            default:
                self = .builtIn
            }
            return
        }
        // scp-like `[user@]host:path`: a colon with no slash before it (as in git).
        guard let colon = Self.scpColon(url) else {
            self = .local(path: url)
            return
        }
        var (user, host, port) = Self.authority(url[..<colon])
        // `[host:port]:path`, git's old way to name a port in this form (an IPv6 host has more colons).
        if port == nil, host.filter({ $0 == ":" }).count == 1, let portColon = host.firstIndex(of: ":"),
            let number = Int(host[host.index(after: portColon)...])
        {
            (host, port) = (String(host[..<portColon]), number)
        }
        self = .ssh(user: user, host: host, port: port, path: String(url[url.index(after: colon)...]))
    }

    /// Where `://` follows a scheme made of letters, digits, `+`, `-` and `.` (as in git).
    private static func schemeSeparator(_ url: String) -> String.Index? {
        var index = url.startIndex
        while index < url.endIndex, url[index].isASCII,
            url[index].isLetter || url[index].isNumber || "+-.".contains(url[index])
        {
            index = url.index(after: index)
        }
        guard index > url.startIndex, url[index...].hasPrefix("://") else { return nil }
        return index
    }

    private static func scpColon(_ url: String) -> String.Index? {
        // A bracketed host may hold colons of its own.
        let searchFrom =
            url.hasPrefix("[") || url.contains("@[") ? (url.firstIndex(of: "]") ?? url.startIndex) : url.startIndex
        guard let colon = url[searchFrom...].firstIndex(of: ":") else { return nil }
        if let slash = url.firstIndex(of: "/"), slash < colon { return nil }
        return colon
    }

    /// The host of a `scheme://[user@]host[:port]/…` URL ("" without a scheme).
    static func host(ofURL url: String) -> String {
        guard let separator = schemeSeparator(url) else { return "" }
        let rest = url[url.index(separator, offsetBy: 3)...]
        return authority(rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]).host
    }

    /// `[user@]host[:port]`, with an IPv6 host in brackets.
    private static func authority(_ text: Substring) -> (user: String?, host: String, port: Int?) {
        var rest = text
        var user: String?
        if let at = rest.lastIndex(of: "@") {
            user = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            let host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            return (user, host, after.hasPrefix(":") ? Int(after.dropFirst()) : nil)
        }
        if let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]) {
            return (user, String(rest[..<colon]), port)
        }
        return (user, String(rest), nil)
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex),
                high < utf8.endIndex,
                let low = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), low < utf8.endIndex,
                let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(index, offsetBy: 3)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// How the user's git runs ssh: `GIT_SSH_COMMAND`, else `core.sshCommand` (both through the
/// shell), else `GIT_SSH` (a program), else `ssh`; `ssh.variant` (or `GIT_SSH_VARIANT`) says
/// how it takes a port.
public struct SSHSettings: Equatable, Sendable {
    public var shellCommand: String?
    public var program: String?
    public var variant: String?

    public init(shellCommand: String? = nil, program: String? = nil, variant: String? = nil) {
        self.shellCommand = shellCommand
        self.program = program
        self.variant = variant
    }
}

extension RemoteEndpoint {
    /// The service git runs at the other end.
    public enum Service: String, Sendable {
        case uploadPack = "git-upload-pack"
        case receivePack = "git-receive-pack"
    }

    /// What to run (the first element is looked up in PATH), or why not.
    public func command(for service: Service, ssh settings: SSHSettings = SSHSettings()) throws(GitError) -> [String] {
        switch self {
        case .builtIn:
            throw GitError(
                code: -1, message: "this remote is reached by libgit2's own transport",
                function: "RemoteEndpoint.command")
        case .local(let path):
            guard !path.hasPrefix("-") else { throw Self.strange("path", path) }
            return ["git", String(service.rawValue.dropFirst(4)), path]
        case .ssh(let user, let host, let port, let path):
            guard !host.hasPrefix("-") else { throw Self.strange("host name", host) }
            guard !path.hasPrefix("-") else { throw Self.strange("path", path) }
            let variant =
                settings.variant.map { $0.lowercased() }
                ?? Self.variant(of: settings.shellCommand ?? settings.program ?? "ssh")
            var arguments: [String] = []
            if variant == "tortoiseplink" { arguments.append("-batch") }
            if let port {
                switch variant {
                case "plink", "putty", "tortoiseplink": arguments += ["-P", String(port)]
                case "simple":
                    throw GitError(
                        code: -1, message: "ssh variant 'simple' does not support setting a port",
                        function: "RemoteEndpoint.command")
                default: arguments += ["-p", String(port)]
                }
            }
            arguments += [user.map { $0 + "@" + host } ?? host, service.rawValue + " " + Self.shellQuoted(path)]
            if let command = settings.shellCommand {
                // As git runs it: the command through the shell, the arguments after it.
                return ["/bin/sh", "-c", command + " \"$@\"", command] + arguments
            }
            return [settings.program ?? "ssh"] + arguments
        }
    }

    /// The variant git infers from the program's name.
    private static func variant(of command: String) -> String {
        let program = command.split(separator: " ").first.map(String.init) ?? command
        let name = (program.split(separator: "/").last.map(String.init) ?? program).lowercased()
        let stem = name.hasSuffix(".exe") ? String(name.dropLast(4)) : name
        return ["plink", "putty", "tortoiseplink"].contains(stem) ? stem : "ssh"
    }

    /// A single-quoted word for a POSIX shell, as git quotes the path (`'` and `!` escaped).
    static func shellQuoted(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            switch character {
            case "'", "!": quoted += "'\\" + String(character) + "'"
            default: quoted.append(character)
            }
        }
        return quoted + "'"
    }

    private static func strange(_ what: String, _ value: String) -> GitError {
        GitError(
            code: -1, message: "strange \(what) '\(value)' blocked: it would be read as an option",
            function: "RemoteEndpoint.command")
    }
}
