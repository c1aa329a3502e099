@testable import ReminderCore
import Testing

/// A call, a screen share or a video (`ReminderEvent.busy`) under each
/// `BusyPolicy`, and beside do-not-disturb, pauses, locks and idleness.
@Suite struct EngineBusyTests {
    let grace = Micro.seconds(Int(ReminderEngine.busyGrace))

    func sim(_ policy: BusyPolicy, _ more: [SettingKey: SettingValue] = [:], timeScale: TimeScale = .real) -> Sim {
        var changes = more
        changes[.busyPolicy] = .string(policy.rawValue)
        var s = Sim(settings(changes), calendar: utc, now: t0, timeScale: timeScale)
        s.run(until: t0 + 5 * minute)
        return s
    }

    func dues(_ s: Sim) -> [Timestamp] { s.log.compactMap { if case .breakDue(let t) = $0 { t } else { nil } } }

    @Test func deferIsTheDefaultAndTheSettingReadsLikeDndPolicy() throws {
        #expect(Settings().busyPolicy == .defer)
        #expect(Settings().value(of: .busyPolicy) == .string("defer"))
        #expect(try SettingKey.busyPolicy.parse(text: " PAUSE ") == .string("pause"))
        #expect(try Settings().setting(.busyPolicy, to: .string("pause")).busyPolicy == .pause)
        #expect(throws: SettingError.self) { try Settings().setting(.busyPolicy, to: .string("later")) }
        #expect(throws: SettingError.self) { try Settings().setting(.busyPolicy, to: .bool(true)) }
        #expect(SettingKey(name: "busypolicy") == .busyPolicy && SettingKey.busyPolicy.signature == "s")
    }

    @Test func aReminderHeldThroughANinetyMinuteCallGoesOutOnceAfterTheGrace() throws {
        var s = sim(.defer)
        #expect(try s.send(.busy(true)).isEmpty)
        #expect(s.status.state == .waiting && s.status.nextBreak == t0 + 20 * minute)
        s.run(until: t0 + 95 * minute)
        #expect(s.log.isEmpty)  // no BreakDue, and the held reminder never turns into a skip
        #expect(s.status.state == .due && s.status.reminderHeld && s.status.nextBreak == t0 + 20 * minute)
        let end = t0 + 95 * minute
        #expect(try s.send(.busy(false)).isEmpty)
        #expect(s.status.reminderHeld && s.engine.nextDeadline == end + grace)
        s.run(until: end + grace)
        #expect(s.log == [.breakDue(at: end + grace)])
        #expect(s.status.state == .due && !s.status.reminderHeld && s.status.nextBreak == end + grace)
        s.run(until: end + grace + 19 * minute)
        #expect(s.log == [.breakDue(at: end + grace)])  // once
    }

    /// A full-screen window (a game, a presentation) left: the held reminder goes out at once,
    /// never counted as skipped; no grace as after a call.
    @Test func aReminderHeldForAFullScreenGoesOutAsSoonAsItEnds() throws {
        var s = sim(.defer)
        #expect(try s.send(.busy(true)).isEmpty)
        s.run(until: t0 + 65 * minute)
        #expect(s.log.isEmpty && s.status.reminderHeld && s.status.skippedToday == 0)
        let end = t0 + 65 * minute
        #expect(try s.send(.busy(false, grace: false)) == [.breakDue(at: end)])
        #expect(s.status.state == .due && !s.status.reminderHeld && s.status.nextBreak == end)
        s.run(until: end + 19 * minute)
        #expect(s.log == [.breakDue(at: end)])
    }

    @Test func aReminderFallingDueInTheGraceWaitsForItsEnd() throws {
        var s = sim(.defer)
        try s.send(.busy(true))
        try s.send(.busy(false), at: t0 + 19 * minute)
        s.run(until: t0 + 20 * minute)
        #expect(s.log.isEmpty && s.status.reminderHeld)
        s.run(until: t0 + 30 * minute)
        #expect(dues(s) == [t0 + 19 * minute + grace])
    }

    @Test func aCallThatEndedWellBeforeChangesNothing() throws {
        var s = sim(.defer)
        try s.send(.busy(true))
        try s.send(.busy(false), at: t0 + 10 * minute)
        s.run(until: t0 + 20 * minute)
        #expect(dues(s) == [t0 + 20 * minute])
    }

    @Test func theGraceIsScaledLikeTheInterval() throws {
        var s = sim(.defer, timeScale: TimeScale(60)!)
        try s.send(.busy(true))
        s.run(until: t0 + 10 * minute)
        #expect(s.status.reminderHeld)
        try s.send(.busy(false))
        #expect(s.engine.nextDeadline == s.now + Micro.seconds(2))
    }

    @Test func aReminderAlreadyOutStaysOut() throws {
        var s = sim(.defer)
        s.run(until: t0 + 20 * minute)
        try s.send(.busy(true), at: s.now + minute)
        #expect(s.status.state == .due && !s.status.reminderHeld)
        s.run(until: t0 + 40 * minute)  // unanswered: one miss; the fresh reminder is held
        #expect(s.records == [BreakRecord(at: t0 + 40 * minute, outcome: .missed, seconds: 0)])
        #expect(dues(s) == [t0 + 20 * minute] && s.status.reminderHeld)
    }

    @Test func pausePolicyPausesAndStartsAFullIntervalAfter() throws {
        var s = sim(.pause)
        #expect(try s.send(.busy(true)).isEmpty)
        #expect(s.status.state == .paused && s.status.pauseReason == .busy && s.status.nextBreak == 0)
        #expect(throws: ReminderError.invalidState("Cannot skip while paused for a call or video; reminders come back when it ends.")) {
            try s.send(.skip)
        }
        #expect(throws: ReminderError.self) { try s.send(.snooze(seconds: 0)) }
        s.run(until: t0 + 3 * 60 * minute)
        #expect(s.log.isEmpty)
        try s.send(.busy(false))
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
        #expect(s.log.isEmpty)
    }

    @Test func pausePolicyEndsARunningBreakAndClosesADueReminderWithoutRecords() throws {
        var s = sim(.pause)
        s.run(until: t0 + 20 * minute)
        try s.send(.busy(true), at: s.now + minute)
        #expect(s.status.state == .paused)
        try s.send(.busy(false), at: s.now + minute)
        try s.send(.startBreak)
        try s.send(.busy(true), at: s.now + Micro.seconds(10))
        s.run(until: s.now + 5 * minute)
        #expect(s.records.isEmpty && s.status.state == .paused && s.status.breakEnds == 0)
    }

    @Test func ignorePolicyChangesNothing() throws {
        var s = sim(.ignore)
        try s.send(.busy(true))
        s.run(until: t0 + 20 * minute)
        #expect(s.log == [.breakDue(at: t0 + 20 * minute)] && !s.status.reminderHeld)
        try s.send(.busy(false), at: s.now + minute)
        #expect(s.engine.nextDeadline == t0 + 40 * minute)
    }

    @Test func changingThePolicyDuringACallAppliesAtOnce() throws {
        var s = sim(.defer)
        try s.send(.busy(true))
        s.run(until: t0 + 20 * minute)
        #expect(s.status.reminderHeld)
        try s.send(.settingsChanged(settings([.busyPolicy: .string("ignore")])), at: s.now + minute)
        #expect(s.log == [.breakDue(at: s.now)])
        try s.send(.settingsChanged(settings([.busyPolicy: .string("pause")])), at: s.now + minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .busy)
        try s.send(.settingsChanged(settings([.busyPolicy: .string("defer")])), at: s.now + minute)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
        #expect(s.records.isEmpty)
    }

    @Test func deferredByBothDoNotDisturbAndACallUntilBothAreOver() throws {
        var s = sim(.defer, [.dndPolicy: .string("defer")])
        try s.send(.doNotDisturb(true))
        try s.send(.busy(true), at: t0 + 10 * minute)
        s.run(until: t0 + 30 * minute)
        try s.send(.doNotDisturb(false))
        #expect(s.log.isEmpty && s.status.reminderHeld)  // the call still holds it
        try s.send(.busy(false), at: t0 + 40 * minute)
        s.run(until: t0 + 50 * minute)
        #expect(dues(s) == [t0 + 40 * minute + grace])
    }

    @Test func doNotDisturbPausedAndACallHeld() throws {
        var s = sim(.defer, [.dndPolicy: .string("pause")])
        try s.send(.busy(true))
        try s.send(.doNotDisturb(true), at: t0 + 10 * minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .dnd)
        try s.send(.doNotDisturb(false), at: t0 + 30 * minute)  // a full interval from here, still in the call
        s.run(until: t0 + 60 * minute)
        #expect(s.log.isEmpty && s.status.reminderHeld && s.status.nextBreak == t0 + 50 * minute)
        try s.send(.busy(false))
        s.run(until: t0 + 70 * minute)
        #expect(dues(s) == [t0 + 60 * minute + grace])
    }

    @Test func bothPausingKeepsThePauseUntilBothEnd() throws {
        var s = sim(.pause, [.dndPolicy: .string("pause")])
        try s.send(.doNotDisturb(true))
        try s.send(.busy(true), at: s.now + minute)
        #expect(s.status.pauseReason == .busy)
        try s.send(.busy(false), at: s.now + minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .dnd)
        try s.send(.busy(true), at: s.now + minute)
        try s.send(.doNotDisturb(false), at: s.now + minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .busy)
        try s.send(.busy(false), at: s.now + minute)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func aUserPauseOutlastsTheCall() throws {
        var s = sim(.defer)
        try s.send(.busy(true))
        try s.send(.pause(seconds: 0), at: t0 + 10 * minute)
        s.run(until: t0 + 30 * minute)
        try s.send(.busy(false))
        #expect(s.status.state == .paused && s.status.pauseReason == .user)
        try s.send(.resume, at: t0 + 40 * minute)
        #expect(s.status.state == .waiting && s.status.nextBreak == t0 + 60 * minute)
        s.run(until: t0 + 60 * minute)
        #expect(dues(s) == [t0 + 60 * minute])
    }

    @Test func idleInACallIsNoNaturalBreak() throws {
        var s = sim(.defer)
        try s.send(.busy(true))
        _ = try s.engine.handle(.idle(true), at: s.now)
        s.run(until: s.now + 30 * minute)
        try s.send(.idle(false))
        try s.send(.busy(false), at: s.now + minute)
        s.run(until: t0 + 3 * 60 * minute)
        #expect(s.records(.natural).isEmpty)
    }

    @Test func idleFromBeforeTheCallIsDroppedAndCountsAgainFromItsEnd() throws {
        var s = sim(.ignore)
        _ = try s.engine.handle(.idle(true), at: s.now)
        try s.send(.busy(true), at: s.now + 5 * minute)  // a video started while the keyboard rested
        try s.send(.busy(false), at: s.now + 60 * minute)
        let end = s.now
        try s.send(.idle(false), at: end + 2 * minute)
        #expect(s.records(.natural) == [BreakRecord(at: end + 2 * minute, outcome: .natural, seconds: 120)])
    }

    @Test func aLockCountsOnlyItsTimeAfterTheCall() throws {
        var s = sim(.defer)
        try s.send(.busy(true))
        try s.send(.locked(true), at: s.now + minute)
        #expect(s.status.state == .paused && s.status.pauseReason == .locked)
        try s.send(.busy(false), at: s.now + 30 * minute)
        let end = s.now
        try s.send(.locked(false), at: end + 5 * minute)
        #expect(s.records == [BreakRecord(at: end + 5 * minute, outcome: .natural, seconds: 300)])
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func aLockWhollyInsideACallIsNoNaturalBreak() throws {
        var s = sim(.pause)
        try s.send(.busy(true))
        try s.send(.locked(true), at: s.now + minute)
        try s.send(.locked(false), at: s.now + 30 * minute)
        #expect(s.records.isEmpty && s.status.state == .paused && s.status.pauseReason == .busy)
        try s.send(.busy(false), at: s.now + minute)
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func aHeldReminderSurvivesARestartInACall() throws {
        var s = sim(.defer)
        try s.send(.busy(true))
        s.run(until: t0 + 30 * minute)
        let text = s.engine.snapshot.encoded()
        #expect(text.contains("held=1"))
        let snapshot = try #require(EngineSnapshot(decoding: text))
        let restart = t0 + 31 * minute
        var busy = ReminderEngine(settings: s.engine.settings, calendar: utc, now: restart, restoring: snapshot, busy: true)
        #expect(busy.startupEffects.isEmpty && busy.status.reminderHeld)
        #expect(try busy.handle(.busy(false), at: restart + minute).isEmpty)
        #expect(try busy.handle(.timer, at: restart + minute + grace) == [.breakDue(at: restart + minute + grace)])
        let free = ReminderEngine(settings: s.engine.settings, calendar: utc, now: restart, restoring: snapshot)
        #expect(free.startupEffects == [.breakDue(at: restart)])
    }

    @Test func theClockGoingBackMovesTheGraceWithIt() throws {
        var s = sim(.defer)
        try s.send(.busy(true))
        s.run(until: t0 + 30 * minute)
        try s.send(.busy(false))
        let back = s.now - 10 * minute
        s.now = back
        try s.send(.clockChanged)
        #expect(s.engine.nextDeadline == back + grace)
    }
}
