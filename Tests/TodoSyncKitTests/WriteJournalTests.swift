import GitStore
import Testing
@testable import TodoSyncKit

/// The journal a write leaves while it is under way reads back as it was written, and a
/// damaged one reads as none (the next run then commits the files as edits).
@Suite struct WriteJournalTests {
    static let commit = OID(hex: "0123456789abcdef0123456789abcdef01234567")!
    static let blob = OID(hex: "89abcdef0123456789abcdef0123456789abcdef")!

    @Test func aJournalReadsBackAsWritten() throws {
        let journals = [
            WriteJournal(branch: "refs/heads/main", expected: nil, target: Self.commit, files: [:]),
            WriteJournal(
                branch: "refs/heads/main", expected: Self.blob, target: Self.commit,
                files: ["TODO.md": Self.blob, "old list.md": OID?.none] as [String: OID?],
                outsideSparseCheckout: ["work/TODO.md", "z/b.md"]),
        ]
        for journal in journals {
            let bytes = try #require(journal.encoded())
            #expect(WriteJournal(decoding: bytes) == journal)
        }
    }

    @Test func aDamagedJournalReadsAsNone() throws {
        let bytes = try #require(
            WriteJournal(branch: "refs/heads/main", expected: nil, target: Self.commit, files: ["TODO.md": Self.blob])
                .encoded())
        #expect(WriteJournal(decoding: Array(bytes.dropLast(10))) == nil)
        #expect(WriteJournal(decoding: Array("todosync journal 2\n".utf8) + bytes.drop { $0 != 10 }.dropFirst()) == nil)
        #expect(WriteJournal(decoding: []) == nil)
    }

    @Test func aPathWithALineBreakCannotBeJournalled() {
        #expect(
            WriteJournal(branch: "refs/heads/main", expected: nil, target: Self.commit, files: ["a\nb.md": Self.blob])
                .encoded() == nil)
    }
}
