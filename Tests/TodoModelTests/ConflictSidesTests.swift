import PropertyBased
import TestSupport
import Testing
@testable import TodoModel

/// The two sides of a file git's line merge left with conflict markers.
@Suite struct ConflictSidesTests {
    private func sides(_ text: String, markerSize: Int = 7) throws -> (ours: String, theirs: String) {
        let sides = try ConflictSides(splitting: Array(text.utf8), markerSize: markerSize)
        return (String(decoding: sides.ours, as: UTF8.self), String(decoding: sides.theirs, as: UTF8.self))
    }

    @Test func takesEachConflictEachWay() throws {
        let text =
            "# Shop\n<<<<<<< HEAD\n- [ ] Whole milk\n=======\n- [ ] Oat milk\n>>>>>>> 313e87b\n- [x] Bread\n<<<<<<< HEAD\n=======\n- [ ] Eggs\n>>>>>>> 313e87b\n"
        let result = try sides(text)
        #expect(result.ours == "# Shop\n- [ ] Whole milk\n- [x] Bread\n")
        #expect(result.theirs == "# Shop\n- [ ] Oat milk\n- [x] Bread\n- [ ] Eggs\n")
    }

    @Test func leavesOutTheBaseOfDiff3AndKeepsLineEndings() throws {
        let text = "<<<<<<< ours\r\n- [ ] A\r\n||||||| base\r\n- [ ] a\r\n=======\r\n- [ ] A.\r\n>>>>>>> theirs\r\nend"
        let result = try sides(text)
        #expect(result.ours == "- [ ] A\r\nend")
        #expect(result.theirs == "- [ ] A.\r\nend")
    }

    @Test func markersAreTheirSizeAndNothingElse() throws {
        // A longer run, a shorter one, and one followed by text are lines, not markers.
        let text =
            "<<<<<<<<< ours\n<<<<<<< not a marker\n========\n- [ ] Mine\n=========\n- [ ] Theirs\n>>>>>>>>> theirs\n"
        let result = try sides(text, markerSize: 9)
        #expect(result.ours == "<<<<<<< not a marker\n========\n- [ ] Mine\n")
        #expect(result.theirs == "- [ ] Theirs\n")
        // Closing markers with no opening one are lines too.
        let stray = "=======\n- [ ] x\n>>>>>>> y\n"
        #expect(try sides(stray) == (stray, stray))
    }

    @Test func aFileWithoutConflictsIsBothSides() throws {
        let result = try sides("- [ ] Milk\n")
        #expect(result.ours == "- [ ] Milk\n" && result.theirs == "- [ ] Milk\n")
    }

    @Test func anUnclosedConflictIsRefusedNamingItsLine() {
        #expect(throws: ConflictSides.Failure.unclosed(line: 2)) {
            _ = try ConflictSides(splitting: Array("x\n<<<<<<< HEAD\n- [ ] a\n=======\n".utf8))
        }
    }

    /// Against the file put together from its parts: a marked file of shared runs and
    /// conflicts (with and without a base section) splits into the two files it joins.
    @Test func splitsWhatWasJoined() async {
        let pool = [
            "- [ ] Milk\n", "- [x] Bread\n", "  a note\n", "# Heading\n", "\n", "text <<<<<<< inside\n",
            "- [ ] Eggs\r\n",
        ]
        await propertyCheck(count: 500, input: Gen.int(in: 0...1_000_000)) { seed in
            var random = SeededGenerator(seed: UInt64(seed))
            func lines() -> [String] {
                (0..<Int.random(in: 0...3, using: &random)).map { _ in pool.randomElement(using: &random)! }
            }
            var (marked, ours, theirs) = ("", "", "")
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                let shared = lines().joined()
                marked += shared
                ours += shared
                theirs += shared
                guard Bool.random(using: &random) else { continue }
                let (mine, base, other) = (lines().joined(), lines().joined(), lines().joined())
                marked +=
                    "<<<<<<< HEAD\n" + mine + (Bool.random(using: &random) ? "||||||| base\n" + base : "") + "=======\n"
                    + other + ">>>>>>> other\n"
                ours += mine
                theirs += other
            }
            let split = try? ConflictSides(splitting: Array(marked.utf8))
            #expect(split?.ours == Array(ours.utf8))
            #expect(split?.theirs == Array(theirs.utf8))
        }
    }
}
