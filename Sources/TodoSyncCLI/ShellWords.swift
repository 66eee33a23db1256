/// Splits a line into words as a POSIX shell would for simple commands: single quotes keep
/// everything, double quotes keep all but `\"` and `\\`, a backslash outside quotes escapes the
/// next character, `#` at the start of a word starts a comment. No expansions.
enum ShellWords {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\r":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            case "#" where !inWord:
                return words
            case "'":
                inWord = true
                while true {
                    guard let next = iterator.next() else {
                        throw Failure(description: "a single quote (') is not closed")
                    }
                    if next == "'" { break }
                    current.append(next)
                }
            case "\"":
                inWord = true
                while true {
                    guard let next = iterator.next() else {
                        throw Failure(description: "a double quote (\") is not closed")
                    }
                    if next == "\"" { break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else {
                            throw Failure(description: "a double quote (\") is not closed")
                        }
                        if escaped != "\"", escaped != "\\" { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(next)
                    }
                }
            case "\\":
                inWord = true
                if let next = iterator.next() { current.append(next) }
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
