import Testing
import Foundation
import DBusKit
import TestSupport
import LoopSupport

/// Issue 17, point 5: GNOME's own eyesight break, taken, counts as a rest.
/// The real `icared` on a private bus beside a fake of GNOME Shell's
/// `org.gnome.Shell.ScreenTime` with its exact shape (`FakeScreenTime`,
/// docs/desktop-facts.md); what icared does is read through busctl only.
@Suite(.serialized) struct ScreenTimeServiceTests {
    static func wallSeconds() -> UInt64 { UInt64(Date().timeIntervalSince1970) }

    func rig(_ shell: FakeScreenTime) throws -> (ServiceHarness, LoopThread) {
        let s = try ServiceHarness(start: false)
        let desktop = try LoopThread()
        desktop.start()
        try shell.appear(on: desktop, address: s.bus.address)
        try s.start()
        #expect(waitUntil { s.log.contains("GNOME Shell's break manager is on the session bus") }, "log:\n\(s.log)")
        return (s, desktop)
    }

    @Test func aGnomeBreakTakenIsARestAndTheNextReminderIsAFullIntervalLater() throws {
        let shell = FakeScreenTime(state: 1, lastBreakEnd: Self.wallSeconds() - 1200)
        let (s, desktop) = try rig(shell)
        defer { desktop.stop(); s.stop() }
        let before = try s.number("NextBreak")
        #expect(try s.number("CompletedToday") == 0)
        Thread.sleep(forTimeInterval: 1.1)

        // GNOME's break runs while the person looks away (LastBreakEndTime is 0 meanwhile),
        // ends while they are still away (idle), and they come back (active, with the end).
        try desktop.sync { shell.set(state: 4, lastBreakEnd: Self.wallSeconds() - 1200) }
        try desktop.sync { shell.set(state: 3, lastBreakEnd: 0) }
        Thread.sleep(forTimeInterval: 1.1)
        try desktop.sync { shell.set(state: 2, lastBreakEnd: Self.wallSeconds() - 1200) }
        let back = Self.wallSeconds()
        try desktop.sync { shell.set(state: 1, lastBreakEnd: back) }

        #expect(try waitUntil { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        #expect(try s.string("State") == "waiting")
        let next = try s.number("NextBreak")
        #expect(next > before, "a full interval from the break's end")
        #expect(next >= back * 1_000_000 + 19 * 60 * 1_000_000)
        let history = try s.call("GetHistory", "tt", "0", "9223372036854775807").stdout
        #expect(history.contains("\"natural\""), "history: \(history)")
        #expect(s.log.contains("GNOME's own break was taken ("), "log:\n\(s.log)")
    }

    @Test func aBreakTakenByGoingIdleCountsFromWhenThePersonLeft() throws {
        // GNOME's idle watch says idle 10 s (MIN_BREAK_LENGTH_SECONDS) after the last input; a break over by
        // then never shows in-break (4 → 2 → 1). The rest began those 10 s before the idle state: on the real
        // 48.7 and 50.5 a 22 s rest was recorded as 12 s (GnomeBreakTakenInRootTests).
        let shell = FakeScreenTime(state: 4, lastBreakEnd: Self.wallSeconds() - 1200)
        let (s, desktop) = try rig(shell)
        defer { desktop.stop(); s.stop() }
        try desktop.sync { shell.set(state: 2, lastBreakEnd: Self.wallSeconds() - 1200) }
        Thread.sleep(forTimeInterval: 1.1)
        try desktop.sync { shell.set(state: 1, lastBreakEnd: Self.wallSeconds()) }
        #expect(try waitUntil { try s.number("CompletedToday") == 1 }, "log:\n\(s.log)")
        // busctl: a(tsu) 1 AT "natural" SECONDS
        let history = try s.call("GetHistory", "tt", "0", "9223372036854775807").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let seconds = history.split(separator: " ").last.flatMap { UInt32($0) }
        #expect(history.contains("\"natural\"") && seconds.map { (11...13).contains($0) } == true,
                "10 s before GNOME said idle, plus the 1 s until the end: \(history)")
    }

    @Test func anEndMovedWithoutABreakIsNoRest() throws {
        // GNOME's skip or delay moves LastBreakEndTime without a break.
        let shell = FakeScreenTime(state: 4, lastBreakEnd: Self.wallSeconds() - 1300)
        let (s, desktop) = try rig(shell)
        defer { desktop.stop(); s.stop() }
        let before = try s.number("NextBreak")
        try desktop.sync { shell.set(state: 1, lastBreakEnd: Self.wallSeconds()) }
        try desktop.sync { shell.set(state: 4, lastBreakEnd: Self.wallSeconds()) }
        // Nothing to wait for when nothing happens: half a second to get it wrong (a signal takes milliseconds).
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try s.number("CompletedToday") == 0)
        #expect(try s.number("NextBreak") == before)
        #expect(!s.log.contains("GNOME's own break was taken"), "log:\n\(s.log)")
    }

    @Test func withoutScreenTimeNothingIsSaid() throws {
        let s = try ServiceHarness()
        defer { s.stop() }
        #expect(try s.string("State") == "waiting")
        #expect(!s.log.contains("GNOME Shell's break manager is on the session bus"), "log:\n\(s.log)")
    }
}
