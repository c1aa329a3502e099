/// Durations as people write them: `90`, `90s`, `5m`, `1h30m`, `1h 5m 10s`.
public enum DurationText {
    /// Seconds in `text`, or nil when it is not a duration (or overflows a day by far).
    public static func seconds(_ text: String) -> UInt32? {
        let s = text.trimmingSpaces.lowercased()
        guard !s.isEmpty else { return nil }
        if let plain = UInt32(s) { return plain }
        var total: UInt64 = 0
        var digits = ""
        var sawUnit = false
        for ch in s {
            if ch.isASCII, ch.isNumber {
                digits.append(ch)
            } else if ch == " " {
                continue
            } else {
                guard let n = UInt64(digits) else { return nil }
                let unit: UInt64
                switch ch {
                case "h": unit = 3600
                case "m": unit = 60
                case "s": unit = 1
                default: return nil
                }
                total += n * unit
                guard total <= UInt64(UInt32.max) else { return nil }
                digits = ""
                sawUnit = true
            }
        }
        guard sawUnit, digits.isEmpty else { return nil }
        return UInt32(total)
    }

    /// A short human form: `45s`, `5m`, `1h30m`, `20m10s`.
    public static func format(_ seconds: UInt32) -> String {
        if seconds == 0 { return "0s" }
        let h = seconds / 3600, m = (seconds % 3600) / 60, s = seconds % 60
        var out = ""
        if h > 0 { out += "\(h)h" }
        if m > 0 { out += "\(m)m" }
        if s > 0 { out += "\(s)s" }
        return out
    }
}
