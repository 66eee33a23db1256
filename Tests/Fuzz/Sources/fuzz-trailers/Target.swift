import FuzzDriver
import TodoModel
@testable import TodoSyncKit

/// Any words in a commit's summary and body (an item's title may hold any bytes): the trailers
/// todosync writes after them read back as written, and any message at all reads without a
/// crash.
@main enum Target {
    static let kinds: [UnitTrailer.Kind] = [.edit, .adopt, .sync, .command, .batch, .undo, .redo]

    static func main() {
        FuzzDriver.run { bytes in
            guard let first = bytes.first else { return }
            _ = Workspace.trailers(String(decoding: bytes, as: UTF8.self))
            let (summaryBytes, bodyBytes) = FuzzInput.halves(Array(bytes.dropFirst()))
            let summary = String(decoding: summaryBytes, as: UTF8.self)
            let body = String(decoding: bodyBytes, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let kind = kinds[Int(first) % kinds.count]
            var trailers = [UnitTrailer.line(kind)]
            let target = "0123456789abcdef0123456789abcdef0123456" + String(first % 10)
            if kind == .undo { trailers.append("\(UnitTrailer.undoesKey): \(target)") }
            if kind == .redo { trailers.append("\(UnitTrailer.redoesKey): \(target)") }
            let text = CommitMessage(summary: summary, body: first & 0x80 == 0 ? body : [], trailers: trailers).text
            let read = Workspace.trailers(text)
            precondition(read[UnitTrailer.key] == kind.rawValue, "the unit's kind did not read back")
            if kind == .undo {
                precondition(read[UnitTrailer.undoesKey] == target, "Todosync-Undoes did not read back")
            }
            if kind == .redo {
                precondition(read[UnitTrailer.redoesKey] == target, "Todosync-Redoes did not read back")
            }
        }
    }
}
