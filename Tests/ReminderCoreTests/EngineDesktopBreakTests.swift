@testable import ReminderCore
import Testing

/// GNOME's own eyesight break, taken (`ReminderEvent.desktopBreak`, from
/// `org.gnome.Shell.ScreenTime`): a rest, so no reminder straight after it.
@Suite struct EngineDesktopBreakTests {
    @Test func aGnomeBreakAnswersADueReminderAndStartsAFullInterval() throws {
        var s = sim(in: .due)
        let effects = try s.send(.desktopBreak(seconds: 25), at: s.now + minute)
        #expect(effects == [.record(BreakRecord(at: s.now, outcome: .natural, seconds: 25))])
        #expect(s.status.state == .waiting && s.status.nextBreak == s.now + 20 * minute)
        #expect(s.status.completedToday == 1)
    }

    @Test func whileWaitingItRestartsTheInterval() throws {
        var s = sim(in: .waiting)
        try s.send(.desktopBreak(seconds: 20), at: s.now + 10 * minute)
        #expect(s.records == [BreakRecord(at: s.now, outcome: .natural, seconds: 20)])
        #expect(s.status.nextBreak == s.now + 20 * minute)
    }

    @Test func theSameRestIsNotCountedTwiceWithTheIdleWatch() throws {
        var s = sim(in: .waiting)
        let idleStart = s.now
        s.run(until: idleStart + Micro.seconds(20))
        _ = try s.engine.handle(.idle(true), at: idleStart)
        // iCare's idle watch and GNOME's ScreenTime both tell of the return, in either order.
        try s.send(.idle(false), at: idleStart + 2 * minute)
        try s.send(.desktopBreak(seconds: 100), at: s.now + Micro.seconds(1))
        #expect(s.records == [BreakRecord(at: idleStart + 2 * minute, outcome: .natural, seconds: 120)])

        var t = sim(in: .waiting)
        let start = t.now
        t.run(until: start + Micro.seconds(20))
        _ = try t.engine.handle(.idle(true), at: start)
        try t.send(.desktopBreak(seconds: 100), at: start + 2 * minute)
        try t.send(.idle(false), at: t.now + Micro.seconds(1))
        #expect(t.records == [BreakRecord(at: start + 2 * minute, outcome: .natural, seconds: 100)])
        #expect(t.status.nextBreak == start + 2 * minute + 20 * minute)
    }

    @Test func notDuringACallAPauseOrABreak() throws {
        var s = sim(in: .waiting)
        let next = s.status.nextBreak
        try s.send(.busy(true))
        #expect(try s.send(.desktopBreak(seconds: 20), at: s.now + minute).isEmpty)
        #expect(s.status.nextBreak == next)

        var p = sim(in: .waiting)
        try p.send(.pause(seconds: 0))
        #expect(try p.send(.desktopBreak(seconds: 20), at: p.now + minute).isEmpty)
        #expect(p.status.state == .paused)

        var b = sim(in: .break)
        #expect(try b.send(.desktopBreak(seconds: 20)).isEmpty)
        #expect(b.status.state == .break)
    }
}
