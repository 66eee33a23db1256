/// The words of a commit: a summary line that says what changed, and a body that lists it all.
public struct CommitMessage: Hashable, Sendable {
    public var summary: String
    public var body: [String]
    /// `Key: value` lines at the end of the message, as `git interpret-trailers` reads them.
    public var trailers: [String]

    public init(summary: String, body: [String] = [], trailers: [String] = []) {
        self.summary = summary
        self.body = body
        self.trailers = trailers
    }

    /// The full message text: summary, then body and trailers, each after a blank line.
    ///
    /// Control characters in the words (a title may hold any byte) are shown as their Unicode
    /// pictures (NUL as ␀): git's C strings end at a NUL, which would cut off the trailers.
    public var text: String {
        let paragraphs = [[summary], body, trailers].filter { !$0.isEmpty }
        return paragraphs.map { $0.map(Self.visible).joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    /// One line with its control characters (C0 but tab, and DEL) as Unicode control pictures.
    static func visible(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
            return line
        }
        var result = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            if scalar.value < 0x20, scalar != "\t", let picture = Unicode.Scalar(0x2400 + scalar.value) {
                result.append(picture)
            } else if scalar.value == 0x7F, let picture = Unicode.Scalar(0x2421) {
                result.append(picture)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Describes changes in words: `Check "Buy milk", add "Call Bob" and 3 more`.
    ///
    /// The summary holds as many phrases as fit in `width` characters (at least one); the
    /// body lists every change. `idsWritten` counts ids added to items that did not change otherwise;
    /// `files`, the files that changed, name them when no item did (only text around the items).
    public static func describing(
        _ changes: [Change], idsWritten: Int = 0, files: [String] = [], width: Int = 72
    ) -> CommitMessage {
        let phrases = changes.map(\.phrase)
        let idNote = idsWritten == 1 ? "Add an id to 1 item" : "Add ids to \(idsWritten) items"
        guard !phrases.isEmpty else {
            if idsWritten > 0 { return CommitMessage(summary: idNote) }
            guard let first = files.first else { return CommitMessage(summary: "Update lists") }
            let others =
                files.count == 2 ? " and 1 more file" : files.count > 2 ? " and \(files.count - 1) more files" : ""
            return CommitMessage(
                summary: "Edit the text of \(first)\(others)", body: files.count > 1 ? files.map { "- " + $0 } : [])
        }
        var summary = phrases[0]
        var shown = 1
        while shown < phrases.count {
            let next = lowercasedFirst(phrases[shown])
            let remaining = phrases.count - shown - 1
            let candidate = remaining == 0 ? "\(summary) and \(next)" : "\(summary), \(next)"
            let tail = remaining == 0 ? "" : " and \(remaining) more"
            guard (candidate + tail).count <= width else { break }
            summary = candidate
            shown += 1
        }
        if shown < phrases.count { summary += " and \(phrases.count - shown) more" }
        var body = phrases.count > 1 || idsWritten > 0 ? phrases.map { "- " + $0 } : []
        if idsWritten > 0, !body.isEmpty { body.append("- \(idNote)") }
        return CommitMessage(summary: summary, body: body)
    }

    private static func lowercasedFirst(_ phrase: String) -> String {
        guard let first = phrase.first else { return phrase }
        return first.lowercased() + phrase.dropFirst()
    }
}
