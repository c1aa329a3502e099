import ReminderCore
import Localization

/// How times and spans of time are written for people and for JSON.
public struct TimeText: Sendable {
    public let calendar: LocalZone
    public init(calendar: LocalZone) { self.calendar = calendar }

    /// `14:32` (`2:32 PM` where the locale has a 12-hour clock).
    public func clock(_ t: Timestamp) -> String {
        let l = calendar.local(t)
        return LocaleTime.clock(hour: l.hour, minute: l.minute)
    }

    /// `14:32:05` (`2:32:05 PM`).
    public func clockSeconds(_ t: Timestamp) -> String {
        let l = calendar.local(t)
        return LocaleTime.clockSeconds(hour: l.hour, minute: l.minute, second: l.second)
    }

    /// The clock time, with the day when it is not today: `14:32`,
    /// `tomorrow 09:00`, `yesterday 17:10`, `Mon 2024-12-02 09:00` (in the
    /// person's language and date format).
    public func clock(_ t: Timestamp, relativeTo now: Timestamp) -> String {
        let day = calendar.local(t).date, today = calendar.local(now).date
        switch day.daysSinceEpoch - today.daysSinceEpoch {
        case 0: return clock(t)
        case 1: return tr("tomorrow %s", clock(t))
        case -1: return tr("yesterday %s", clock(t))
        default: return day.localized + " " + clock(t)
        }
    }

    /// ISO 8601 in local time with the offset: `2024-11-29T14:32:05+01:00`.
    public func iso(_ t: Timestamp) -> String {
        let l = calendar.local(t)
        let off = l.utcOffset, a = off < 0 ? -off : off
        return l.date.description + "T" + pad(l.hour, 2) + ":" + pad(l.minute, 2) + ":" + pad(l.second, 2)
            + (off < 0 ? "-" : "+") + pad(a / 3600, 2) + ":" + pad(a % 3600 / 60, 2)
    }

    /// A log line's stamp: `2024-11-29 14:32:05.123`.
    public func logStamp(_ t: Timestamp) -> String {
        let l = calendar.local(t)
        let ms = Int((t % Micro.second + Micro.second) % Micro.second / 1000)
        return l.date.description + " " + pad(l.hour, 2) + ":" + pad(l.minute, 2) + ":" + pad(l.second, 2) + "." + pad(ms, 3)
    }

    /// A span for sentences: `45s`, `12m 30s`, `20m`, `1h 5m`.
    public static func span(_ seconds: Int64) -> String {
        let s = max(0, seconds)
        // TRANSLATORS: short spans of time (s seconds, m minutes, h hours), as in "in 12m 30s".
        if s < 60 { return tr("%ds", s) }
        if s < 3600 { return s % 60 == 0 ? tr("%dm", s / 60) : tr("%dm %ds", s / 60, s % 60) }
        return hoursAndMinutes(s / 60)
    }

    /// A span in whole minutes, rounded up, for status bars: `13m`, `1h 5m`.
    public static func minutes(_ seconds: Int64) -> String {
        let m = (max(0, seconds) + 59) / 60
        return m < 60 ? tr("%dm", m) : hoursAndMinutes(m)
    }

    /// `1h`, `1h 5m`: `minutes` of an hour or more.
    package static func hoursAndMinutes(_ minutes: Int64) -> String {
        minutes % 60 == 0 ? tr("%dh", minutes / 60) : tr("%dh %dm", minutes / 60, minutes % 60)
    }

    /// A countdown display: `12:30`, `0:07`, `1:02:03`.
    public static func countdown(_ seconds: Int64) -> String {
        let s = max(0, seconds)
        if s >= 3600 { return "\(s / 3600):" + pad(Int(s % 3600 / 60), 2) + ":" + pad(Int(s % 60), 2) }
        return "\(s / 60):" + pad(Int(s % 60), 2)
    }

    /// Whole seconds from `now` until `t`, rounded up (a countdown never shows 0 early).
    public static func secondsUntil(_ t: Timestamp, from now: Timestamp) -> Int64 {
        t <= now ? 0 : (t - now + Micro.second - 1) / Micro.second
    }
}
