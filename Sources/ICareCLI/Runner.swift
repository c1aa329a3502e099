import DBusKit
import SystemdKit
import ReminderCore
import Localization

/// What a command needs from the outside world: the clock, the local
/// calendar, where to write, whether to colour, the environment.
public struct RunContext {
    public var now: () -> Timestamp
    public var calendar: LocalZone
    public var style: Style
    public var out: Output
    public var err: Output
    public var environment: [String: String]

    public init(now: @escaping () -> Timestamp = { Timestamp(Clock.realtime.now()) }, calendar: LocalZone = .system,
                style: Style = .plain, out: Output = .standard, err: Output = .error, environment: [String: String] = [:]) {
        self.now = now
        self.calendar = calendar
        self.style = style
        self.out = out
        self.err = err
        self.environment = environment
    }

    var time: TimeText { TimeText(calendar: calendar) }
}

/// Carries out the one-shot commands with blocking calls.
struct Runner {
    let context: RunContext
    let proxy: ReminderProxy

    func run(_ command: Command) throws(CLIError) {
        let now = context.now()
        let time = context.time
        switch command {
        case .status(let options):
            let s = try proxy.status()
            let f = StatusFormatter(time: time, style: context.style)
            switch options.format {
            case .text: say(f.text(s, now: now))
            case .plain: say(f.short(s, now: now) + "\n")
            case .waybar: say(f.waybar(s, now: now).text + "\n")
            case .json: say(f.json(s, now: now).text + "\n")
            }
        case .start:
            try proxy.call("StartBreak")
            let ends = Timestamp(clamping: (try? proxy.get("BreakEnds").uint64) ?? 0)
            say((ends > 0 ? tr("Break started: look at something 20 feet (6 m) away until %s.", time.clockSeconds(ends))
                 : tr("Break started: look at something 20 feet (6 m) away.")) + "\n")
        case .snooze(let seconds):
            let inBreak = stateNow() == "break"
            let until = try untilReply(proxy.call("Snooze", [.uint32(seconds)]))
            if inBreak { say(Runner.breakEndedUnrecorded + "\n") }
            say(tr("Snoozed until %s.", time.clock(until, relativeTo: now)) + "\n")
        case .skip:
            try proxy.call("Skip")
            let next = Timestamp(clamping: (try? proxy.get("NextBreak").uint64) ?? 0)
            say((next > 0 ? tr("Skipped; the next break is at %s.", time.clock(next, relativeTo: now)) : tr("Skipped.")) + "\n")
        case .pause(let length):
            try pause(length, now: now)
        case .pauseToggle:
            let s = try proxy.status()
            if s.state == "paused", s.pauseReason == "user" {
                try run(.resume)
            } else {
                try pause(.untilResumed, now: now)
            }
        case .resume:
            let before = try proxy.status()
            guard before.state == "paused" else {
                let next = before.nextBreak > 0 && ["waiting", "snoozed"].contains(before.state)
                    ? " " + tr("The next break is at %s.", time.clock(before.nextBreak, relativeTo: now)) : ""
                say(tr("Nothing is paused; reminders are on.") + next + "\n")
                return
            }
            try proxy.call("Resume")
            let s = try proxy.status()
            if s.state == "paused" {
                let why = s.pauseReason == "dnd" ? tr("Reminders stay paused while do not disturb is on.")
                    : s.pauseReason == "locked" ? tr("Reminders stay paused while the screen is locked.")
                    : s.pauseReason == "busy" ? tr("Reminders stay paused during the call or video.")
                    : tr("Reminders stay paused while another pause holds.")
                say(why + "\n")
            } else if s.nextBreak > 0, s.state == "waiting" {
                say(tr("Resumed; the next break is at %s.", time.clock(s.nextBreak, relativeTo: now)) + "\n")
            } else {
                say(tr("Resumed.") + "\n")
            }
        case .history(let range, let output):
            try history(range, output: output, now: now)
        case .doctor(let json):
            let s = try proxy.status()
            let f = DoctorFormatter(style: context.style)
            say(json ? f.json(s).text + "\n" : f.text(s))
            let failing = s.capabilities.filter(\.fails).count
            if failing > 0 {
                throw .failure(trn("%d thing a person would expect does not work here.",
                                   "%d things a person would expect do not work here.", failing, failing))
            }
        case .get(let key, let json):
            var settings: [SettingKey: SettingValue] = [:]
            if let key {
                guard let v = SettingValue(dbus: try proxy.get(key.name)) else { throw .failure(tr("iCare sent an unexpected value for %s.", key.name)) }
                settings[key] = v
                say(json ? SettingsFormatter.json(settings).text + "\n" : SettingsFormatter.text(key, v) + "\n")
            } else {
                settings = try proxy.status().settings
                say(json ? SettingsFormatter.json(settings).text + "\n" : SettingsFormatter.table(settings))
            }
            // On stderr: the settings on stdout stay machine-readable.
            if let problems = try? proxy.get("ConfigProblems"), case .array(_, let items) = problems.unwrapped, !items.isEmpty {
                var s = ServiceStatus()
                s.configProblems = items.compactMap(\.string)
                context.err.write(StatusFormatter(time: time, style: context.style).configProblemsText(s))
            }
        case .set(let key, let value):
            try proxy.set(key, value)
            say(tr("%s is now %s.", key.name, SettingsFormatter.text(key, value)) + "\n")
        default:
            preconditionFailure("not a one-shot command: \(command)")
        }
    }

    func say(_ text: String) { context.out.write(text) }

    /// What snooze and pause say when they end a running break: it is not
    /// counted as completed or skipped.
    static var breakEndedUnrecorded: String { tr("The break ended early and is not recorded.") }

    /// The state, or nil when it cannot be read (the call that follows says why).
    func stateNow() -> String? { try? proxy.get("State").string }

    func pause(_ length: PauseLength, now: Timestamp) throws(CLIError) {
        let time = context.time
        let seconds = try pauseSeconds(length, now: now)
        let inBreak = stateNow() == "break"
        let until = try untilReply(proxy.call("Pause", [.uint32(seconds)]))
        if inBreak { say(Runner.breakEndedUnrecorded + "\n") }
        say((until > 0 ? tr("Paused until %s.", time.clock(until, relativeTo: now))
             : tr("Paused until you resume ('icarectl resume').")) + "\n")
    }

    func untilReply(_ reply: [DBusValue]) throws(CLIError) -> Timestamp {
        guard let t = reply.first?.uint64 else { throw .failure(tr("iCare sent an unexpected reply.")) }
        return Timestamp(clamping: t)
    }

    /// The seconds to ask `Pause` for.
    func pauseSeconds(_ length: PauseLength, now: Timestamp) throws(CLIError) -> UInt32 {
        switch length {
        case .untilResumed: return 0
        case .seconds(let s): return s
        case .until(let t): return try Runner.secondsUntil(t, now: now, calendar: context.calendar)
        }
    }

    /// Whole seconds from `now` to the next time the local clock shows `t` (at most a day).
    static func secondsUntil(_ t: TimeOfDay, now: Timestamp, calendar: LocalZone) throws(CLIError) -> UInt32 {
        let target = calendar.next(t, after: now)
        let seconds = TimeText.secondsUntil(target, from: now)
        guard seconds <= 86_400 else { throw .failure(tr("%s is more than a day away (the clock changes tonight); pause for a duration instead.", t)) }
        return UInt32(seconds)
    }

    func history(_ range: HistoryRange, output: HistoryOutput, now: Timestamp) throws(CLIError) {
        let cal = context.calendar
        let today = cal.local(now).date
        let f = HistoryFormatter(time: context.time, style: context.style)
        let day: LocalDate
        switch range {
        case .days(let n):
            let days = (0..<n).map { today.adding(days: $0 - n + 1) }
            let from = cal.startOfDay(days[0]), to = cal.startOfDay(today.adding(days: 1))
            let tallies = f.tally(try proxy.history(from: from, to: to), days: days)
            switch output {
            case .text: say(f.chart(tallies))
            case .json: say(f.daysJSON(tallies, from: from, to: to).text + "\n")
            case .csv: say(f.daysCSV(tallies))
            }
            return
        case .today: day = today
        case .yesterday: day = today.adding(days: -1)
        case .date(let d): day = d
        }
        let from = cal.startOfDay(day), to = cal.startOfDay(day.adding(days: 1))
        let records = try proxy.history(from: from, to: to)
        switch output {
        case .text: say(f.list(records, on: day, isToday: day == today))
        case .json: say(f.dayJSON(records, on: day, from: from, to: to).text + "\n")
        case .csv: say(f.dayCSV(records))
        }
    }
}
