import ReminderCore
import ReminderClient

/// `history --csv`: the same records and counts as `--json`, as RFC 4180
/// CSV for a spreadsheet. A header row of stable English names (as JSON's
/// keys are), rows ending in CRLF, local dates as YYYY-MM-DD and times on
/// the 24-hour clock, outcomes as the service sends them (`completed`,
/// `skipped`, `missed`, `natural`, or a newer one unchanged).
extension HistoryFormatter {
    /// One row per break of a day: `date,time,outcome,seconds`.
    public func dayCSV(_ records: [BreakRecord]) -> String {
        CSV.table(["date", "time", "outcome", "seconds"], records.map { r in
            let l = time.calendar.local(r.at)
            return [l.date.description, pad(l.hour, 2) + ":" + pad(l.minute, 2) + ":" + pad(l.second, 2),
                    r.outcome.rawValue, String(r.seconds)]
        })
    }

    /// One row per day, oldest first: `date,completed,natural,skipped,missed,other`
    /// (`completed` includes `natural`, as in `--json`).
    public func daysCSV(_ tallies: [HistoryDay]) -> String {
        CSV.table(["date", "completed", "natural", "skipped", "missed", "other"], tallies.map { t in
            [t.date.description, String(t.completed), String(t.natural), String(t.skipped), String(t.missed), String(t.other)]
        })
    }
}

/// RFC 4180 writing: a field with a comma, a quote, CR or LF is quoted and its
/// quotes doubled; records end in CRLF.
public enum CSV {
    public static func table(_ header: [String], _ rows: [[String]]) -> String {
        ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    /// One field. A text that a spreadsheet would run as a formula (it begins
    /// with `=`, `+`, `-`, `@`, a tab or CR: only an outcome sent by whoever
    /// owns the service's name can) gets a leading `'`, so it opens as text.
    public static func field(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else {
            return text
        }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }
}
