/// Credentials never shown: in every URL of a text, the user part of an `https://` (or other)
/// URL is dropped, as git shows a remote (`https://host/lists.git`; a token is often written
/// as the user name); an ssh URL keeps its user name (not a secret) but loses any password.
public enum Credentials {
    public static func removed(from text: String) -> String {
        guard text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let separator = separatorEnd(in: rest) {
            let scheme = rest[..<rest.index(separator, offsetBy: -3)].reversed().prefix { $0.isLetter || $0 == "+" }
            let isSSH = String(scheme.reversed()).lowercased().contains("ssh")
            result += rest[..<separator]
            rest = rest[separator...]
            // The authority ends at the first '/', '?', '#', quote or space; a '@' before that
            // ends the user part.
            let authorityEnd = rest.firstIndex { "/?#'\" \t\n<>".contains($0) } ?? rest.endIndex
            guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { continue }
            if isSSH {
                result += rest[..<at].prefix { $0 != ":" } + "@"
            }
            rest = rest[rest.index(after: at)...]
        }
        return result + rest
    }

    /// Where the first `://` in `text` ends.
    private static func separatorEnd(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("://") { return text.index(index, offsetBy: 3) }
            index = text.index(after: index)
        }
        return nil
    }
}
