import ReminderCore
import Localization

/// One local day's tally for the chart.
public struct HistoryDay: Equatable, Sendable {
    public let date: LocalDate
    /// `completed` + `natural` (as `CompletedToday` counts them).
    public var completed = 0
    /// The `natural` part of `completed`.
    public var natural = 0
    /// Skip pressed.
    public var skipped = 0
    /// Reminders left unanswered for a whole interval.
    public var missed = 0
    /// Outcomes this version does not know.
    public var other = 0
    public init(date: LocalDate) { self.date = date }
    /// Breaks not taken: skipped and missed (the chart's outlined part).
    public var notTaken: Int { skipped + missed }
    /// The day's counts in words (`TallyText`).
    public var words: String { TallyText.counts(completed: completed, skipped: skipped, missed: missed) }
}

/// Renders break records: the list of one day, the per-day chart, and their JSON.
public struct HistoryFormatter: Sendable {
    public let time: TimeText
    public let style: Style
    /// The widest a bar may get, in columns.
    public var maxBar = 40
    public init(time: TimeText, style: Style = .plain) {
        self.time = time
        self.style = style
    }

    /// Counts `records` per local day over `days` (oldest first).
    public func tally(_ records: [BreakRecord], days: [LocalDate]) -> [HistoryDay] {
        var byDay: [LocalDate: HistoryDay] = [:]
        for d in days { byDay[d] = HistoryDay(date: d) }
        for r in records {
            let d = time.calendar.local(r.at).date
            guard var t = byDay[d] else { continue }
            switch r.outcome {
            case .completed: t.completed += 1
            case .natural: t.completed += 1; t.natural += 1
            case .skipped: t.skipped += 1
            case .missed: t.missed += 1
            default: t.other += 1
            }
            byDay[d] = t
        }
        return days.map { byDay[$0]! }
    }

    // MARK: one day

    /// `history today` / `history 2024-11-29`.
    public func list(_ records: [BreakRecord], on date: LocalDate, isToday: Bool) -> String {
        let day = date.localized
        guard !records.isEmpty else {
            return (isToday ? tr("No breaks on %s yet.", day) : tr("No breaks on %s.", day)) + "\n"
        }
        var out = tr("Breaks on %s:", day) + "\n"
        let names = records.map { outcomeName($0.outcome) }
        let nameWidth = max(9, names.map(\.count).max() ?? 0)
        for (r, name) in zip(records, names) {
            let notTaken = r.outcome == .skipped || r.outcome == .missed
            let coloured = notTaken ? style.yellow(name) : r.outcome.countsAsCompleted ? style.green(name) : name
            let rested = notTaken || r.seconds == 0
                ? "" : String(repeating: " ", count: max(0, nameWidth - name.count)) + "  " + TimeText.span(Int64(r.seconds))
            out += "  " + time.clockSeconds(r.at) + "  " + coloured + rested + "\n"
        }
        let t = tally(records, days: [date])[0]
        out += tr("Total: %s", t.words) + "\n"
        return out
    }

    /// An outcome in the person's language; one this version does not know, as sent.
    func outcomeName(_ outcome: Outcome) -> String {
        switch outcome {
        // TRANSLATORS: how a break ended, in `icarectl history`.
        case .completed: return trc("outcome", "completed")
        case .skipped: return trc("outcome", "skipped")
        case .missed: return trc("outcome", "missed")
        case .natural: return trc("outcome", "natural")
        default: return outcome.rawValue
        }
    }

    // MARK: several days

    /// `history --days N`: a bar per day, `█` completed and `░` not taken (skipped or missed).
    public func chart(_ tallies: [HistoryDay]) -> String {
        let most = tallies.map { $0.completed + $0.notTaken }.max() ?? 0
        // Columns for completed and not taken: exact up to maxBar, else scaled
        // with the day's total rounded, and a visible cell for any non-zero count.
        func columns(_ t: HistoryDay) -> (Int, Int) {
            guard most > maxBar else { return (t.completed, t.notTaken) }
            let sum = t.completed + t.notTaken
            let total = max(sum > 0 ? 1 : 0, (sum * maxBar + most / 2) / most)
            var c = min(total, t.completed > 0 ? max(1, (t.completed * maxBar + most / 2) / most) : 0)
            if t.notTaken > 0, c == total { c = max(0, total - 1) }
            return (c, max(total - c, t.notTaken > 0 ? 1 : 0))
        }
        let width = tallies.map { let (c, s) = columns($0); return c + s }.max() ?? 0
        var out = trn("Breaks, last %d day (█ completed, ░ skipped or missed):",
                      "Breaks, last %d days (█ completed, ░ skipped or missed):", tallies.count, tallies.count) + "\n"
        for t in tallies {
            let (c, s) = columns(t)
            let bar = style.green(String(repeating: "█", count: c)) + style.yellow(String(repeating: "░", count: s))
                + String(repeating: " ", count: width - c - s)
            out += t.date.localized + "  " + bar + (width > 0 ? "  " : "") + t.words + "\n"
        }
        let done = tallies.reduce(0) { $0 + $1.completed }, skipped = tallies.reduce(0) { $0 + $1.skipped }
        let missed = tallies.reduce(0) { $0 + $1.missed }
        let words = TallyText.counts(completed: done, skipped: skipped, missed: missed)
        out += done + skipped + missed > 0
            ? tr("Total: %s (%d%% completed)", words, done * 100 / (done + skipped + missed))
            : tr("Total: %s", words)
        return out + "\n"
    }

    // MARK: JSON

    /// The `history DAY --json` shape.
    public func dayJSON(_ records: [BreakRecord], on date: LocalDate, from: Timestamp, to: Timestamp) -> JSON {
        let t = tally(records, days: [date])[0]
        var m: [(String, JSON)] = [("date", .string(date.description))]
        m += JSON.time("from", from, time) + JSON.time("to", to, time)
        m.append(("breaks", .array(records.map(recordJSON))))
        m += [("completed", .int(Int64(t.completed))), ("skipped", .int(Int64(t.skipped))), ("missed", .int(Int64(t.missed)))]
        return .object(m)
    }

    func recordJSON(_ r: BreakRecord) -> JSON {
        .object(JSON.time("at", r.at, time) + [("outcome", .string(r.outcome.rawValue)), ("seconds", .int(Int64(r.seconds)))])
    }

    /// The `history --days N --json` shape.
    public func daysJSON(_ tallies: [HistoryDay], from: Timestamp, to: Timestamp) -> JSON {
        var m = JSON.time("from", from, time) + JSON.time("to", to, time)
        m.append(("days", .array(tallies.map { t in
            .object([("date", .string(t.date.description)), ("completed", .int(Int64(t.completed))),
                     ("natural", .int(Int64(t.natural))), ("skipped", .int(Int64(t.skipped))), ("missed", .int(Int64(t.missed))),
                     ("other", .int(Int64(t.other)))])
        })))
        m += [("completed", .int(Int64(tallies.reduce(0) { $0 + $1.completed }))),
              ("skipped", .int(Int64(tallies.reduce(0) { $0 + $1.skipped }))),
              ("missed", .int(Int64(tallies.reduce(0) { $0 + $1.missed })))]
        return .object(m)
    }
}
