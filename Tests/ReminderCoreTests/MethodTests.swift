@testable import ReminderCore
import Testing

/// 10:00 UTC on Monday 24 March 2025.
let t0 = at(2025, 3, 24, "10:00", utc)
let minute = Micro.seconds(60)

/// A simulation on UTC, always active, brought into `state` at `t0` + a few minutes.
func sim(in state: ReminderState) -> Sim {
    switch state {
    case .inactive:
        return Sim(settings([.activeHours: .string("06:00-07:00")]), calendar: utc, now: t0)
    case .waiting:
        var s = Sim(calendar: utc, now: t0)
        s.run(until: t0 + 5 * minute)
        return s
    default:
        var s = Sim(calendar: utc, now: t0)
        s.run(until: t0 + 20 * minute)
        switch state {
        case .due, .waiting, .inactive: break
        case .break: try! s.send(.startBreak)
        case .snoozed: try! s.send(.snooze(seconds: 0))
        case .paused: try! s.send(.pause(seconds: 0))
        }
        s.clearLog()
        return s
    }
}

@Suite struct MethodTests {
    @Test(arguments: [ReminderState.waiting, .due, .snoozed, .paused, .inactive])
    func startBreakRunsFromAnyStateButBreak(_ state: ReminderState) throws {
        var s = sim(in: state)
        let effects = try s.send(.startBreak)
        #expect(effects == [.breakStarted(ends: s.now + Micro.seconds(20))])
        #expect(s.status.state == .break && s.status.breakEnds == s.now + Micro.seconds(20))
        let ends = s.now + Micro.seconds(20)
        s.run(until: ends)
        #expect(s.log.suffix(2) == [.record(BreakRecord(at: ends, outcome: .completed, seconds: 20)), .breakCompleted(at: ends)])
        // After the break the state it interrupted returns: a pause stays, inactive stays.
        let after: ReminderState = state == .paused ? .paused : state == .inactive ? .inactive : .waiting
        #expect(s.status.state == after)
        if after == .waiting { #expect(s.status.nextBreak == ends + 20 * minute) }
    }

    @Test func startBreakDuringABreakIsAnInvalidState() {
        var s = sim(in: .break)
        let before = s.engine.snapshot
        #expect(throws: ReminderError.invalidState("Cannot start a break while a break is running.")) {
            try s.send(.startBreak)
        }
        #expect(s.engine.snapshot == before)
        #expect(s.status.nextBreak == s.status.breakEnds + 20 * minute)
    }

    @Test(arguments: [ReminderState.waiting, .due, .snoozed, .break])
    func skipRecordsASkipAndStartsAFullInterval(_ state: ReminderState) throws {
        var s = sim(in: state)
        s.run(until: s.now + Micro.seconds(5))
        let effects = try s.send(.skip)
        #expect(effects == [.record(BreakRecord(at: s.now, outcome: .skipped, seconds: 0)), .breakSkipped(at: s.now)])
        #expect(s.status.state == .waiting)
        #expect(s.status.nextBreak == s.now + 20 * minute)
        #expect(s.status.skippedToday == 1)
    }

    @Test func skipAndSnoozeAreInvalidWhilePausedOrInactive() {
        var paused = sim(in: .paused)
        #expect(throws: ReminderError.invalidState("Cannot skip while paused; resume first.")) { try paused.send(.skip) }
        #expect(throws: ReminderError.invalidState("Cannot snooze while paused; resume first.")) {
            try paused.send(.snooze(seconds: 0))
        }
        var inactive = sim(in: .inactive)
        #expect(throws: ReminderError.invalidState("Cannot skip while inactive; reminders are off outside the active hours.")) {
            try inactive.send(.skip)
        }
        #expect(throws: ReminderError.invalidState("Cannot snooze while inactive; reminders are off outside the active hours.")) {
            try inactive.send(.snooze(seconds: 120))
        }
        var locked = sim(in: .waiting)
        try! locked.send(.locked(true))
        #expect(throws: ReminderError.invalidState("Cannot skip while paused because the screen is locked.")) {
            try locked.send(.skip)
        }
        var dnd = sim(in: .waiting)
        try! dnd.send(.doNotDisturb(true))
        #expect(throws: ReminderError.invalidState("Cannot snooze while paused for do-not-disturb; reminders come back when it ends.")) {
            try dnd.send(.snooze(seconds: 0))
        }
        #expect(paused.log.isEmpty && inactive.log.isEmpty)
    }

    @Test(arguments: [ReminderState.waiting, .due, .snoozed, .break])
    func snoozeSetsTheReminderToNowPlusSeconds(_ state: ReminderState) throws {
        var s = sim(in: state)
        let effects = try s.send(.snooze(seconds: 600))
        #expect(effects == [.breakSnoozed(until: s.now + 10 * minute)])
        #expect(s.status.state == .snoozed && s.status.nextBreak == s.now + 10 * minute)
        s.run(until: s.now + 10 * minute)
        #expect(s.log.last == .breakDue(at: s.now))
        #expect(s.records.isEmpty)  // a snoozed break is neither completed nor skipped
    }

    @Test func snoozeZeroUsesTheConfiguredDurationAndBadValuesAreInvalidArgs() throws {
        var s = sim(in: .due)
        try s.send(.settingsChanged(settings([.snoozeDuration: .uint(90)])))
        let message = "Snooze takes 60 to 3600 seconds (0 for the configured SnoozeDuration)."
        for bad: UInt32 in [1, 59, 3601, .max] {
            #expect(throws: ReminderError.invalidArgs(message)) { try s.send(.snooze(seconds: bad)) }
        }
        #expect(s.status.state == .due)
        #expect(try s.send(.snooze(seconds: 0)) == [.breakSnoozed(until: s.now + Micro.seconds(90))])
        #expect(try s.send(.snooze(seconds: 3600)) == [.breakSnoozed(until: s.now + Micro.seconds(3600))])
    }

    @Test(arguments: [ReminderState.waiting, .due, .snoozed, .break, .paused, .inactive])
    func pauseWorksInEveryState(_ state: ReminderState) throws {
        var s = sim(in: state)
        let effects = try s.send(.pause(seconds: 1800))
        #expect(effects.isEmpty)  // a break cut short by a pause is not recorded
        #expect(s.status.state == .paused && s.status.pauseReason == .user)
        #expect(s.status.pausedUntil == s.now + 30 * minute)
        #expect(s.status.breakEnds == 0)
        s.run(until: s.now + 30 * minute)
        #expect(s.status.state == (state == .inactive ? .inactive : .waiting))
        if state != .inactive { #expect(s.status.nextBreak == s.now + 20 * minute) }
        #expect(s.records.isEmpty)
    }

    @Test func pauseArgumentsAndReplacement() throws {
        var s = sim(in: .waiting)
        #expect(throws: ReminderError.invalidArgs("Pause takes at most 86400 seconds (0 to pause until Resume).")) {
            try s.send(.pause(seconds: 86_401))
        }
        try s.send(.pause(seconds: 86_400))
        #expect(s.status.pausedUntil == s.now + Micro.seconds(86_400))
        try s.send(.pause(seconds: 600))  // replaces, does not add
        #expect(s.status.pausedUntil == s.now + 10 * minute)
        #expect(s.status.nextBreak == s.now + 30 * minute)
        try s.send(.pause(seconds: 0))
        #expect(s.status.pausedUntil == 0 && s.status.nextBreak == 0 && s.status.state == .paused)
        s.run(until: s.now + Micro.seconds(86_400 * 2))
        #expect(s.status.state == .paused)
    }

    @Test func resumeEndsAUserPauseAndIsANoOpOtherwise() throws {
        var s = sim(in: .waiting)
        let before = s.status
        #expect(try s.send(.resume).isEmpty)
        #expect(s.status == before)
        try s.send(.pause(seconds: 0))
        s.run(until: s.now + 7 * minute)
        try s.send(.resume)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
        try s.send(.doNotDisturb(true))
        try s.send(.resume)
        #expect(s.status.state == .paused && s.status.pauseReason == .dnd)
    }

    @Test func anUnansweredReminderBecomesOneMissAndAFreshReminder() {
        var s = Sim(calendar: utc, now: t0)
        s.run(until: t0 + 20 * minute)
        #expect(s.log == [.breakDue(at: t0 + 20 * minute)])
        s.clearLog()
        s.run(until: t0 + 40 * minute)
        let miss = t0 + 40 * minute
        #expect(s.log == [.record(BreakRecord(at: miss, outcome: .missed, seconds: 0)), .breakMissed(at: miss), .breakDue(at: miss)])
        #expect(s.status.state == .due && s.status.nextBreak == miss)
        #expect(s.status.missedToday == 1 && s.status.skippedToday == 0, "a reminder nobody answered is not a Skip")
    }

    @Test func todaysHistoryCountsSkipsAndMissesApartAndOldSkipsStaySkips() {
        // A day written by iCare 0.5 (its unanswered reminders were `skipped` then) and one by this version.
        let today = [BreakRecord(at: t0 - 3 * minute, outcome: .skipped, seconds: 0),
                     BreakRecord(at: t0 - 2 * minute, outcome: .missed, seconds: 0),
                     BreakRecord(at: t0 - minute, outcome: .completed, seconds: 20)]
        let engine = ReminderEngine(settings: Settings(), calendar: utc, now: t0, today: today)
        #expect(engine.status.skippedToday == 1 && engine.status.missedToday == 1 && engine.status.completedToday == 1)
        #expect(TallyText.today(engine.status) == "1 completed, 1 skipped, 1 missed")
        let old = ReminderEngine(settings: Settings(), calendar: utc, now: t0, today: [today[0]])
        #expect(TallyText.today(old.status) == "0 completed, 1 skipped", "a day without a miss reads as before")
    }

    @Test func aLongGapNeverPilesUpReminders() throws {
        var engine = ReminderEngine(settings: Settings(), calendar: utc, now: t0)
        _ = try engine.handle(.timer, at: t0 + 20 * minute)
        // The service missed five hours of deadlines (stopped, or the clock jumped).
        let late = t0 + 320 * minute
        let effects = try engine.handle(.timer, at: late)
        #expect(effects == [.record(BreakRecord(at: t0 + 40 * minute, outcome: .missed, seconds: 0)),
                            .breakMissed(at: t0 + 40 * minute), .breakDue(at: late)])
        #expect(engine.status.nextBreak == late)
        #expect(engine.nextDeadline == late + 20 * minute)
    }

    @Test func spuriousTimersAreHarmless() throws {
        var engine = ReminderEngine(settings: Settings(), calendar: utc, now: t0)
        let before = engine.status
        for offset in [0, 1, 60, 599, 1199] {
            #expect(try engine.handle(.timer, at: t0 + Micro.seconds(offset)).isEmpty)
        }
        #expect(engine.status == before)
        #expect(engine.nextDeadline == t0 + 20 * minute)
    }
}
