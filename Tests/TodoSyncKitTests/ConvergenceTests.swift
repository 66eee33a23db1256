import Foundation
import Testing
import TestSupport

/// Five clones make random edits and sync in random order; in the end every clone holds the
/// same files, every item added is there once, every check made is kept, and git finds the
/// repositories sound.
@Suite struct ConvergenceTests {
    @Test(arguments: [UInt64(7), 2026])
    func fiveClonesSyncingInRandomOrderConverge(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let remote = try Remote()
        let first = try remote.clone(seeding: [
            "TODO.md": withIDs("# Home\n- [ ] Milk ^milk\n- [ ] Bread ^bread\n\n# Work\n- [ ] Report ^report\n")
        ])
        var clones = [first]
        for _ in 1..<5 { clones.append(try remote.clone()) }
        var added: [String] = []
        var checked: Set<String> = []
        var proseLines: [String] = []

        for round in 0..<4 {
            for index in clones.indices.shuffled(using: &random) {
                let clone = clones[index]
                var text = try clone.read("TODO.md")
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    let title = "Task \(round)-\(index)"
                    text += "- [ ] \(title)\n"
                    added.append(title)
                case 1:
                    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                    let open = lines.indices.filter { lines[$0].hasPrefix("- [ ] ") }
                    if let pick = open.randomElement(using: &random) {
                        let title = lines[pick].dropFirst(6).components(separatedBy: " <!--")[0]
                        checked.insert(title)
                        text = text.replacingOccurrences(of: "- [ ] \(title) <!--", with: "- [x] \(title) <!--")
                    }
                default:
                    let line = "Edited by \(index) in round \(round)."
                    proseLines.append(line)
                    text = text.replacingOccurrences(of: "# Work\n", with: "# Work\n\(line)\n")
                }
                try clone.write("TODO.md", text)
                try clone.sync()
            }
        }
        // Two quiet rounds bring everyone to the last state.
        for _ in 0..<2 { for clone in clones { try clone.sync() } }

        let final = try first.read("TODO.md")
        for clone in clones {
            #expect(try clone.read("TODO.md") == final)
            #expect(clone.head == first.head)
            try clone.expectCleanAndSound()
        }
        for title in added {
            #expect(
                final.components(separatedBy: "- [ ] \(title) <!--").count
                    + final.components(separatedBy: "- [x] \(title) <!--").count == 3)
        }
        for line in proseLines { #expect(final.components(separatedBy: line + "\n").count == 2) }
        #expect(added.count + checked.count + proseLines.count > 10)
        for title in checked { #expect(final.contains("- [x] \(title) <!--")) }
        let ids = try first.ids(in: "TODO.md")
        #expect(Set(ids).count == ids.count)
        try git("fsck", "--strict", in: remote.path)
    }
}
