@testable import ReminderCore
import Testing

/// A simulated working week, Monday 24 March to Monday 31 March 2025 in
/// Central European time (the clocks go forward on Sunday 30 March), with
/// active hours 09:00–17:30 and weekdays only. Every reminder time is exact.
@Suite struct WorkingWeekTests {
    @Test func aWorkingWeekGivesExactReminderTimes() throws {
        let clock = ContinuousClock()
        let started = clock.now
        var sim = Sim(officeHours, now: at(2025, 3, 24, "08:00"))
        #expect(sim.status.state == .inactive)
        #expect(sim.status.nextBreak == at(2025, 3, 24, "09:20"))

        // Monday: every reminder answered with a break at once; each cycle is 20 min + 20 s.
        sim.answer = .startBreak
        sim.run(until: at(2025, 3, 24, "17:29"))
        let monday = series(from: "09:20:00", every: 1220, before: "17:30:00")
        #expect(monday.count == 25)
        #expect(monday.last == "17:28:00")
        #expect(sim.dueTimes == monday)
        #expect(sim.status.state == .waiting)
        #expect(sim.status.completedToday == 25)
        // The next countdown (17:48:20) would end after the active hours: NextBreak is Tuesday's first.
        #expect(sim.status.nextBreak == at(2025, 3, 25, "09:20"))
        sim.run(until: at(2025, 3, 24, "17:30"))
        #expect(sim.status.state == .inactive)
        #expect(sim.status.nextBreak == at(2025, 3, 25, "09:20"))

        // Tuesday: snooze, break, skip, a timed pause, a missed reminder, a pause until resumed.
        sim.clearLog()
        sim.answer = .none
        try sim.send(.snooze(seconds: 0), at: at(2025, 3, 25, "09:20"))
        #expect(sim.status.state == .snoozed)
        #expect(sim.status.nextBreak == at(2025, 3, 25, "09:25"))
        try sim.send(.startBreak, at: at(2025, 3, 25, "09:25"))
        try sim.send(.skip, at: at(2025, 3, 25, "09:45:20"))
        let pause = try sim.send(.pause(seconds: 3600), at: at(2025, 3, 25, "10:00"))
        #expect(pause.isEmpty)
        #expect(sim.status.state == .paused && sim.status.pauseReason == .user)
        #expect(sim.status.pausedUntil == at(2025, 3, 25, "11:00"))
        #expect(sim.status.nextBreak == at(2025, 3, 25, "11:20"))
        sim.run(until: at(2025, 3, 25, "11:41"))  // 11:20 goes unanswered
        #expect(sim.status.state == .due)
        #expect(sim.status.nextBreak == at(2025, 3, 25, "11:40"))
        try sim.send(.startBreak)
        try sim.send(.pause(seconds: 0), at: at(2025, 3, 25, "12:30"))  // 12:01:20 went unanswered too: one miss, one fresh reminder
        #expect(sim.status.state == .paused)
        #expect(sim.status.nextBreak == 0 && sim.status.pausedUntil == 0)
        try sim.send(.resume, at: at(2025, 3, 25, "13:00"))
        #expect(sim.status.nextBreak == at(2025, 3, 25, "13:20"))
        sim.answer = .skip
        sim.run(until: at(2025, 3, 25, "23:59"))
        #expect(sim.dueTimes == ["09:20:00", "09:25:00", "09:45:20", "11:20:00", "11:40:00", "12:01:20", "12:21:20"]
                + series(from: "13:20:00", every: 1200, before: "17:30:00"))
        #expect(sim.records(.completed).map { hms($0.at) } == ["09:25:20", "11:41:20"])
        #expect(sim.records(.completed).allSatisfy { $0.seconds == 20 })
        #expect(sim.records(.skipped).map { hms($0.at) } == ["09:45:20"] + series(from: "13:20:00", every: 1200, before: "17:30:00"))
        #expect(sim.records(.missed).map { hms($0.at) } == ["11:40:00", "12:21:20"])
        #expect((sim.records(.skipped) + sim.records(.missed)).allSatisfy { $0.seconds == 0 })
        #expect(sim.log.filter { $0 == .breakSnoozed(until: at(2025, 3, 25, "09:25")) }.count == 1)
        #expect(sim.status.completedToday == 2 && sim.status.skippedToday == 14 && sim.status.missedToday == 2)

        // Wednesday: breaks all day, the screen locked over lunch.
        sim.clearLog()
        sim.answer = .startBreak
        try sim.send(.locked(true), at: at(2025, 3, 26, "12:00"))
        #expect(sim.status.state == .paused && sim.status.pauseReason == .locked)
        try sim.send(.locked(false), at: at(2025, 3, 26, "13:00"))
        sim.run(until: at(2025, 3, 26, "23:00"))
        #expect(sim.dueTimes == series(from: "09:20:00", every: 1220, before: "12:00:00")
                + series(from: "13:20:00", every: 1220, before: "17:30:00"))
        #expect(sim.records(.natural) == [BreakRecord(at: at(2025, 3, 26, "13:00"), outcome: .natural, seconds: 3600)])
        #expect(sim.status.completedToday == 8 + 13 + 1)

        // Thursday: do-not-disturb with policy defer holds a reminder; an idle lunch counts as a break.
        sim.clearLog()
        try sim.send(.settingsChanged(officeHours.setting(.dndPolicy, to: .string("defer"))), at: at(2025, 3, 27, "08:00"))
        try sim.send(.doNotDisturb(true), at: at(2025, 3, 27, "09:50"))
        sim.run(until: at(2025, 3, 27, "10:10"))
        #expect(sim.status.state == .due && sim.status.reminderHeld)
        #expect(sim.status.nextBreak == at(2025, 3, 27, "10:00:40"))
        try sim.send(.doNotDisturb(false), at: at(2025, 3, 27, "10:30"))
        sim.run(until: at(2025, 3, 27, "12:00:20"))
        sim.answer = .none
        _ = try sim.engine.handle(.idle(true), at: at(2025, 3, 27, "12:00"))  // the idle watch fired 20 s in
        try sim.send(.idle(false), at: at(2025, 3, 27, "12:45"))
        sim.answer = .startBreak
        sim.run(until: at(2025, 3, 27, "23:00"))
        #expect(sim.dueTimes == ["09:20:00", "09:40:20", "10:30:00", "10:50:20", "11:10:40", "11:31:00", "11:51:20", "12:11:40"]
                + series(from: "13:05:00", every: 1220, before: "17:30:00"))
        #expect(sim.records(.natural) == [BreakRecord(at: at(2025, 3, 27, "12:45"), outcome: .natural, seconds: 2700)])
        #expect(sim.records(.skipped).isEmpty)
        #expect(sim.status.completedToday == 7 + 1 + 14)

        // Friday as Monday; then a weekend with no reminders across the change to summer time.
        sim.clearLog()
        sim.run(until: at(2025, 3, 28, "23:00"))
        #expect(sim.dueTimes == monday)
        sim.clearLog()
        let timersBefore = sim.timers
        sim.run(until: at(2025, 3, 31, "08:59"))
        #expect(sim.log.isEmpty)
        #expect(sim.timers - timersBefore == 3)  // midnights of Saturday, Sunday and Monday only
        #expect(sim.status.state == .inactive)
        #expect(sim.status.completedToday == 0)

        // Monday in summer time: 09:20 local is 07:20 UTC.
        #expect(sim.status.nextBreak == at(2025, 3, 31, "07:20", utc))
        sim.run(until: at(2025, 3, 31, "10:00"))
        #expect(sim.dueTimes == ["09:20:00", "09:40:20"])

        #expect(clock.now - started < .milliseconds(500))
    }
}
