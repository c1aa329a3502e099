@testable import ReminderCore
import Synchronization
import Testing

/// Central European time with the 2025 EU daylight-saving changes
/// (30 March 01:00 UTC to +2, 26 October 01:00 UTC back to +1).
let cet = OffsetCalendar(offsetSeconds: 3600, transitions: [
    .init(at: 1_743_296_400 * Micro.second, offsetSeconds: 7200),
    .init(at: 1_761_440_400 * Micro.second, offsetSeconds: 3600),
])

/// A fixed UTC calendar.
let utc = OffsetCalendar()

/// The instant a local date shows `hms` (`HH:MM` or `HH:MM:SS`) on `calendar`.
func at(_ year: Int, _ month: Int, _ day: Int, _ hms: String, _ calendar: OffsetCalendar = cet) -> Timestamp {
    let parts = hms.split(separator: ":").map { Int($0)! }
    let time = TimeOfDay(hour: parts[0], minute: parts[1])!
    let seconds = parts.count > 2 ? parts[2] : 0
    return calendar.timestamp(year: year, month: month, day: day, time: time) + Micro.seconds(seconds)
}

/// `HH:MM:SS` of `t` on `calendar`.
func hms(_ t: Timestamp, _ calendar: OffsetCalendar = cet) -> String {
    String(calendar.local(t).description.split(separator: " ")[1])
}

/// Settings with some values changed.
func settings(_ changes: [SettingKey: SettingValue] = [:]) -> Settings {
    var s = Settings()
    for (key, value) in changes { try! s.set(key, to: value) }
    return s
}

/// The working-hours settings of the simulated week.
let officeHours = settings([.activeHours: .string("09:00-17:30"), .weekdaysOnly: .bool(true)])

/// A manual clock driving an engine the way the service does: it delivers
/// `.timer` exactly at each `nextDeadline`, and a simulated person may
/// answer every reminder at once.
struct Sim {
    enum Answer { case none, startBreak, skip }

    var engine: ReminderEngine
    var now: Timestamp
    let calendar: OffsetCalendar
    var log: [ReminderEffect] = []
    var timers = 0
    var answer = Answer.none

    init(_ settings: Settings = Settings(), calendar: OffsetCalendar = cet, now: Timestamp, timeScale: TimeScale = .real) {
        engine = ReminderEngine(settings: settings, calendar: calendar, now: now, timeScale: timeScale)
        self.now = now
        self.calendar = calendar
    }

    var status: ReminderStatus { engine.status }

    /// Delivers every deadline up to and including `t`, then stands at `t`.
    mutating func run(until t: Timestamp) {
        var guardCount = 0
        while let deadline = engine.nextDeadline, deadline <= t {
            #expect(deadline > now, "a deadline must lie ahead of the last event")
            guardCount += 1
            if guardCount > 10_000 { Issue.record("runaway timer"); return }
            now = deadline
            timers += 1
            take(try! engine.handle(.timer, at: deadline))
        }
        now = max(now, t)
    }

    /// Sends an event now.
    @discardableResult
    mutating func send(_ event: ReminderEvent) throws(ReminderError) -> [ReminderEffect] {
        let effects = try engine.handle(event, at: now)
        take(effects)
        return effects
    }

    /// Moves to `t` (delivering timers on the way) and sends an event there.
    @discardableResult
    mutating func send(_ event: ReminderEvent, at t: Timestamp) throws(ReminderError) -> [ReminderEffect] {
        run(until: t)
        return try send(event)
    }

    private mutating func take(_ effects: [ReminderEffect]) {
        log += effects
        guard effects.contains(where: { if case .breakDue = $0 { true } else { false } }) else { return }
        switch answer {
        case .none: break
        case .startBreak: take(try! engine.handle(.startBreak, at: now))
        case .skip: take(try! engine.handle(.skip, at: now))
        }
    }

    /// Local times of the reminders that went out since the log was last cleared.
    var dueTimes: [String] {
        log.compactMap { if case .breakDue(let t) = $0 { hms(t, calendar) } else { nil } }
    }

    /// The records since the log was last cleared.
    var records: [BreakRecord] {
        log.compactMap { if case .record(let r) = $0 { r } else { nil } }
    }

    /// The records of one outcome.
    func records(_ outcome: Outcome) -> [BreakRecord] { records.filter { $0.outcome == outcome } }

    mutating func clearLog() { log = [] }
}

/// Reminder times `first`, `first + step`, … before `end` (all `HH:MM:SS` on one day).
func series(from first: String, every step: Int, before end: String) -> [String] {
    func seconds(_ s: String) -> Int {
        let p = s.split(separator: ":").map { Int($0)! }
        return p[0] * 3600 + p[1] * 60 + (p.count > 2 ? p[2] : 0)
    }
    func text(_ n: Int) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(two(n / 3600)):\(two(n / 60 % 60)):\(two(n % 60))"
    }
    return stride(from: seconds(first), to: seconds(end), by: step).map(text)
}

/// A calendar whose zone can be switched under a running engine, as the
/// machine's can (the engine sees it at the next event).
final class SwitchableCalendar: LocalCalendar {
    private let current: Mutex<OffsetCalendar>

    init(_ calendar: OffsetCalendar) { current = Mutex(calendar) }

    func switchTo(_ calendar: OffsetCalendar) { current.withLock { $0 = calendar } }
    func local(_ t: Timestamp) -> LocalDateTime { current.withLock { $0 }.local(t) }
    func timestamp(year: Int, month: Int, day: Int, time: TimeOfDay) -> Timestamp {
        current.withLock { $0 }.timestamp(year: year, month: month, day: day, time: time)
    }
}
