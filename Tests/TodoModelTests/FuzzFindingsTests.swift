import Testing
@testable import TodoModel

/// Inputs the fuzzers found (scripts/fuzz.sh, docs/RELIABILITY.md), kept as tests.
@Suite struct FuzzFindingsTests {
    /// id-assignment: a list whose item holds the start of an id comment cut short
    /// (`<!-- id: 0F6C0000-0000-4000-8` and no end): the comment is todosync's, written whole
    /// again with a new id; every other byte stays. (The law was too strict: it now leaves
    /// id comments out.)
    @Test func anIDCommentCutShortIsWrittenWholeAndEveryOtherByteStays() {
        let before = Array("--\ntitle: x\n---\n# Ho first.\n- [ ] Reply tome\r\n".utf8)
        let after = Array(
            "- [ ] Buy milk ⏫ 📅 2026-11-20 <!-- id: 0F6C0000-0000-4000-8\n---\n\n# Work\n\nThings for the  Oat ✅ 2026-11-19\r\n    A note.\r\n```\n- [ ]\u{13}\u{13}d\n"
                .utf8)
        let base = IDAssignment.resolveBase(ListSet([ListDocument(path: "TODO.md", bytes: before)]), commit: "base")
        var generator = SystemRandomNumberGenerator()
        let assigned = IDAssignment.assign(
            ListSet([ListDocument(path: "TODO.md", bytes: after)]), base: base, using: &generator
        ).lists
        let written = assigned["TODO.md"]!.render()
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("- [ ] Buy milk ⏫ 📅 2026-11-20 <!-- id: ") && text.contains(" -->\n---\n"), "\(text)")
        let kept = Self.strippingIDComments(after), now = Self.strippingIDComments(written)
        var index = 0
        for byte in now where index < kept.count && kept[index] == byte { index += 1 }
        #expect(index == kept.count, "\(text)")
    }

    /// id-assignment: the id comment goes before an Obsidian Tasks field at the end of the
    /// line (`🔁 4000`, a rule todosync cannot read): the field's bytes stay, after it.
    @Test func anIDCommentGoesBeforeTrailingFields() {
        let base = IDAssignment.resolveBase(
            ListSet([ListDocument(path: "TODO.md", bytes: Array("-# Dh".utf8) + [0x88])]), commit: "base")
        var generator = SystemRandomNumberGenerator()
        let after = Array("mle:oted\n- [ ] Water 🔁 4000".utf8)
        let written = IDAssignment.assign(
            ListSet([ListDocument(path: "TODO.md", bytes: after)]), base: base, using: &generator
        ).lists["TODO.md"]!.render()
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("mle:oted\n- [ ] Water <!-- id: ") && text.hasSuffix(" --> 🔁 4000"), "\(text)")
        #expect(Self.strippingIDComments(written) == Array("mle:oted\n- [ ] Water  🔁 4000".utf8))
    }

    /// As the fuzz target leaves them out (Tests/Fuzz/Sources/FuzzDriver).
    static func strippingIDComments(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        return Array(text.replacing(/<!-*[ \t]*[iI][dD][ \t]*:([^\r\n]*?-->|[^\r\n]*)/, with: "").utf8)
    }
}
