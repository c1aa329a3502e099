import Glibc
import ReminderCore

/// A wall-clock instant broken down in the local time zone.
public struct LocalTime: Equatable, Sendable {
    public let date: LocalDate
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Seconds east of UTC in effect at that instant.
    public let utcOffset: Int
}

/// Converts between `Timestamp`s (µs since the epoch) and local dates and
/// times: the system's zone (`localtime_r`/`mktime`, honouring `TZ`), or a
/// fixed offset so tests are exact whatever zone the machine is in.
public struct LocalZone: Sendable {
    /// nil: the system zone; else seconds east of UTC.
    package let fixedOffset: Int?

    /// The process's local time zone.
    public static let system = LocalZone(fixedOffset: nil)
    /// A zone with a constant offset from UTC (seconds east).
    public static func fixed(offset: Int) -> LocalZone { LocalZone(fixedOffset: offset) }

    /// The local breakdown of `t` (localtime_r).
    public func local(_ t: Timestamp) -> LocalTime {
        let seconds = floorDiv(t, Micro.second)
        if let offset = fixedOffset {
            let local = seconds + Int64(offset)
            let days = floorDiv(local, 86_400)
            let rest = Int(local - days * 86_400)
            return LocalTime(date: LocalDate(daysSinceEpoch: Int(days)), hour: rest / 3600, minute: rest % 3600 / 60,
                             second: rest % 60, utcOffset: offset)
        }
        var tt = time_t(seconds)
        var parts = tm()
        localtime_r(&tt, &parts)
        let date = LocalDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? LocalDate(daysSinceEpoch: 0)
        return LocalTime(date: date, hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
                         utcOffset: parts.tm_gmtoff)
    }

    /// The instant of a local date and time of day, in µs (mktime with the
    /// zone deciding about daylight saving time).
    public func instant(_ date: LocalDate, hour: Int = 0, minute: Int = 0) -> Timestamp {
        if let offset = fixedOffset {
            let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60) - Int64(offset)
            return seconds * Micro.second
        }
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month - 1)
        parts.tm_mday = Int32(date.day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_isdst = -1
        return Int64(mktime(&parts)) * Micro.second
    }

    /// The start of the local day `date`.
    public func startOfDay(_ date: LocalDate) -> Timestamp { instant(date) }

    /// The next time the local clock shows `time` strictly after `now`.
    public func next(_ time: TimeOfDay, after now: Timestamp) -> Timestamp {
        let today = local(now).date
        let candidate = instant(today, hour: time.hour, minute: time.minute)
        return candidate > now ? candidate : instant(today.adding(days: 1), hour: time.hour, minute: time.minute)
    }
}

package func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
