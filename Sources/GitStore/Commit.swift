/// A commit, copied out of libgit2 at once.
public struct Commit: Hashable, Sendable {
    public var id: OID
    public var tree: OID
    public var parents: [OID]
    public var message: String
    public var author: Signature
    public var committer: Signature

    public init(id: OID, tree: OID, parents: [OID], message: String, author: Signature, committer: Signature) {
        (self.id, self.tree, self.parents, self.message, self.author, self.committer) = (
            id, tree, parents, message, author, committer
        )
    }

    /// The first line of the message.
    public var summary: String {
        String(message.prefix { $0 != "\n" })
    }
}

/// A file in a tree: its path from the root, its blob and its mode.
public struct TreeFile: Hashable, Sendable {
    public var path: String
    public var blob: OID
    public var mode: UInt32

    public init(path: String, blob: OID, mode: UInt32) {
        self.path = path
        self.blob = blob
        self.mode = mode
    }
}

/// What a new commit does to one path of its parent's tree.
public enum TreeChange: Hashable, Sendable {
    case write(blob: OID, mode: UInt32)
    case delete

    /// A regular, non-executable file.
    public static let regularFileMode: UInt32 = 0o100644
}
