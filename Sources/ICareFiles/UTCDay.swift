import ReminderCore

/// A calendar day in UTC, named `YYYY-MM-DD`: the unit of the history files.
///
/// Days count from 1970-01-01 (day 0) and stop at 9999-12-31, so every name
/// has exactly ten characters and sorts like its date.
struct UTCDay: Comparable, Hashable, Sendable {
    /// Days since 1970-01-01.
    let number: Int64

    static let microsecondsPerDay: Int64 = 86_400 * Micro.second
    /// The first day a history file can have: 1970-01-01.
    static let first = UTCDay(number: 0)
    /// The last day a history file can have: 9999-12-31.
    static let last = UTCDay(number: daysFromCivil(year: 9999, month: 12, day: 31))

    init(number: Int64) { self.number = number }

    /// The day that contains `time`; nil before 1970 or after 9999.
    init?(containing time: Timestamp) {
        let number = time >= 0 ? time / Self.microsecondsPerDay : -1
        guard number <= Self.last.number, number >= 0 else { return nil }
        self.number = number
    }

    /// The day named `YYYY-MM-DD`; nil for anything else (including `2024-02-30`).
    init?(name: String) {
        let bytes = Array(name.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
              let day = Self.number(bytes[8..<10]),
              (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let number = Self.daysFromCivil(year: year, month: month, day: day)
        let check = Self.civilFromDays(number)
        guard check.year == year, check.month == month, check.day == day else { return nil }
        self.number = number
    }

    /// `YYYY-MM-DD`.
    var name: String {
        let (year, month, day) = Self.civilFromDays(number)
        return Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2)
    }

    /// The first microsecond of the day.
    var start: Timestamp { number * Self.microsecondsPerDay }
    /// The first microsecond after the day.
    var end: Timestamp { (number + 1) * Self.microsecondsPerDay }

    static func < (a: UTCDay, b: UTCDay) -> Bool { a.number < b.number }

    private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    // The proleptic Gregorian calendar in 400-year eras of 146097 days,
    // with years starting on 1 March so the leap day falls at the end.
    // Only non-negative years are used here.

    /// Days since 1970-01-01 of a Gregorian date (ReminderCore's `CivilDay`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        CivilDay(year: Int(year), month: Int(month), day: Int(day)).number
    }

    /// The Gregorian date `number` days after 1970-01-01.
    static func civilFromDays(_ number: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let d = CivilDay(number: number).date
        return (Int64(d.year), Int64(d.month), Int64(d.day))
    }
}
