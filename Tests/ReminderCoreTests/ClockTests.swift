@testable import ReminderCore
import Testing

@Suite struct ClockTests {
    @Test func aJumpForwardGivesOneReminderNotABurst() throws {
        var s = sim(in: .waiting)
        s.now += 5 * 60 * minute
        let effects = try s.send(.clockChanged)
        #expect(effects == [.breakDue(at: s.now)])
        #expect(s.status.state == .due && s.status.nextBreak == s.now)
        s.clearLog()
        let wentOut = s.now
        s.now += 5 * 60 * minute  // and again while the reminder is out: one miss, one fresh reminder
        let again = try s.send(.clockChanged)
        #expect(again == [.record(BreakRecord(at: wentOut + 20 * minute, outcome: .missed, seconds: 0)),
                          .breakMissed(at: wentOut + 20 * minute), .breakDue(at: s.now)])
    }

    @Test func aJumpBackKeepsEachCountdownsRemainingTime() throws {
        var s = sim(in: .waiting)
        try s.send(.timer)  // the engine learns the time: 15 min left (it measures from its last event)
        s.now -= 60 * minute
        #expect(try s.send(.clockChanged).isEmpty)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 15 * minute)
        #expect(s.engine.nextDeadline == s.now + 15 * minute)
        try s.send(.startBreak)
        s.now -= 10 * minute
        try s.send(.clockChanged)
        #expect(s.status.breakEnds == s.now + Micro.seconds(20))
        try s.send(.pause(seconds: 600), at: s.now + minute)
        s.now -= 30 * minute
        try s.send(.resume)  // any event with an earlier time is a jump back
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func aJumpBackMeasuresFromTheLastEvent() throws {
        var s = sim(in: .waiting)  // the last event was at t0, the start of the interval
        s.now -= 60 * minute
        try s.send(.clockChanged)
        #expect(s.status.nextBreak == s.now + 20 * minute)  // never more than a full interval, never negative
    }

    @Test func aJumpBackWhileDueKeepsHowLongItHasBeenDue() throws {
        var s = sim(in: .due)
        try s.send(.timer, at: s.now + 3 * minute)
        s.now -= 2 * 60 * minute
        try s.send(.clockChanged)
        #expect(s.status.state == .due && s.status.nextBreak == s.now - 3 * minute)
        s.run(until: s.now + 17 * minute)
        #expect(s.records(.missed).map(\.at) == [s.now])
    }

    @Test func aTimeZoneChangeReEvaluatesTheActiveHours() throws {
        // The machine's zone moves from UTC+1 to UTC+6 under the engine: 14:05 local becomes 19:05.
        let zone = SwitchableCalendar(OffsetCalendar(offsetSeconds: 3600))
        let start = at(2025, 3, 24, "13:00", utc)
        var engine = ReminderEngine(settings: officeHours, calendar: zone, now: start)
        #expect(engine.status.state == .waiting && engine.status.nextBreak == start + 20 * minute)
        zone.switchTo(OffsetCalendar(offsetSeconds: 6 * 3600))
        let effects = try engine.handle(.clockChanged, at: start + 5 * minute)
        #expect(effects.isEmpty)
        #expect(engine.status.state == .inactive)
        #expect(engine.status.nextBreak == at(2025, 3, 25, "03:20", utc))  // 09:20 at UTC+6
        #expect(engine.nextDeadline == at(2025, 3, 24, "18:00", utc))      // local midnight at UTC+6
    }

    @Test func theTodayCountersDropAtLocalMidnight() throws {
        var s = Sim(calendar: cet, now: at(2025, 3, 24, "23:30"))
        try s.send(.skip)
        try s.send(.startBreak, at: at(2025, 3, 24, "23:40"))
        s.run(until: at(2025, 3, 24, "23:59"))
        #expect(s.status.completedToday == 1 && s.status.skippedToday == 1)
        #expect(s.engine.nextDeadline == at(2025, 3, 25, "00:00"))
        let timers = s.timers
        s.run(until: at(2025, 3, 25, "00:00"))
        #expect(s.timers == timers + 1)
        #expect(s.status.completedToday == 0 && s.status.skippedToday == 0)
    }

    @Test(arguments: [(3, 30, 23), (10, 26, 25)])
    func daylightSavingDaysAreShortAndLong(month: Int, day: Int, hours: Int) throws {
        var s = Sim(calendar: cet, now: at(2025, month, day, "00:00"))
        try s.send(.skip)
        try s.send(.pause(seconds: 0))
        #expect(s.status.skippedToday == 1)
        let midnight = at(2025, month, day + 1, "00:00")
        #expect(midnight - at(2025, month, day, "00:00") == Micro.seconds(hours * 3600))
        s.run(until: midnight - 1)
        #expect(s.status.skippedToday == 1)
        s.run(until: midnight)
        #expect(s.status.skippedToday == 0)
    }

    @Test func activeHoursOverMidnightAcrossTheSpringChange() {
        // 22:00-06:00 from Saturday into Sunday 30 March: 8 wall hours, 7 real ones.
        var s = Sim(settings([.activeHours: .string("22:00-06:00")]), calendar: cet, now: at(2025, 3, 29, "21:00"))
        s.answer = .skip
        s.run(until: at(2025, 3, 30, "07:00"))
        #expect(s.dueTimes == series(from: "22:20:00", every: 1200, before: "24:00:00")
                + series(from: "00:00:00", every: 1200, before: "02:00:00")
                + series(from: "03:00:00", every: 1200, before: "06:00:00"))
        #expect(s.records(.skipped).count == 20)
    }
}
