@testable import ReminderCore
import Testing

@Suite struct EnginePresenceTests {
    @Test func aLockShorterThanABreakIsNoRecordButRestartsTheInterval() throws {
        var s = sim(in: .waiting)
        try s.send(.locked(true))
        #expect(s.status.state == .paused && s.status.pauseReason == .locked && s.status.nextBreak == 0)
        let effects = try s.send(.locked(false), at: s.now + Micro.seconds(19))
        #expect(effects.isEmpty)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func aLockOfABreakOrLongerIsANaturalBreak() throws {
        var s = sim(in: .waiting)
        try s.send(.locked(true))
        let effects = try s.send(.locked(false), at: s.now + 5 * minute)
        #expect(effects == [.record(BreakRecord(at: s.now, outcome: .natural, seconds: 300))])
        #expect(s.status.completedToday == 1 && s.status.nextBreak == s.now + 20 * minute)
        try s.send(.locked(true))
        try s.send(.locked(false), at: s.now + 3 * 60 * minute)
        #expect(s.records(.natural).last?.seconds == ReminderEngine.naturalRestCap)
    }

    @Test func aLockAnswersADueReminderWithoutASkip() throws {
        var s = sim(in: .due)
        try s.send(.locked(true), at: s.now + minute)
        s.run(until: s.now + 60 * minute)
        try s.send(.locked(false))
        #expect(s.records == [BreakRecord(at: s.now, outcome: .natural, seconds: 3600)])
        #expect(s.status.state == .waiting)
    }

    @Test func aLockDuringABreakLetsItRunAndCountsOnlyTheTimeAfter() throws {
        var s = sim(in: .break)
        let ends = s.status.breakEnds
        try s.send(.locked(true), at: s.now + Micro.seconds(5))
        #expect(s.status.state == .break && s.status.breakEnds == ends)
        s.run(until: ends)
        #expect(s.status.state == .paused && s.status.pauseReason == .locked)
        try s.send(.locked(false), at: ends + Micro.seconds(30))
        #expect(s.records == [BreakRecord(at: ends, outcome: .completed, seconds: 20),
                              BreakRecord(at: s.now, outcome: .natural, seconds: 30)])
    }

    @Test func idleDuringWaitingCountsWhenThePersonReturns() throws {
        var s = sim(in: .waiting)  // t0 + 5 min; next reminder t0 + 20 min
        let idleStart = s.now
        s.run(until: idleStart + Micro.seconds(20))
        _ = try s.engine.handle(.idle(true), at: idleStart)
        #expect(s.status.state == .waiting)
        let effects = try s.send(.idle(false), at: idleStart + 10 * minute)
        #expect(effects == [.record(BreakRecord(at: s.now, outcome: .natural, seconds: 600))])
        #expect(s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func aShortIdleChangesNothing() throws {
        var s = sim(in: .waiting)
        let next = s.status.nextBreak
        _ = try s.engine.handle(.idle(true), at: s.now)
        #expect(try s.send(.idle(false), at: s.now + Micro.seconds(15)).isEmpty)
        #expect(s.status.nextBreak == next)
    }

    @Test func idleDuringDueAnswersTheReminder() throws {
        var s = sim(in: .due)  // due since t0 + 20 min
        let idleStart = s.now + minute
        s.run(until: idleStart + Micro.seconds(20))
        _ = try s.engine.handle(.idle(true), at: idleStart)
        s.run(until: t0 + 50 * minute)  // past when it would have become a skip
        #expect(s.log.isEmpty && s.status.state == .due)
        try s.send(.idle(false))
        #expect(s.records == [BreakRecord(at: s.now, outcome: .natural, seconds: 29 * 60)])
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func idleIsNotCountedDuringABreakOrAPause() throws {
        var s = sim(in: .break)
        _ = try s.engine.handle(.idle(true), at: s.now)
        s.run(until: s.now + 5 * minute)
        try s.send(.idle(false))
        #expect(s.records(.natural).isEmpty)
        try s.send(.pause(seconds: 0))
        _ = try s.engine.handle(.idle(true), at: s.now)
        try s.send(.idle(false), at: s.now + 5 * minute)
        #expect(s.records(.natural).isEmpty)
    }

    @Test func sleepAcrossADueReminderIsOneNaturalBreakAndNoBurst() throws {
        var s = sim(in: .due)
        try s.send(.sleep(true), at: s.now + 5 * minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .locked)
        // Asleep: the service gets no timers. It wakes 65 minutes later.
        s.now += 65 * minute
        let effects = try s.send(.sleep(false))
        #expect(effects == [.record(BreakRecord(at: s.now, outcome: .natural, seconds: 3600))])
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func sleepAcrossTheEndOfActiveHoursCountsOnlyActiveTime() throws {
        var s = Sim(officeHours, now: at(2025, 3, 24, "16:55"))
        try s.send(.sleep(true), at: at(2025, 3, 24, "17:00"))
        s.now = at(2025, 3, 25, "09:30")
        let effects = try s.send(.sleep(false))
        #expect(effects == [.record(BreakRecord(at: s.now, outcome: .natural, seconds: 1800))])
        #expect(s.status.state == .waiting && s.status.nextBreak == at(2025, 3, 25, "09:50"))
        // Over a weekend into the morning before active hours: nothing at all.
        try s.send(.sleep(true), at: at(2025, 3, 28, "17:00"))
        s.now = at(2025, 3, 31, "08:30")
        #expect(try s.send(.sleep(false)).isEmpty)
        #expect(s.status.state == .inactive && s.status.nextBreak == at(2025, 3, 31, "09:20"))
    }

    @Test func sleepWhileLockedEndsWithTheUnlock() throws {
        var s = sim(in: .waiting)
        try s.send(.locked(true))
        try s.send(.sleep(true), at: s.now + minute)
        s.now += 30 * minute
        #expect(try s.send(.sleep(false)).isEmpty)
        #expect(s.status.state == .paused && s.status.pauseReason == .locked)
        try s.send(.locked(false), at: s.now + minute)
        #expect(s.records == [BreakRecord(at: s.now, outcome: .natural, seconds: 32 * 60)])
    }
}
