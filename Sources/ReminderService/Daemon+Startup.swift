import SystemdKit
import ReminderCore
import ICareFiles

/// Start-up: the engine built from what the files said, without counting
/// twice what a crash left in the history.
extension Daemon {
    /// The engine for `startup` at `now` with the desktop as observed, and
    /// the catch-up records the history already holds (a crash fell between
    /// their append and the state file's update): their signals go out
    /// again, they are not stored or counted twice.
    static func makeEngine(_ startup: Startup, calendar: any LocalCalendar, now: Timestamp, history: HistoryStore,
                           doNotDisturb: Bool, locked: Bool) -> (ReminderEngine, [BreakRecord]) {
        func build(_ today: [BreakRecord]) -> ReminderEngine {
            ReminderEngine(settings: startup.settings, calendar: calendar, now: now, today: today,
                           restoring: startup.snapshot, doNotDisturb: doNotDisturb, locked: locked,
                           timeScale: startup.timeScale)
        }
        let engine = build(startup.today)
        let stored = alreadyStored(engine.startupEffects, history: history)
        guard !stored.isEmpty else { return (engine, []) }
        var rest = startup.today
        for r in stored { if let i = rest.firstIndex(of: r) { rest.remove(at: i) } }
        return (build(rest), stored)
    }

    /// The wall clock in µs.
    static func wallNow() -> Timestamp { Timestamp(Clock.realtime.now()) }

    static func todayRecords(history: HistoryStore, calendar: any LocalCalendar, now: Timestamp, log: Log) -> ([BreakRecord], [String]) {
        let l = calendar.local(now)
        let midnight = calendar.timestamp(year: l.year, month: l.month, day: l.day, time: TimeOfDay(hour: 0, minute: 0)!)
        let (records, problems) = history.records(from: midnight, to: now + Micro.second)
        for p in problems { log.warning(p.description) }
        return (records, problems.map(\.description))
    }

    /// The records among `effects` that the history already holds. Records
    /// the engine makes while catching up have deterministic times (a break's
    /// end, a reminder's expiry), so an equal stored record is the same break.
    static func alreadyStored(_ effects: [ReminderEffect], history: HistoryStore) -> [BreakRecord] {
        var found: [BreakRecord] = []
        for case .record(let r) in effects {
            var stored = history.records(from: r.at, to: r.at + 1).records
            for f in found where f == r { if let i = stored.firstIndex(of: f) { stored.remove(at: i) } }
            if stored.contains(r) { found.append(r) }
        }
        return found
    }

    /// The local calendar day of `t` as `yyyymmdd`.
    static func localDay(_ t: Timestamp, _ calendar: any LocalCalendar) -> Int {
        let l = calendar.local(t)
        return (l.year * 100 + l.month) * 100 + l.day
    }
}
