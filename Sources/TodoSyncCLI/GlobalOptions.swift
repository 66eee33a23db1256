/// The options that may stand before the command as well as after it, as git's do:
/// `todosync -C ~/lists sync`, `todosync --no-color list`, `todosync --json status`.
///
/// `-C DIR` changes directory before anything runs (several are taken in turn, as git takes
/// them); `--no-color` turns colour off for the whole run; `--json` before the command is
/// handed to the command (status, sync, list and log take it).
struct GlobalOptions: Equatable {
    var directories: [String] = []
    var noColor = false
    /// The arguments for the parser: the global options before the command moved after it.
    var arguments: [String] = []

    /// Why the arguments cannot be read (a `-C` without a directory).
    struct Problem: Error, Equatable {
        var message: String
    }

    init(parsing given: [String]) throws(Problem) {
        var json = false
        var index = 0
        // Before the command: the global options, in any order.
        while index < given.count {
            let word = given[index]
            if word == "-C" {
                guard index + 1 < given.count else { throw Problem(message: "-C needs a directory") }
                directories.append(given[index + 1])
                index += 2
            } else if word.hasPrefix("-C"), word.count > 2 {
                directories.append(String(word.dropFirst(2)))
                index += 1
            } else if word == "--no-color" {
                noColor = true
                index += 1
            } else if word == "--json" {
                json = true
                index += 1
            } else {
                break
            }
        }
        let afterGlobals = given[index...]
        // After it, `--no-color` is everyone's (up to a `--`, after which words are values).
        var rest: [String] = []
        var valuesOnly = false
        for word in afterGlobals {
            if word == "--" { valuesOnly = true }
            if !valuesOnly, word == "--no-color" {
                noColor = true
                continue
            }
            rest.append(word)
        }
        if json {
            // The command first (or the default one), then --json.
            if let command = rest.first, !command.hasPrefix("-") {
                rest.insert("--json", at: 1)
            } else {
                rest.insert("--json", at: 0)
            }
        }
        arguments = rest
    }
}
