import GitStore

/// What a write under way is doing, written before the first working file changes and removed
/// when git's index is in step: if the process stops in between, the next run reads it and
/// finishes the write (moves the branch, updates git's index) or, where the files moved on,
/// leaves them to be committed as they are.
struct WriteJournal: Equatable {
    var branch: String
    /// The commit the branch pointed at before (nil: it had none).
    var expected: OID?
    /// The commit the branch moves to.
    var target: OID
    /// Each list file written: the blob it now holds (nil: removed).
    var files: [String: OID?]
    /// Files outside a sparse checkout that the commit changes: git's index takes them from the
    /// target's tree, the working tree does not.
    var outsideSparseCheckout: [String] = []
    /// Files the commit drops from git's index while the working file stays (untracked).
    var untracked: [String] = []

    static let format = "todosync journal 1"

    /// One record per line; nil if a path would need a line break.
    func encoded() -> [UInt8]? {
        var lines = [
            Self.format, "branch " + branch, "expected " + (expected?.description ?? "none"),
            "target " + target.description,
        ]
        lines += files.sorted { $0.key < $1.key }.map { "file \($0.value?.description ?? "none") \($0.key)" }
        lines += outsideSparseCheckout.sorted().map { "sparse " + $0 }
        lines += untracked.sorted().map { "untrack " + $0 }
        guard !lines.contains(where: { $0.contains("\n") }) else { return nil }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    init(
        branch: String, expected: OID?, target: OID, files: [String: OID?], outsideSparseCheckout: [String] = [],
        untracked: [String] = []
    ) {
        self.branch = branch
        self.expected = expected
        self.target = target
        self.files = files
        self.outsideSparseCheckout = outsideSparseCheckout
        self.untracked = untracked
    }

    init?(decoding bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 5, lines[0] == Self.format, lines.last == "",
            lines[1].hasPrefix("branch "), lines[2].hasPrefix("expected "), lines[3].hasPrefix("target "),
            let target = OID(hex: String(lines[3].dropFirst(7)))
        else { return nil }
        let expectedText = String(lines[2].dropFirst(9))
        let expected = OID(hex: expectedText)
        guard expected != nil || expectedText == "none" else { return nil }
        var files: [String: OID?] = [:]
        var sparse: [String] = [], untracked: [String] = []
        for line in lines[4...].dropLast() {
            if line.hasPrefix("untrack "), line.count > 8 {
                untracked.append(String(line.dropFirst(8)))
                continue
            }
            if line.hasPrefix("sparse "), line.count > 7 {
                sparse.append(String(line.dropFirst(7)))
                continue
            }
            guard line.hasPrefix("file ") else { return nil }
            let rest = line.dropFirst(5)
            let blobText = String(rest.prefix { $0 != " " })
            let path = String(rest.dropFirst(blobText.count + 1))
            guard !path.isEmpty else { return nil }
            if blobText == "none" {
                files[path] = .some(nil)
            } else {
                guard let blob = OID(hex: blobText) else { return nil }
                files[path] = blob
            }
        }
        self.init(
            branch: String(lines[1].dropFirst(7)), expected: expected, target: target, files: files,
            outsideSparseCheckout: sparse, untracked: untracked)
    }
}
