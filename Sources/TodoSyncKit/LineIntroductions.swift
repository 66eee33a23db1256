import GitStore
import TodoModel

/// For lines of a commit's list file that need ids derived from history (`IDAssignment.DerivedLine`),
/// the commit that introduced each: walking back from the commit, a line (the `copy`-th copy of
/// those bytes) is followed into the first parent whose version of the file holds as many
/// copies; the commit where no parent does introduced it. Every clone with that commit has the
/// same history behind it, so every clone finds the same commit, whatever was committed on top.
///
/// Lines are walked together, a group per path of history: where the file's blob is the same
/// as the parent's, the whole group moves on without reading it. A parent beyond a shallow
/// clone's history counts as not holding the line.
struct LineIntroductions {
    let repository: Repository

    /// The introducing commit of each line, by line.
    func find(
        _ lines: [IDAssignment.DerivedLine], from start: Commit
    ) throws(TodoSyncError) -> [IDAssignment.DerivedLine: OID] {
        var result: [IDAssignment.DerivedLine: OID] = [:]
        let keys = lines.map { LineKey($0.line[...]) }
        var byPath: [String: [Int]] = [:]
        for index in lines.indices { byPath[lines[index].path, default: []].append(index) }
        for (path, members) in byPath {
            let startBlob = try git("reading \(path) in commit \(start.id.short)") {
                try repository.file(at: path, inTree: start.tree)?.blob
            }
            // Each group: lines (indices into `lines`) still held by a commit, and its blob of the file.
            var work: [(commit: Commit, blob: OID?, members: [Int])] = [(start, startBlob, members)]
            while let (commit, blob, members) = work.popLast() {
                var remaining = members
                for parentID in commit.parents where !remaining.isEmpty {
                    guard let parent = try parentCommit(parentID),
                        let parentBlob = try git(
                            "reading \(path) in commit \(parentID.short)",
                            { try repository.file(at: path, inTree: parent.tree)?.blob })
                    else { continue }
                    var held: [Int] = []
                    if parentBlob == blob {
                        swap(&held, &remaining)
                    } else {
                        let counts = try lineCounts(parentBlob, path)
                        var stillRemaining: [Int] = []
                        for member in remaining {
                            if counts[keys[member], default: 0] > lines[member].copy {
                                held.append(member)
                            } else {
                                stillRemaining.append(member)
                            }
                        }
                        remaining = stillRemaining
                    }
                    if !held.isEmpty { work.append((parent, parentBlob, held)) }
                }
                for member in remaining { result[lines[member]] = commit.id }
            }
        }
        return result
    }

    /// nil: beyond a shallow clone's history.
    private func parentCommit(_ id: OID) throws(TodoSyncError) -> Commit? {
        do {
            return try git("reading commit \(id.short)") { try repository.commit(id) }
        } catch  where error.isBeyondShallowHistory {
            return nil
        }
    }

    /// How many lines of the blob hold each exact byte sequence (line endings excluded, as
    /// `ListLine` splits them).
    private func lineCounts(_ blob: OID, _ path: String) throws(TodoSyncError) -> [LineKey: Int] {
        let bytes = try git("reading \(path) (blob \(blob.short))") { try repository.blob(blob) }
        let lines = ListLine.split(bytes)
        var counts: [LineKey: Int] = [:]
        counts.reserveCapacity(lines.count)
        for line in lines { counts[LineKey(line.content), default: 0] += 1 }
        return counts
    }
}
