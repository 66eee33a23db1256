import PropertyBased
import Testing
@testable import TodoModel

@Suite struct CalendarFeedTests {
    /// Folding: every line at most 75 octets, ending in CRLF, no character split; unfolding
    /// (a CRLF and a space removed) gives the line back.
    @Test func foldingKeepsEveryCharacterWhole() async {
        let pieces = ["a", "é", "日本", "📦", "x y", ";", "\\", ",", "ü", "👩‍👩‍👧"]
        await propertyCheck(count: 400, input: Gen.int(in: 0...9).array(of: 0...120)) { picks in
            let value = picks.map { pieces[$0] }.joined()
            var lines = ContentLines()
            lines.add("SUMMARY", CalendarFeed.text(value))
            let bytes = lines.bytes
            #expect(bytes.suffix(2) == [0x0D, 0x0A])
            var physical: [[UInt8]] = []
            var current: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    physical.append(current)
                    current = []
                    index += 2
                } else {
                    current.append(bytes[index])
                    index += 1
                }
            }
            #expect(physical.allSatisfy { $0.count <= 75 })
            #expect(physical.dropFirst().allSatisfy { $0.first == 0x20 && ($0.count < 2 || $0[1] & 0xC0 != 0x80) })
            let unfolded = physical.enumerated().flatMap { $0.offset == 0 ? $0.element : Array($0.element.dropFirst()) }
            #expect(String(decoding: unfolded, as: UTF8.self) == "SUMMARY:" + CalendarFeed.text(value))
        }
    }

    @Test func textIsEscapedAndDatesWritten() {
        #expect(CalendarFeed.text("a, b; c\\d\ne\r") == "a\\, b\\; c\\\\d\\ne")
        #expect(CalendarFeed.date(CalendarDate("2026-01-05")!) == "20260105")
        #expect(CalendarFeed.date(CalendarDate("0987-12-31")!) == "09871231")
        #expect(CalendarFeed.dateTime(1_780_000_000) == "20260528T202640Z")
        #expect(CalendarFeed.dateTime(0) == "19700101T000000Z")
    }
}
