/// Durations as people type them on a command line: `500ms`, `3s`, `5m`, `1h`, `1h30m`.
public enum DurationText {
    /// nil: not a duration of this form (a bare number is refused: seconds or minutes?).
    public static func parse(_ text: String) -> Duration? {
        var total: Duration = .zero
        var digits = ""
        var rest = Substring(text.lowercased())
        guard !rest.isEmpty else { return nil }
        while let first = rest.first {
            if first.isASCII, first.isNumber {
                digits.append(first)
                rest = rest.dropFirst()
                continue
            }
            guard let amount = Int64(digits) else { return nil }
            digits = ""
            // `ms` before `m`: the first unit the text starts with is the one meant.
            let unit: (String, Duration)? = [
                ("ms", .milliseconds(1)), ("s", .seconds(1)), ("m", .seconds(60)), ("h", .seconds(3600)),
            ]
            .first { rest.hasPrefix($0.0) }
            guard let (name, scale) = unit else { return nil }
            total += scale * amount
            rest = rest.dropFirst(name.count)
        }
        return digits.isEmpty ? total : nil
    }

    /// `90s` as `1m30s`, `3.5s` as `3500ms`: the form `parse` reads.
    public static func describe(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 != 0 { return "\(milliseconds)ms" }
        var seconds = milliseconds / 1000
        var text = ""
        for (unit, size) in [("h", Int64(3600)), ("m", 60)] where seconds >= size {
            text += "\(seconds / size)\(unit)"
            seconds %= size
        }
        if seconds > 0 || text.isEmpty { text += "\(seconds)s" }
        return text
    }
}
