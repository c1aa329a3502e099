import ReminderCore
import Localization

/// The frame of `icarectl watch`, like the iOS home screen: a headline, a big
/// countdown, a bar that empties as time passes, then today's breaks, the
/// state and do not disturb. Pure: a status and a moment in, lines out.
public struct WatchScreen: Sendable {
    public let time: TimeText
    public let style: Style
    public init(time: TimeText, style: Style = .plain) {
        self.time = time
        self.style = style
    }

    /// The lines for a terminal of `columns` (each at most that wide, before colour).
    public func render(_ status: ServiceStatus?, now: Timestamp, columns: Int, rows: Int, message: String = "") -> [String] {
        let barWidth = max(10, min(40, columns - 4))
        var lines: [String] = []
        func add(_ text: String, _ paint: (String) -> String = { $0 }) {
            lines.append(paint("  " + String(text.prefix(max(0, columns - 2)))))
        }
        add("iCare · 20-20-20", style.bold)
        add("")
        guard let s = status else {
            add(tr("iCare is not running."), style.yellow)
            add("")
            for line in tr("Start it with 'systemctl --user start icared' (or run 'icared');\nthis view follows it as soon as it appears.")
                .split(separator: "\n") { add(String(line)) }
            add("")
            // TRANSLATORS: the key stays q.
            add(tr("q quit"), style.dim)
            return fit(lines, rows: rows, message: message)
        }
        let top = block(s, now: now)
        add(top.title, { style.state(s.state, style.bold($0)) })
        add(top.big, style.bold)
        add(bar(top.remaining, width: barWidth), { style.state(s.state, $0) })
        add(top.detail)
        add("")
        let fmt = StatusFormatter(time: time, style: .plain)
        let labels = [tr("State"), tr("Today"), tr("Do not disturb")]
        let width = labels.map(\.count).max()! + 2
        add(labels[0].padding(to: width) + fmt.stateWords(s, now: now), { style.state(s.state, $0) })
        add(labels[1].padding(to: width) + fmt.todayWords(s))
        add(labels[2].padding(to: width) + fmt.dndWords(s))
        add("")
        let keys = s.state == "paused" && s.pauseReason == "user"
            // TRANSLATORS: the keys of the watch view; the letters stay s, z, k, p and q.
            ? tr("s start  z snooze  k skip  p resume  q quit")
            // TRANSLATORS: the keys of the watch view; the letters stay s, z, k, p and q.
            : tr("s start  z snooze  k skip  p pause  q quit")
        add(keys, style.dim)
        return fit(lines, rows: rows, message: message)
    }

    /// The message (if any) goes on the last row that fits.
    func fit(_ lines: [String], rows: Int, message: String) -> [String] {
        var out = lines
        if !message.isEmpty { out += ["", "  " + message] }
        return Array(out.prefix(max(1, rows)))
    }

    struct Block {
        var title: String
        var big: String
        /// Fraction of the bar still full, 0…1.
        var remaining: Double
        var detail: String
    }

    func block(_ s: ServiceStatus, now: Timestamp) -> Block {
        let toNext = TimeText.secondsUntil(s.nextBreak, from: now)
        switch s.state {
        case "waiting", "snoozed":
            return Block(title: s.state == "snoozed" ? tr("Snoozed: next break in") : tr("Next break in"), big: TimeText.countdown(toNext),
                         remaining: fraction(toNext, of: Int64(s.realInterval)),
                         detail: s.nextBreak > 0 ? tr("at %s", nextBreakClock(s, now: now)) : "")
        case "due":
            let seconds = Int(s.breakDuration)
            let detail = s.nextBreak > 0 && s.nextBreak < now
                ? trn("due since %2$s: press s to start the %1$d-second countdown",
                      "due since %2$s: press s to start the %1$d-second countdown", seconds, seconds, time.clock(s.nextBreak, relativeTo: now))
                : trn("due: press s to start the %d-second countdown", "due: press s to start the %d-second countdown", seconds, seconds)
            return Block(title: tr("Time for a break"), big: tr("Look at something 20 feet (6 m) away"), remaining: 1, detail: detail)
        case "break":
            let left = TimeText.secondsUntil(s.breakEnds, from: now)
            return Block(title: tr("Break: look at something 20 feet (6 m) away"), big: TimeText.countdown(left),
                         remaining: fraction(left, of: Int64(s.breakDuration)), detail: tr("ends at %s", time.clockSeconds(s.breakEnds)))
        case "paused":
            if s.pausedUntil > 0 {
                let left = TimeText.secondsUntil(s.pausedUntil, from: now)
                return Block(title: tr("Paused; reminders resume in"), big: TimeText.countdown(left), remaining: 0,
                             detail: tr("at %s", time.clock(s.pausedUntil, relativeTo: now)))
            }
            let why = s.pauseReason == "dnd" ? tr("while do not disturb is on")
                : s.pauseReason == "locked" ? tr("while the screen is locked")
                : s.pauseReason == "busy" ? tr("during a call or video") : tr("until you resume")
            return Block(title: tr("Paused"), big: why, remaining: 0, detail: "")
        case "inactive":
            return Block(title: tr("Outside the active hours"), big: "", remaining: 0,
                         detail: s.nextBreak > 0 ? tr("next break %s", time.clock(s.nextBreak, relativeTo: now)) : "")
        default:
            return Block(title: s.state, big: "", remaining: 0, detail: "")
        }
    }

    /// When the next break comes; to the second when the service runs faster
    /// than real time (breaks then come seconds apart).
    func nextBreakClock(_ s: ServiceStatus, now: Timestamp) -> String {
        s.timeScale > 1 ? time.clockSeconds(s.nextBreak) : time.clock(s.nextBreak, relativeTo: now)
    }

    func fraction(_ left: Int64, of total: Int64) -> Double {
        total > 0 ? min(1, max(0, Double(left) / Double(total))) : 0
    }

    /// `████████░░░░`: full cells for the part left.
    public func bar(_ remaining: Double, width: Int) -> String {
        let full = Int((remaining * Double(width)).rounded(.up))
        return String(repeating: "█", count: full) + String(repeating: "░", count: width - full)
    }
}
