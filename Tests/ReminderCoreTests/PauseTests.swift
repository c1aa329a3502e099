@testable import ReminderCore
import Testing

@Suite struct PauseTests {
    @Test func overlappingCausesShowTheLatestAndAllMustEnd() throws {
        var s = sim(in: .waiting)
        try s.send(.pause(seconds: 0))
        #expect(s.status.pauseReason == .user)
        try s.send(.doNotDisturb(true), at: s.now + minute)
        #expect(s.status.pauseReason == .dnd)
        try s.send(.locked(true), at: s.now + minute)
        #expect(s.status.pauseReason == .locked)
        try s.send(.locked(false), at: s.now + 10 * minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .dnd)
        #expect(s.records(.natural) == [BreakRecord(at: s.now, outcome: .natural, seconds: 600)])
        try s.send(.doNotDisturb(false), at: s.now + minute)
        #expect(s.status.pauseReason == .user)
        #expect(s.status.nextBreak == 0)
        try s.send(.resume, at: s.now + minute)
        #expect(s.status.state == .waiting && s.status.pauseReason == .none)
        #expect(s.status.nextBreak == s.now + 20 * minute)
        #expect(s.log.filter { if case .breakDue = $0 { true } else { false } }.isEmpty)
    }

    @Test func aNewPauseBecomesTheShownReasonAgain() throws {
        var s = sim(in: .waiting)
        try s.send(.locked(true))
        try s.send(.pause(seconds: 600), at: s.now + minute)
        #expect(s.status.pauseReason == .user)
        #expect(s.status.nextBreak == 0)  // locked too: when reminders return is unknown
        s.run(until: s.now + 10 * minute)  // the timed pause ends; the lock still holds
        #expect(s.status.state == .paused && s.status.pauseReason == .locked && s.status.pausedUntil == 0)
    }

    @Test func aTimedPauseEndingUnderDoNotDisturbWaitsForIt() throws {
        var s = sim(in: .waiting)
        try s.send(.pause(seconds: 300))
        try s.send(.doNotDisturb(true), at: s.now + minute)
        s.run(until: s.now + 10 * minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .dnd)
        try s.send(.doNotDisturb(false), at: s.now + 5 * minute)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func aBreakStartedWhilePausedKeepsThePause() throws {
        var s = sim(in: .waiting)
        try s.send(.pause(seconds: 1800))
        try s.send(.startBreak, at: s.now + minute)
        #expect(s.status.state == .break && s.status.pauseReason == .none)
        #expect(s.status.pausedUntil == s.now + 29 * minute)
        #expect(s.status.nextBreak == s.now + 49 * minute)  // PausedUntil + Interval: the pause outlasts the break
        s.run(until: s.now + Micro.seconds(20))
        #expect(s.status.state == .paused && s.records(.completed).count == 1)
    }

    @Test func aPauseDuringABreakEndsItWithoutARecord() throws {
        var s = sim(in: .break)
        try s.send(.pause(seconds: 0), at: s.now + Micro.seconds(5))
        s.run(until: s.now + minute)
        #expect(s.records.isEmpty)
        #expect(s.status.breakEnds == 0 && s.status.state == .paused)
    }
}
