@testable import ReminderCore
import Testing

@Suite struct EngineDoNotDisturbTests {
    func sim(policy: DndPolicy) -> Sim {
        var s = Sim(settings([.dndPolicy: .string(policy.rawValue)]), calendar: utc, now: t0)
        s.run(until: t0 + 5 * minute)
        return s
    }

    @Test func pausePolicyPausesAndStartsAFullIntervalAfter() throws {
        var s = sim(policy: .pause)
        #expect(try s.send(.doNotDisturb(true)).isEmpty)
        #expect(s.status.state == .paused && s.status.pauseReason == .dnd && s.status.doNotDisturb)
        s.run(until: t0 + 3 * 60 * minute)
        #expect(s.log.isEmpty)
        try s.send(.doNotDisturb(false))
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute && !s.status.doNotDisturb)
    }

    @Test func pausePolicyEndsABreakAndClosesADueReminderWithoutRecords() throws {
        var s = sim(policy: .pause)
        s.run(until: t0 + 20 * minute)
        try s.send(.doNotDisturb(true))
        #expect(s.status.state == .paused)
        try s.send(.doNotDisturb(false), at: s.now + minute)
        try s.send(.startBreak)
        try s.send(.doNotDisturb(true), at: s.now + Micro.seconds(10))
        s.run(until: s.now + 5 * minute)
        #expect(s.records.isEmpty)
        #expect(s.status.state == .paused && s.status.breakEnds == 0)
    }

    @Test func deferPolicyHoldsAReminderUntilDoNotDisturbEnds() throws {
        var s = sim(policy: .defer)
        try s.send(.doNotDisturb(true))
        #expect(s.status.state == .waiting)
        s.run(until: t0 + 3 * 60 * minute)
        #expect(s.log.isEmpty)  // no BreakDue, and a held reminder never turns into a skip
        #expect(s.status.state == .due && s.status.reminderHeld && s.status.nextBreak == t0 + 20 * minute)
        #expect(s.engine.nextDeadline == at(2025, 3, 25, "00:00", utc))  // only the midnight roll-over
        let effects = try s.send(.doNotDisturb(false))
        #expect(effects == [.breakDue(at: s.now)])
        #expect(s.status.state == .due && !s.status.reminderHeld && s.status.nextBreak == s.now)
    }

    @Test func deferPolicyKeepsAReminderAlreadyOut() throws {
        var s = sim(policy: .defer)
        s.run(until: t0 + 20 * minute)
        try s.send(.doNotDisturb(true), at: s.now + minute)
        #expect(s.status.state == .due && !s.status.reminderHeld)
        s.run(until: t0 + 40 * minute)  // unanswered: one miss; the fresh reminder is held
        #expect(s.log.suffix(3) == [.breakDue(at: t0 + 20 * minute),
                                    .record(BreakRecord(at: t0 + 40 * minute, outcome: .missed, seconds: 0)),
                                    .breakMissed(at: t0 + 40 * minute)])
        #expect(s.status.reminderHeld)
    }

    @Test func ignorePolicyChangesNothing() throws {
        var s = sim(policy: .ignore)
        try s.send(.doNotDisturb(true))
        #expect(s.status.state == .waiting && s.status.doNotDisturb)
        s.run(until: t0 + 20 * minute)
        #expect(s.log == [.breakDue(at: t0 + 20 * minute)])
        #expect(!s.status.reminderHeld)
    }

    @Test func changingThePolicyDuringDoNotDisturbAppliesAtOnce() throws {
        var s = sim(policy: .defer)
        try s.send(.doNotDisturb(true))
        s.run(until: t0 + 20 * minute)
        #expect(s.status.reminderHeld)
        try s.send(.settingsChanged(settings([.dndPolicy: .string("ignore")])), at: s.now + minute)
        #expect(s.log == [.breakDue(at: s.now)])
        try s.send(.settingsChanged(settings([.dndPolicy: .string("pause")])), at: s.now + minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .dnd)
        try s.send(.settingsChanged(settings([.dndPolicy: .string("defer")])), at: s.now + minute)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
        #expect(s.records.isEmpty)
    }

    @Test func repeatedReportsAreNoOps() throws {
        var s = sim(policy: .pause)
        try s.send(.doNotDisturb(true))
        try s.send(.locked(true), at: s.now + minute)
        try s.send(.doNotDisturb(true), at: s.now + minute)
        #expect(s.status.pauseReason == .locked)
        #expect(try s.send(.doNotDisturb(false)).isEmpty)
        #expect(try s.send(.doNotDisturb(false)).isEmpty)
        #expect(s.status.pauseReason == .locked)
    }
}
