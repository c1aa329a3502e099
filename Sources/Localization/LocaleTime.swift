import CIntl
import Glibc

/// Clock times and dates written the way the person's `LC_TIME` locale
/// writes them: `14:32` or `2:32 PM`, `ma 02-12-2024` or `Mon 12/02/2024`.
/// Fields come in already local (the callers keep their own time zone
/// handling); `strftime` only formats them. In the C locale the forms are
/// the plain ones iCare always used: 24-hour and ISO dates.
public enum LocaleTime {
    /// `14:32` or `2:32 PM` (`%-l`: glibc's hour without padding).
    public static func clock(hour: Int, minute: Int) -> String {
        format(twelveHour ? "%-l:%M %p" : "%H:%M", hour: hour, minute: minute)
    }

    /// `14:32:05` or `2:32:05 PM`.
    public static func clockSeconds(hour: Int, minute: Int, second: Int) -> String {
        format(twelveHour ? "%-l:%M:%S %p" : "%H:%M:%S", hour: hour, minute: minute, second: second)
    }

    /// A date with its weekday: `Mon 2024-12-02` (C), `ma 02-12-2024` (nl_NL).
    /// `weekday` is 0 for Sunday.
    public static func date(year: Int, month: Int, day: Int, weekday: Int) -> String {
        format("%a " + dateFormat, year: year, month: month, day: day, weekday: weekday)
    }

    /// The weekday's short name: `Mon` (C), `ma` (nl_NL); 0 is Sunday.
    public static func weekday(_ weekday: Int) -> String { format("%a", weekday: weekday) }

    /// A date without its weekday: `2024-12-02` (C), `02-12-2024` (nl_NL).
    public static func shortDate(year: Int, month: Int, day: Int, weekday: Int) -> String {
        format(dateFormat, year: year, month: month, day: day, weekday: weekday)
    }

    /// Whether the locale writes the time on a 12-hour clock (its `T_FMT`
    /// uses `%I`, `%l` or `%r`, as en_US's does).
    static var twelveHour: Bool {
        let t = langinfo(T_FMT)
        let conversions = zip(t, t.dropFirst()).filter { $0.0 == "%" }.map(\.1)
        return !isPlainC && conversions.contains { "Ilr".contains($0) }
    }

    /// The locale's numeric date (`D_FMT`) with four-digit years; ISO in C.
    static var dateFormat: String {
        if isPlainC { return "%Y-%m-%d" }
        let d = langinfo(D_FMT)
        return d.isEmpty ? "%Y-%m-%d" : d.replacingYear()
    }

    /// The C and POSIX locales (and C.UTF-8), told by their formats rather
    /// than their name so a thread's own locale (`uselocale`) counts too.
    static var isPlainC: Bool {
        langinfo(D_FMT) == "%m/%d/%y" && langinfo(T_FMT) == "%H:%M:%S"
    }

    /// `nl_langinfo(item)` (the items import as Int, the call takes nl_item).
    static func langinfo(_ item: Int) -> String { String(cString: nl_langinfo(nl_item(item))) }

    static func format(_ pattern: String, year: Int = 2000, month: Int = 1, day: Int = 1, weekday: Int = 6,
                       hour: Int = 0, minute: Int = 0, second: Int = 0) -> String {
        var t = tm()
        t.tm_year = Int32(truncatingIfNeeded: year - 1900)
        t.tm_mon = Int32(truncatingIfNeeded: month - 1)
        t.tm_mday = Int32(truncatingIfNeeded: day)
        t.tm_wday = Int32(truncatingIfNeeded: ((weekday % 7) + 7) % 7)
        t.tm_hour = Int32(truncatingIfNeeded: hour)
        t.tm_min = Int32(truncatingIfNeeded: minute)
        t.tm_sec = Int32(truncatingIfNeeded: second)
        var buffer = [CChar](repeating: 0, count: 128)
        // What strftime writes is NUL-terminated; 0 means nothing (or too long).
        guard strftime(&buffer, buffer.count, pattern, &t) > 0 else { return "" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

extension String {
    /// `%y` (two-digit year) as `%Y`: `02-12-24` is ambiguous, `02-12-2024` is not.
    func replacingYear() -> String {
        var out = ""
        var percent = false
        for ch in self {
            out.append(percent && ch == "y" ? "Y" : ch)
            percent = !percent && ch == "%"
        }
        return out
    }
}
