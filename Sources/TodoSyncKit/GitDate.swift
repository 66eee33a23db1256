#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A date as `GIT_AUTHOR_DATE` and `GIT_COMMITTER_DATE` give it, in the forms git documents
/// (git-commit(1), "DATE FORMATS"): git's raw `@1700000000 +0100` (or without the `@`), ISO 8601
/// `2005-04-07T22:13:13+02:00` (a space for the `T`, `+0200`, `Z`, or no zone: local time), and
/// RFC 2822 `Thu, 07 Apr 2005 22:13:13 +0200`. git's looser forms ("yesterday") are not read.
struct GitDate: Equatable {
    /// Seconds since 1970.
    var time: Int64
    /// Minutes east of UTC.
    var offsetMinutes: Int32

    init(time: Int64, offsetMinutes: Int32) {
        self.time = time
        self.offsetMinutes = offsetMinutes
    }

    init?(_ text: String) {
        let trimmed = text.trimmingSpaces
        if let raw = Self.raw(trimmed) ?? Self.iso8601(trimmed) ?? Self.rfc2822(trimmed) {
            self = raw
        } else {
            return nil
        }
    }

    private static func raw(_ text: String) -> GitDate? {
        let parts = text.split(separator: " ")
        guard (1...2).contains(parts.count) else { return nil }
        let seconds = parts[0].hasPrefix("@") ? parts[0].dropFirst() : parts[0]
        guard let time = Int64(seconds), parts[0].hasPrefix("@") || parts.count == 2 else { return nil }
        guard parts.count == 2 else { return GitDate(time: time, offsetMinutes: 0) }
        guard let offset = zone(String(parts[1])) else { return nil }
        return GitDate(time: time, offsetMinutes: offset)
    }

    /// `YYYY-MM-DD[T ]HH:MM[:SS[.fraction]][ ][zone]`.
    private static func iso8601(_ text: String) -> GitDate? {
        let characters = Array(text)
        guard characters.count >= 16, characters[4] == "-", characters[7] == "-",
            characters[10] == "T" || characters[10] == " ",
            characters[13] == ":",
            let year = Int(String(characters[0..<4])), let month = Int(String(characters[5..<7])),
            let day = Int(String(characters[8..<10])),
            let hour = Int(String(characters[11..<13])), let minute = Int(String(characters[14..<16]))
        else { return nil }
        var index = 16, second = 0
        if index < characters.count, characters[index] == ":" {
            guard characters.count >= 19, let value = Int(String(characters[17..<19])) else { return nil }
            second = value
            index = 19
            if index < characters.count, characters[index] == "." || characters[index] == "," {
                index += 1
                while index < characters.count, characters[index].isNumber { index += 1 }
            }
        }
        let rest = String(characters[index...]).trimmingSpaces
        let offset: Int32?
        if rest.isEmpty { offset = nil } else if let zone = zone(rest) { offset = zone } else { return nil }
        return date(year, month, day, hour, minute, second, offset: offset)
    }

    /// `[Day, ]DD Mon YYYY HH:MM[:SS] zone`.
    private static func rfc2822(_ text: String) -> GitDate? {
        var parts = text.split(separator: " ").map(String.init)
        if let first = parts.first, first.hasSuffix(",") { parts.removeFirst() }
        guard parts.count == 5, let day = Int(parts[0]), let year = Int(parts[2]),
            let month = months.firstIndex(of: parts[1].lowercased().prefix(3).description).map({ $0 + 1 }),
            let offset = zone(parts[4])
        else { return nil }
        let clock = parts[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 2 || clock.count == 3 else { return nil }
        return date(year, month, day, clock[0], clock[1], clock.count == 3 ? clock[2] : 0, offset: offset)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `+0200`, `-05:30`, `+02`, `Z`, `UTC`, `GMT`: minutes east of UTC.
    private static func zone(_ text: String) -> Int32? {
        if ["Z", "UTC", "GMT"].contains(text.uppercased()) { return 0 }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard digits.allSatisfy(\.isNumber), digits.count == 2 || digits.count == 4, let value = Int32(digits) else {
            return nil
        }
        let minutes = digits.count == 2 ? value * 60 : (value / 100) * 60 + value % 100
        return sign == "-" ? -minutes : minutes
    }

    /// The instant of a wall-clock time at `offset` (nil: this machine's local time then).
    private static func date(
        _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, offset: Int32?
    ) -> GitDate? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        if let offset {
            return GitDate(time: Int64(timegm(&fields)) - Int64(offset) * 60, offsetMinutes: offset)
        }
        fields.tm_isdst = -1
        let time = mktime(&fields)
        return GitDate(time: Int64(time), offsetMinutes: Int32(fields.tm_gmtoff / 60))
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
