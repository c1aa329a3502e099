import Glibc

/// The machine's local calendar through the C library (`localtime_r`,
/// `tzset`), honouring `TZ` and `/etc/localtime`. The only file of
/// ReminderCore that touches the system.
///
/// The zone is read once (`tzset` in `init`); after a time-zone change call
/// `reloadTimeZone()` and then hand the engine `.clockChanged`. Reading it
/// once keeps each look-up free of system calls.
public struct SystemCalendar: LocalCalendar {
    /// The calendar of the process's time zone (reads it with `tzset`).
    public init() {
        tzset()
    }

    /// Re-reads `TZ` and `/etc/localtime` (`tzset`) after the zone changed.
    public static func reloadTimeZone() {
        tzset()
    }

    /// The local date and time at `t` (`localtime_r`).
    public func local(_ t: Timestamp) -> LocalDateTime {
        let tm = brokenDown(second: t.floorDivided(by: Micro.second))
        return LocalDateTime(year: Int(tm.tm_year) + 1900, month: Int(tm.tm_mon) + 1, day: Int(tm.tm_mday),
                             weekday: tm.tm_wday == 0 ? 7 : Int(tm.tm_wday),
                             hour: Int(tm.tm_hour), minute: Int(tm.tm_min), second: Int(tm.tm_sec))
    }

    /// The instant a local date shows `time`, from the zone's UTC offsets
    /// (`tm_gmtoff` of `localtime_r`) rather than `mktime`, whose answer in a
    /// gap is not the first valid instant.
    public func timestamp(year: Int, month: Int, day: Int, time: TimeOfDay) -> Timestamp {
        let wall = CivilDay(year: year, month: month, day: day).number * 86_400 + Int64(time.minutes) * 60
        let utc = LocalTimeResolver.resolve(localSeconds: wall) { Int64(brokenDown(second: $0).tm_gmtoff) }
        return utc * Micro.second
    }

    private func brokenDown(second: Int64) -> tm {
        var clock = time_t(second)
        var result = tm()
        _ = localtime_r(&clock, &result)
        return result
    }
}
