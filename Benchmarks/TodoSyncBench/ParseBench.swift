import TodoModel

extension Bench {
    /// Parse + render in process, bytes per second.
    mutating func parseAndRender() {
        for size in listSizes {
            let bytes = Array(Generate.list(items: size).utf8)
            let seconds = Measure.inProcess(repeats: max(3, runs)) {
                let document = ListDocument(path: "TODO.md", bytes: bytes)
                precondition(document.render().count == bytes.count)
            }
            let rate = Double(bytes.count) / seconds / 1e6
            row(
                "parse + render, \(size) items (\(bytes.count / 1024) KB)", String(format: "%.0f MB/s", rate), "", "",
                "≥ 300 MB/s", verdict(rate >= 300))
        }
    }
}
