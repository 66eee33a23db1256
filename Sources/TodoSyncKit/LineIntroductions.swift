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
    func find(_ lines: [IDAssignment.DerivedLine], from start: Commit) throws(TodoSyncError) -> [IDAssignment.DerivedLine: OID] {
        var result: [IDAssignment.DerivedLine: OID] = [:]
        var byPath: [String: [IDAssignment.DerivedLine]] = [:]
        for line in lines { byPath[line.path, default: []].append(line) }
        for (path, pathLines) in byPath {
            let startBlob = try git("reading \(path) in commit \(start.id.short)") { try repository.blobID(at: path, inTree: start.tree) }
            // Each group: lines still held by a commit, and that commit's blob of the file.
            var work: [(commit: Commit, blob: OID?, lines: [IDAssignment.DerivedLine])] = [(start, startBlob, pathLines)]
            while let (commit, blob, members) = work.popLast() {
                var remaining = members
                for parentID in commit.parents where !remaining.isEmpty {
                    guard let parent = try parentCommit(parentID),
                        let parentBlob = try git("reading \(path) in commit \(parentID.short)", { try repository.blobID(at: path, inTree: parent.tree) })
                    else { continue }
                    let held: [IDAssignment.DerivedLine]
                    if parentBlob == blob {
                        held = remaining
                    } else {
                        let counts = try lineCounts(parentBlob, path)
                        held = remaining.filter { counts[$0.line[...], default: 0] > $0.copy }
                    }
                    guard !held.isEmpty else { continue }
                    work.append((parent, parentBlob, held))
                    let heldSet = Set(held)
                    remaining.removeAll { heldSet.contains($0) }
                }
                for line in remaining { result[line] = commit.id }
            }
        }
        return result
    }

    /// nil: beyond a shallow clone's history.
    private func parentCommit(_ id: OID) throws(TodoSyncError) -> Commit? {
        do {
            return try git("reading commit \(id.short)") { try repository.commit(id) }
        } catch where error.isBeyondShallowHistory {
            return nil
        }
    }

    /// How many lines of the blob hold each exact byte sequence (line endings excluded, as
    /// `ListLine` splits them).
    private func lineCounts(_ blob: OID, _ path: String) throws(TodoSyncError) -> [ArraySlice<UInt8>: Int] {
        let bytes = try git("reading \(path) (blob \(blob.short))") { try repository.blob(blob) }
        var counts: [ArraySlice<UInt8>: Int] = [:]
        for line in ListLine.split(bytes) { counts[line.content, default: 0] += 1 }
        return counts
    }
}
