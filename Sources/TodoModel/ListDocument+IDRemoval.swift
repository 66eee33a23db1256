extension ListDocument {
    /// Takes the id comments of `ids` out of their lines, with the space `lineWithID` wrote
    /// beside each: what a merge of files with no history (git's merge driver) does with the
    /// stand-in ids it gave items that had none, so it writes no id of its own making.
    mutating func removeIDComments(of ids: Set<ItemID>) {
        guard !ids.isEmpty else { return }
        var changed = false
        for node in nodes.indices {
            guard let id = nodes[node].id, ids.contains(id), let comment = idComment(ofNode: node) else { continue }
            let lineIndex = nodeLine(node)
            let content = lines[lineIndex].content
            var bytes = Array(content)
            var lower = comment.range.lowerBound - content.startIndex
            var upper = comment.range.upperBound - content.startIndex
            let isLast = bytes[upper...].allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            if isLast, lower > 0, bytes[lower - 1] == UInt8(ascii: " ") {
                lower -= 1
            } else if upper < bytes.count, bytes[upper] == UInt8(ascii: " ") {
                upper += 1
            }
            bytes.removeSubrange(lower..<upper)
            lines[lineIndex] = ListLine(content: bytes[...], ending: lines[lineIndex].ending)
            changed = true
        }
        if changed { replaceLines(0..<0, with: []) }
    }
}
