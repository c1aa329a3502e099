@testable import ReminderCore
import Testing

@Suite struct SnapshotTests {
    func restarted(_ s: Sim, at t: Timestamp, today: [BreakRecord] = []) throws -> ReminderEngine {
        let text = s.engine.snapshot.encoded()
        let snapshot = try #require(EngineSnapshot(decoding: text))
        #expect(snapshot == s.engine.snapshot)
        return ReminderEngine(settings: s.engine.settings, calendar: utc, now: t, today: today, restoring: snapshot)
    }

    @Test(arguments: [ReminderState.waiting, .due, .break, .snoozed, .paused, .inactive])
    func everyStateRoundTrips(_ state: ReminderState) throws {
        var s = sim(in: state)
        try s.send(.timer)
        let snapshot = s.engine.snapshot
        #expect(EngineSnapshot(decoding: snapshot.encoded()) == snapshot)
        let timed = try { var t = s; try t.send(.pause(seconds: 600)); return t.engine.snapshot }()
        #expect(EngineSnapshot(decoding: timed.encoded()) == timed)
    }

    @Test func theTextIsSmallVersionedKeyValueLines() throws {
        var s = Sim(calendar: utc, now: t0)
        try s.send(.pause(seconds: 60))
        #expect(s.engine.snapshot.encoded() == """
            icare-engine=1
            clock=\(t0)
            phase=off
            pause=timed
            pausedUntil=\(t0 + minute)

            """)
        let waiting = Sim(calendar: utc, now: t0).engine.snapshot.encoded()
        #expect(waiting == "icare-engine=1\nclock=\(t0)\nphase=waiting\nstart=\(t0)\nnext=\(t0 + 20 * minute)\npause=none\n")
    }

    @Test func aRestartDoesNotResetTheCountdown() throws {
        var s = sim(in: .waiting)
        try s.send(.timer)
        let engine = try restarted(s, at: s.now + 2 * minute)
        #expect(engine.status.state == .waiting && engine.status.nextBreak == t0 + 20 * minute)
        #expect(engine.startupEffects.isEmpty)
    }

    @Test func aTimedPauseKeepsItsEnd() throws {
        var s = sim(in: .waiting)
        try s.send(.pause(seconds: 1800))
        let until = s.status.pausedUntil
        var engine = try restarted(s, at: s.now + 10 * minute)
        #expect(engine.status.state == .paused && engine.status.pausedUntil == until)
        #expect(engine.nextDeadline == until)
        _ = try engine.handle(.timer, at: until)
        #expect(engine.status.state == .waiting && engine.status.nextBreak == until + 20 * minute)
    }

    @Test func aBreakStillRunningResumes() throws {
        let s = sim(in: .break)
        let ends = s.status.breakEnds
        var engine = try restarted(s, at: s.now + Micro.seconds(8))
        #expect(engine.status.state == .break && engine.status.breakEnds == ends)
        #expect(engine.nextDeadline == ends)
        #expect(try engine.handle(.timer, at: ends) == [.record(BreakRecord(at: ends, outcome: .completed, seconds: 20)),
                                                      .breakCompleted(at: ends)])
    }

    @Test func aBreakThatEndedWhileDownIsRecordedAtItsEnd() throws {
        let s = sim(in: .break)
        let ends = s.status.breakEnds
        let engine = try restarted(s, at: ends + 5 * minute)
        #expect(engine.startupEffects == [.record(BreakRecord(at: ends, outcome: .completed, seconds: 20)),
                                          .breakCompleted(at: ends)])
        #expect(engine.status.state == .waiting && engine.status.nextBreak == ends + 20 * minute)
        #expect(engine.status.completedToday == 1)
    }

    @Test func aReminderOutAtRestartStaysOutWithoutANewSignal() throws {
        let s = sim(in: .due)
        let engine = try restarted(s, at: s.now + minute)
        #expect(engine.startupEffects.isEmpty)
        #expect(engine.status.state == .due && engine.status.nextBreak == s.status.nextBreak)
        let late = try restarted(s, at: s.now + 25 * minute)  // down past its unanswered time: one miss, one reminder
        #expect(late.startupEffects == [.record(BreakRecord(at: s.now + 20 * minute, outcome: .missed, seconds: 0)),
                                        .breakMissed(at: s.now + 20 * minute), .breakDue(at: s.now + 25 * minute)])
    }

    /// A reminder that fell due while the service was down must not be let
    /// out into a desktop that is already in do-not-disturb or locked.
    @Test func theDesktopAtStartUpHoldsAReminderMissedWhileDown() throws {
        var s = sim(in: .waiting)
        try s.send(.timer)
        let due = s.status.nextBreak
        let text = s.engine.snapshot.encoded()
        let snapshot = try #require(EngineSnapshot(decoding: text))
        let restart = due + minute
        func engine(_ policy: DndPolicy, dnd: Bool = false, locked: Bool = false) throws -> ReminderEngine {
            let settings = try s.engine.settings.setting(.dndPolicy, to: .string(policy.rawValue))
            return ReminderEngine(settings: settings, calendar: utc, now: restart, restoring: snapshot, doNotDisturb: dnd, locked: locked)
        }
        // Without the desktop: the missed reminder goes out at once.
        #expect(try engine(.pause).startupEffects == [.breakDue(at: restart)])
        // defer: due but held, no signal; it goes out when DND ends.
        var held = try engine(.defer, dnd: true)
        #expect(held.startupEffects.isEmpty)
        #expect(held.status.state == .due && held.status.reminderHeld && held.status.doNotDisturb)
        #expect(try held.handle(.doNotDisturb(false), at: restart + minute) == [.breakDue(at: restart + minute)])
        // pause: paused for DND, no signal; a full interval after it ends.
        var paused = try engine(.pause, dnd: true)
        #expect(paused.startupEffects.isEmpty)
        #expect(paused.status.state == .paused && paused.status.pauseReason == .dnd)
        _ = try paused.handle(.doNotDisturb(false), at: restart + minute)
        #expect(paused.status.state == .waiting && paused.status.nextBreak == restart + 21 * minute)
        // ignore: as without DND.
        #expect(try engine(.ignore, dnd: true).startupEffects == [.breakDue(at: restart)])
        // A locked screen: paused as locked, no signal, and the time down is not credited as rest.
        var locked = try engine(.pause, locked: true)
        #expect(locked.startupEffects.isEmpty)
        #expect(locked.status.state == .paused && locked.status.pauseReason == .locked)
        #expect(try locked.handle(.locked(false), at: restart + 5 * Micro.second) == [])
        #expect(locked.status.state == .waiting)
    }

    @Test func todayCountersComeFromTheHistory() throws {
        let yesterday = BreakRecord(at: t0 - 24 * 60 * minute, outcome: .completed, seconds: 20)
        let today = [yesterday,
                     BreakRecord(at: t0 - 60 * minute, outcome: .completed, seconds: 20),
                     BreakRecord(at: t0 - 50 * minute, outcome: .natural, seconds: 600),
                     BreakRecord(at: t0 - 40 * minute, outcome: .skipped, seconds: 0),
                     BreakRecord(at: t0 - 30 * minute, outcome: Outcome(rawValue: "future"), seconds: 5)]
        let engine = ReminderEngine(settings: Settings(), calendar: utc, now: t0, today: today)
        #expect(engine.status.completedToday == 2 && engine.status.skippedToday == 1)
    }

    @Test(arguments: [
        "", "hello", "icare-engine=2\nclock=1\nphase=off\npause=none\n", "clock=1\nphase=off\npause=none\n",
        "icare-engine=1\nphase=off\npause=none\n", "icare-engine=1\nclock=-5\nphase=off\npause=none\n",
        "icare-engine=1\nclock=1\nphase=break\nstart=10\nends=5\npause=none\n",
        "icare-engine=1\nclock=1\nphase=waiting\nstart=10\npause=none\n",
        "icare-engine=1\nclock=1\nphase=due\nstart=1\nsince=2\nheld=maybe\npause=none\n",
        "icare-engine=1\nclock=1\nclock=2\nphase=off\npause=none\n",
        "icare-engine=1\nclock=99999999999999999999999\nphase=off\npause=none\n",
        "icare-engine=1\nclock=1\nphase=off\npause=timed\n",
        "icare-engine=1\nclock=1\nphase=sideways\npause=none\n",
        "icare-engine=1\nclock=1\nphase=off\npause=none\njunk line\n",
        "\u{0}\u{1}\u{FFFD}==\n=\n",
    ])
    func garbageDecodesToNil(_ text: String) {
        #expect(EngineSnapshot(decoding: text) == nil)
    }

    @Test func commentsBlankLinesAndUnknownKeysAreAccepted() {
        let text = "# written by icared\n\nicare-engine=1\nclock=5\nphase=off\npause=open\nlater-addition=1\n"
        let snapshot = EngineSnapshot(decoding: text)
        #expect(snapshot != nil)
        let engine = ReminderEngine(settings: Settings(), calendar: utc, now: 10, restoring: snapshot)
        #expect(engine.status.state == .paused && engine.status.pausedUntil == 0)
    }
}
