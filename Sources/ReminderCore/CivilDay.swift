/// A day of the proleptic Gregorian calendar, counted from 1970-01-01, so
/// that "the next day" and "the weekday" need no calendar service.
public struct CivilDay: Equatable, Comparable, Hashable, Sendable {
    /// Days since 1970-01-01 (negative before).
    public let number: Int64

    public init(number: Int64) { self.number = number }

    /// The day of a year, month (1–12) and day of month.
    public init(year: Int, month: Int, day: Int) {
        // Count years from March so that the leap day falls at a year's end.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = Int64((month + 9) % 12)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        number = era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month (1–12) and day of month.
    public var date: (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// 1 = Monday … 7 = Sunday; 1970-01-01 was a Thursday.
    public var weekday: Int { Int(((number % 7) + 7 + 3) % 7) + 1 }

    /// The day `n` days later (earlier when negative).
    public func adding(_ n: Int) -> CivilDay { CivilDay(number: number + Int64(n)) }

    public static func < (a: CivilDay, b: CivilDay) -> Bool { a.number < b.number }
}
