@testable import ReminderCore
import Testing

/// `icared --time-scale N`: the waits between breaks pass N times faster;
/// breaks, natural rest and the active hours stay in real time.
@Suite struct TimeScaleTests {
    let second = Micro.second
    let sixty = TimeScale(60)!

    @Test func acceptsWholeNumbersFromOneTo3600Only() {
        #expect(TimeScale(parsing: "1")?.factor == 1)
        #expect(TimeScale(parsing: "60")?.factor == 60)
        #expect(TimeScale(parsing: "3600")?.factor == 3600)
        for bad in ["", "0", "3601", "-1", "+60", "1.5", "60x", " 60", "abc", "99999999999999999999"] {
            #expect(TimeScale(parsing: bad) == nil, "'\(bad)' was accepted")
        }
        #expect(TimeScale(0) == nil && TimeScale(3601) == nil)
        #expect(TimeScale.real.isReal && !sixty.isReal)
    }

    @Test func theIntervalPassesInSecondsAndTheBreakInRealTime() throws {
        var s = Sim(calendar: utc, now: t0, timeScale: sixty)
        #expect(s.status.nextBreak == t0 + 20 * second)  // 20 minutes / 60
        s.run(until: t0 + 20 * second)
        #expect(s.dueTimes == ["10:00:20"])
        #expect(s.status.state == .due)
        try s.send(.startBreak)
        // BreakDuration is not scaled: 20 real seconds.
        #expect(s.status.breakEnds == s.now + 20 * second)
        #expect(s.status.nextBreak == s.now + 40 * second)
        s.run(until: s.now + 20 * second)
        #expect(s.records == [BreakRecord(at: t0 + 40 * second, outcome: .completed, seconds: 20)])
        #expect(s.status.state == .waiting && s.status.nextBreak == t0 + 60 * second)
        #expect(s.engine.settings.interval == 1200, "the setting itself is unchanged")
    }

    @Test func snoozeAndATimedPauseAreScaledLikeTheInterval() throws {
        var s = Sim(calendar: utc, now: t0, timeScale: sixty)
        s.run(until: t0 + 20 * second)
        try s.send(.snooze(seconds: 0))  // SnoozeDuration 5 min → 5 s
        #expect(s.status.state == .snoozed && s.status.nextBreak == s.now + 5 * second)
        try s.send(.snooze(seconds: 600))  // 10 min → 10 s
        #expect(s.status.nextBreak == s.now + 10 * second)
        try s.send(.pause(seconds: 3600))  // an hour → a minute
        #expect(s.status.pausedUntil == s.now + 60 * second)
        #expect(s.status.nextBreak == s.now + 80 * second)
        s.run(until: s.now + 60 * second)
        #expect(s.status.state == .waiting)
        #expect(throws: ReminderError.self) { try s.send(.snooze(seconds: 30)) }  // the ranges are the settings' own
    }

    @Test func anUnansweredReminderBecomesAMissAfterAScaledInterval() {
        var s = Sim(calendar: utc, now: t0, timeScale: sixty)
        s.run(until: t0 + 40 * second)
        #expect(s.records == [BreakRecord(at: t0 + 40 * second, outcome: .missed, seconds: 0)])
        #expect(s.dueTimes == ["10:00:20", "10:00:40"])
    }

    @Test func timeAwayIsMeasuredInRealSeconds() throws {
        var s = Sim(calendar: utc, now: t0, timeScale: sixty)
        // Locked for 10 s: less than a real 20-second break, so no natural record.
        try s.send(.locked(true), at: t0 + 5 * second)
        try s.send(.locked(false), at: t0 + 15 * second)
        #expect(s.records(.natural).isEmpty)
        // 25 s away is a natural break of 25 s, and a scaled interval follows.
        try s.send(.locked(true), at: s.now + 2 * second)
        try s.send(.locked(false), at: s.now + 25 * second)
        #expect(s.records(.natural) == [BreakRecord(at: s.now, outcome: .natural, seconds: 25)])
        #expect(s.status.nextBreak == s.now + 20 * second)
    }

    @Test func activeHoursStayOnTheWallClock() {
        let office = settings([.activeHours: .string("09:00-17:30")])
        var s = Sim(office, calendar: utc, now: at(2025, 3, 24, "08:59", utc), timeScale: sixty)
        #expect(s.status.state == .inactive)
        #expect(s.status.nextBreak == at(2025, 3, 24, "09:00", utc) + 20 * second)
        s.answer = .skip
        s.run(until: at(2025, 3, 24, "09:02:10", utc))
        #expect(s.dueTimes == series(from: "09:00:20", every: 20, before: "09:02:10"))
        s.clearLog()
        s.run(until: at(2025, 3, 24, "17:29:30", utc))
        s.clearLog()
        s.run(until: at(2025, 3, 24, "18:00", utc))
        #expect(s.dueTimes == ["17:29:40"], "none after 17:30")
        #expect(s.status.state == .inactive)
    }

    @Test func aNewIntervalIsScaledToo() throws {
        var s = Sim(calendar: utc, now: t0, timeScale: sixty)
        var changed = s.engine.settings
        try changed.set(.interval, to: .uint(1800))
        try s.send(.settingsChanged(changed), at: t0 + 5 * second)
        #expect(s.status.nextBreak == t0 + 30 * second)
    }
}
