import Foundation

/// cmark-gfm, the engine behind GitHub's Markdown, run as an independent witness: which lines
/// it shows as task items, checked or not, under which task.
public enum CmarkGFM {
    /// One task item as a parser sees it: its 1-based line, its box, the line of the task
    /// item it is nested in.
    public struct Task: Hashable, CustomStringConvertible, Sendable {
        public var line: Int
        public var isChecked: Bool
        public var parentLine: Int?

        public init(line: Int, isChecked: Bool, parentLine: Int?) {
            self.line = line
            self.isChecked = isChecked
            self.parentLine = parentLine
        }

        public var description: String { "\(line)\(isChecked ? "x" : " ")" + (parentLine.map { "^\($0)" } ?? "") }
    }

    public static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent("cmark-gfm")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    /// The task items cmark-gfm (with GitHub's table and tasklist extensions) finds.
    public static func tasks(in markdown: [UInt8], using executable: URL) throws -> [Task] {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--extension", "table", "--extension", "tasklist", "--sourcepos", "--to", "xml"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown))
        try input.fileHandleForWriting.close()
        let xml = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CmarkError(status: process.terminationStatus) }
        return tasks(inXML: String(decoding: xml, as: UTF8.self))
    }

    public struct CmarkError: Error { public var status: Int32 }

    /// Reads `<tasklist sourcepos="L:C-L:C" completed="…">` elements and their nesting from
    /// cmark's XML (whose text and attribute values escape `<` and `>`).
    public static func tasks(inXML xml: String) -> [Task] {
        var tasks: [Task] = []
        // The open elements; for each, the line of the task item it is, if it is one.
        var open: [Int?] = []
        var rest = Substring(xml)
        while let start = rest.firstIndex(of: "<") {
            guard let end = rest[start...].firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: start)..<end]
            rest = rest[rest.index(after: end)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                _ = open.popLast()
                continue
            }
            var taskLine: Int?
            if tag.hasPrefix("tasklist ") {
                let line = attribute("sourcepos", in: tag).flatMap { Int($0.prefix { $0 != ":" }) } ?? 0
                let parent = open.last { $0 != nil } ?? nil
                tasks.append(Task(line: line, isChecked: attribute("completed", in: tag) == "true", parentLine: parent))
                taskLine = line
            }
            if !tag.hasSuffix("/") { open.append(taskLine) }
        }
        return tasks
    }

    private static func attribute(_ name: String, in tag: Substring) -> Substring? {
        guard let range = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[range.upperBound...]
        return value.prefix { $0 != "\"" }
    }

    /// The examples of the GFM spec that Debian's cmark-gfm ships, from the block-structure
    /// sections (tabs to lists), with `→` read as a tab.
    public static let specPath = "/usr/share/doc/cmark-gfm/spec.txt.gz"

    public static func specExamples() throws -> [String] {
        let spec = specPath
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", spec]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var examples: [String] = []
        var inBlockSections = false
        var example: [Substring]?
        let fence = String(repeating: "`", count: 32)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                if line == "## Tabs" { inBlockSections = true }
                if line == "## Backslash escapes" { inBlockSections = false }
            }
            if line.hasPrefix(fence + " example") {
                example = []
            } else if example != nil, line == "." {
                if inBlockSections, let lines = example {
                    examples.append(lines.map { $0 + "\n" }.joined().replacingOccurrences(of: "→", with: "\t"))
                }
                example = nil
            } else if example != nil {
                example?.append(line)
            }
        }
        return examples
    }
}
