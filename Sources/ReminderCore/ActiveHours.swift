/// A local time of day, minutes since midnight.
public struct TimeOfDay: Equatable, Comparable, Sendable, CustomStringConvertible {
    public let minutes: Int
    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        minutes = hour * 60 + minute
    }
    /// Parses `HH:MM` (24-hour, two digits each).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }
    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }
    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }
    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutes < b.minutes }
}

/// The local hours in which reminders go out, `HH:MM-HH:MM`; an end before
/// the start spans midnight (22:00-06:00). Start and end equal is rejected.
public struct ActiveHours: Equatable, Sendable, CustomStringConvertible {
    public let start: TimeOfDay
    public let end: TimeOfDay

    public init?(start: TimeOfDay, end: TimeOfDay) {
        guard start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// Parses `HH:MM-HH:MM`.
    public init?(_ text: String) {
        guard let (s, e) = Self.times(text) else { return nil }
        self.init(start: s, end: e)
    }

    /// Whether `text` is well-formed but starts and ends at the same time
    /// (refused: it would mean both never and always).
    public static func startEqualsEnd(_ text: String) -> Bool {
        guard let (s, e) = times(text) else { return false }
        return s == e
    }

    private static func times(_ text: String) -> (TimeOfDay, TimeOfDay)? {
        let parts = text.trimmingSpaces.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let s = TimeOfDay(String(parts[0]).trimmingSpaces),
              let e = TimeOfDay(String(parts[1]).trimmingSpaces) else { return nil }
        return (s, e)
    }

    /// True when the span crosses midnight.
    public var spansMidnight: Bool { end < start }

    /// Whether a local time of day lies inside the span (start inclusive, end exclusive).
    public func contains(_ t: TimeOfDay) -> Bool {
        spansMidnight ? (t >= start || t < end) : (t >= start && t < end)
    }

    public var description: String { "\(start)-\(end)" }
}
