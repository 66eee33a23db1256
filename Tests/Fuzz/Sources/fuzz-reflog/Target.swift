import FuzzDriver
@testable import GitStore
import Foundation

/// Any bytes as a reflog file, repeated so that a line may straddle the reader's pieces: the
/// reader finds exactly what a plain line-by-line reading of the same rules finds.
@main enum Target {
    static let prefixes = ["todosync: ", "commit: ", "commit (merge): "]
    static let path = NSTemporaryDirectory() + "todosync-fuzz-reflog-\(getpid())"

    static func main() {
        FuzzDriver.run { bytes in
            guard let first = bytes.first else { return }
            let piece = Array(bytes.dropFirst())
            // NB: one copy, or enough for 70 to 210 KB: past the reader's first piece of 64 KiB.
            let copies = piece.isEmpty ? 1 : 1 + Int(first) % 4 * (70_000 / piece.count)
            let file = Array([[UInt8]](repeating: piece, count: copies).joined())
            FileManager.default.createFile(atPath: path, contents: Data(file))
            defer { unlink(path) }
            let found: (oldestFirst: [OID], total: Int)
            do {
                found = try ReflogFile.targets(atPath: path, withMessagesStartingWith: prefixes)
            } catch {
                preconditionFailure("a readable reflog failed: \(error)")
            }
            let expected = reference(file)
            precondition(found.total == expected.total, "total \(found.total), expected \(expected.total)")
            precondition(found.oldestFirst.map(\.description) == expected.targets, "targets differ from the reference")
        }
    }

    /// The rules read line by line: whole lines only; an entry has ids at 0..<40 and 41..<81
    /// with spaces after each; its message follows the first tab after them.
    static func reference(_ file: [UInt8]) -> (targets: [String], total: Int) {
        var lines = file.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // what follows the last line feed is not a whole line
        var targets: [String] = []
        var total = 0
        let hex = Set("0123456789abcdefABCDEF".utf8)
        for slice in lines {
            let line = Array(slice)
            guard line.count >= 83, line[40] == UInt8(ascii: " "), line[81] == UInt8(ascii: " ") else { continue }
            total += 1
            guard let tab = line[82...].firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let message = Array(line[(tab + 1)...])
            guard prefixes.contains(where: { message.starts(with: Array($0.utf8)) }) else { continue }
            let digits = line[41..<81]
            guard digits.allSatisfy(hex.contains) else { continue }
            targets.append(String(decoding: digits, as: UTF8.self).lowercased())
        }
        return (targets, total)
    }
}
