@testable import ReminderCore
import Testing

@Suite struct SettingsChangeTests {
    @Test func aLongerIntervalMovesNextBreakFromTheIntervalStart() throws {
        var s = sim(in: .waiting)  // interval started at t0
        try s.send(.settingsChanged(settings([.interval: .uint(1800)])))
        #expect(s.status.nextBreak == t0 + 30 * minute)
        #expect(s.engine.settings.interval == 1800)
    }

    @Test func aShorterIntervalThatHasPassedIsDueAtOnce() throws {
        var s = Sim(calendar: utc, now: t0)
        try s.send(.settingsChanged(settings([.interval: .uint(2700)])))
        s.run(until: t0 + 30 * minute)
        let effects = try s.send(.settingsChanged(settings([.interval: .uint(900)])))
        #expect(effects == [.breakDue(at: s.now)])
        #expect(s.status.state == .due)
    }

    @Test func aNewIntervalLeavesASnoozeAndABreakAlone() throws {
        var s = sim(in: .snoozed)
        let until = s.status.nextBreak
        try s.send(.settingsChanged(settings([.interval: .uint(2700)])))
        #expect(s.status.nextBreak == until)
        var b = sim(in: .break)
        let ends = b.status.breakEnds
        try b.send(.settingsChanged(settings([.interval: .uint(900), .breakDuration: .uint(30)])))
        #expect(b.status.breakEnds == ends && b.status.nextBreak == ends + 15 * minute)
    }

    @Test func activeHoursThatExcludeNowCloseAReminderWithoutARecord() throws {
        var s = sim(in: .due)
        try s.send(.settingsChanged(settings([.activeHours: .string("14:00-18:00")])))
        #expect(s.status.state == .inactive && s.records.isEmpty)
        #expect(s.status.nextBreak == at(2025, 3, 24, "14:20", utc))
        try s.send(.settingsChanged(Settings()), at: s.now + minute)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func weekdaysOnlyOnASaturdayIsInactiveUntilMonday() throws {
        var s = Sim(calendar: cet, now: at(2025, 3, 29, "11:00"))
        try s.send(.settingsChanged(settings([.weekdaysOnly: .bool(true)])))
        #expect(s.status.state == .inactive)
        #expect(s.status.nextBreak == at(2025, 3, 31, "00:20"))
        #expect(s.engine.nextDeadline == at(2025, 3, 30, "00:00"))
    }

    @Test func aShorterBreakDurationAppliesToTheNextBreak() throws {
        var s = sim(in: .due)
        try s.send(.settingsChanged(settings([.breakDuration: .uint(10)])))
        #expect(try s.send(.startBreak) == [.breakStarted(ends: s.now + Micro.seconds(10))])
    }
}
