import ReminderCore
import Localization

/// A day of the proleptic Gregorian calendar, without a time zone:
/// `2024-11-29`. Day arithmetic is pure (no clock, no time zone).
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or nil (month 1–12, day within the month).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (four, two and two digits).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSinceEpoch: Int { Int(CivilDay(year: year, month: month, day: day).number) }

    /// The date `daysSinceEpoch` days after 1970-01-01.
    public init(daysSinceEpoch: Int) {
        (year, month, day) = CivilDay(number: Int64(daysSinceEpoch)).date
    }

    /// The date `n` days later (earlier when negative).
    public func adding(days n: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + n) }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 4) % 7 }

    /// With its weekday, as the person's locale writes dates: `Mon 2024-12-02`
    /// in C, `ma 02-12-2024` in nl_NL.
    public var localized: String { LocaleTime.date(year: year, month: month, day: day, weekday: weekday) }

    public var description: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// `n` as decimal, left-padded with zeros to `width`.
package func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n < 0 ? -n : n)
    return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
}
