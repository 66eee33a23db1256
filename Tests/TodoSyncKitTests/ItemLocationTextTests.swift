import Testing
import TestSupport
import TodoModel

@testable import TodoSyncKit

/// The text history gives git's pickaxe for an item (`ItemTracer.locationText`), against the
/// reference that decides a step (`ListSet.changes`): wherever two versions differ in what
/// they say of the item, the count of the newer version's text differs between them, so
/// `git log -S` stops at that commit.
@Suite struct ItemLocationTextTests {
    static let id = "0F6C0000-0000-4000-8000-000000000001"

    /// A list around the traced item: siblings, a parent, notes, a heading.
    static func lines(_ random: inout SeededGenerator) -> [String] {
        var lines = ["# Things", ""]
        for n in 0..<6 {
            lines.append("- [ ] Item \(n) <!-- id: 0F6C0000-0000-4000-8000-00000000010\(n) -->")
            if random.next() % 3 == 0 { lines.append("  A note of item \(n).") }
            if random.next() % 3 == 0 {
                lines.append("  - [ ] Child of \(n) <!-- id: 0F6C0000-0000-4000-8000-00000000020\(n) -->")
            }
        }
        let at = 2 + Int(random.next() % UInt64(lines.count - 2))
        let indent = lines[at].hasPrefix("  ") ? "  " : ""
        lines.insert(indent + "- [ ] Passport 📅 2026-12-01 <!-- id: \(id) -->", at: at)
        return lines
    }

    static func count(_ needle: [UInt8], in bytes: [UInt8]) -> Int {
        guard !needle.isEmpty, needle.count <= bytes.count else { return 0 }
        return (0...(bytes.count - needle.count)).filter { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }.count
    }

    @Test func everyChangeOfTheItemChangesTheCountOfItsText() throws {
        var random = SeededGenerator(seed: 50)
        let needles = [Array(Self.id.utf8), Array(Self.id.lowercased().utf8)]
        var changed = 0
        for round in 0..<600 {
            let old = Self.lines(&random)
            var new = old
            let at = try #require(new.firstIndex { $0.contains(Self.id) })
            let edit = Int(random.next() % 12)
            switch edit {
            case 0: new[at] = new[at].replacingOccurrences(of: "Passport", with: "Renew passport")
            case 1: new[at] = new[at].replacingOccurrences(of: "- [ ]", with: "- [x]")
            case 2: new[at] = new[at].replacingOccurrences(of: "2026-12-01", with: "2026-12-24")
            case 3: new.insert(new[at].prefix { $0 == " " } + "  Bring two photos.", at: at + 1)
            case 4:
                new.insert(
                    new[at].prefix { $0 == " " } + "  - [ ] Photos <!-- id: 0F6C0000-0000-4000-8000-000000000301 -->",
                    at: at + 1)
            case 5: new[at] = "  " + new[at]
            case 6 where at > 2:
                let line = new.remove(at: at)
                new.insert(line, at: 2 + Int(random.next() % UInt64(new.count - 2)))
            case 7 where at > 2: new.remove(at: at - 1)
            case 8: new.insert("- [ ] New <!-- id: 0F6C0000-0000-4000-8000-000000000401 -->", at: at)
            case 9 where at + 1 < new.count: new[at + 1] = new[at + 1].replacingOccurrences(of: "Item", with: "Thing")
            case 10 where at > 2: new[at - 1] = new[at - 1].replacingOccurrences(of: "Item", with: "Thing")
            default: new.append("- [ ] Last <!-- id: 0F6C0000-0000-4000-8000-000000000501 -->")
            }
            let oldBytes = Array((old.joined(separator: "\n") + "\n").utf8),
                newBytes = Array((new.joined(separator: "\n") + "\n").utf8)
            let before = ListSet([ListDocument(path: "TODO.md", bytes: oldBytes)])
            let after = ListSet([ListDocument(path: "TODO.md", bytes: newBytes)])
            let changes = ListSet.changes(from: before, to: after).filter { $0.item.id.description == Self.id }
            guard !changes.isEmpty else { continue }
            changed += 1
            let text = try #require(ItemTracer.locationText(of: needles, in: newBytes))
            #expect(
                Self.count(text, in: newBytes) != Self.count(text, in: oldBytes),
                "round \(round), edit \(edit): \(changes.map(\.phrase))\n--- old\n\(old.joined(separator: "\n"))\n--- new\n\(new.joined(separator: "\n"))"
            )
        }
        #expect(changed > 300)
    }

    @Test func aNeighboursTitleLeavesTheTextAsItWas() throws {
        let needles = [Array(Self.id.utf8)]
        let old =
            "- [ ] Before <!-- id: 0F6C0000-0000-4000-8000-000000000101 -->\n- [ ] Passport <!-- id: \(Self.id) -->\n- [ ] After <!-- id: 0F6C0000-0000-4000-8000-000000000102 -->\n"
        let new = old.replacingOccurrences(of: "Before", with: "Before 📅 2026-12-01").replacingOccurrences(
            of: "- [ ] After", with: "- [x] After today")
        #expect(
            ItemTracer.locationText(of: needles, in: Array(old.utf8))
                == ItemTracer.locationText(of: needles, in: Array(new.utf8)))
    }
}
