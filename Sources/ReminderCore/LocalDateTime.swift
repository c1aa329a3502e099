/// A broken-down local date and time, as a `LocalCalendar` sees a timestamp.
public struct LocalDateTime: Equatable, Sendable, CustomStringConvertible {
    /// The year, e.g. 2025.
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int
    /// The day of the week, 1 = Monday … 7 = Sunday (ISO 8601).
    public var weekday: Int
    /// The hour, 0–23.
    public var hour: Int
    /// The minute, 0–59.
    public var minute: Int
    /// The second, 0–60 (60 only for a leap second a system may report).
    public var second: Int

    /// A local date and time from its parts.
    public init(year: Int, month: Int, day: Int, weekday: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.weekday = weekday
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// True from Monday to Friday.
    public var isWeekday: Bool { weekday <= 5 }

    /// `YYYY-MM-DD HH:MM:SS`, for logs and tests.
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
    }
}
