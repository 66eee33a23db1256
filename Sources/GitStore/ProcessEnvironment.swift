#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What this process's environment says, read the way git reads it.
public enum ProcessEnvironment {
    /// A variable's value; nil when it is unset or empty.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `~/…` made absolute with `HOME`, as git expands paths in its config.
    public static func expandingHome(_ path: String) -> String {
        guard path.hasPrefix("~/"), let home = value("HOME") else { return path }
        return home + path.dropFirst()
    }

    /// Every variable of this process's environment.
    static func all() -> [String: String] {
        var result: [String: String] = [:]
        for line in forChild() {
            let name = String(line.prefix { $0 != "=" })
            result[name] = String(line.dropFirst(name.count + 1))
        }
        return result
    }

    /// Where temporary files go: `TMPDIR`, else /tmp.
    static var temporaryDirectory: String { value("TMPDIR") ?? "/tmp" }

    /// This process's environment as `NAME=value` lines for a child: without the variables
    /// `removing` names, with `adding` set (replacing what was there).
    static func forChild(adding: [String: String] = [:], removing: Set<String> = []) -> [String] {
        var lines: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            let name = String(text.prefix { $0 != "=" })
            if !removing.contains(name), adding[name] == nil { lines.append(text) }
            entry += 1
        }
        return lines + adding.map { "\($0.key)=\($0.value)" }
    }
}
