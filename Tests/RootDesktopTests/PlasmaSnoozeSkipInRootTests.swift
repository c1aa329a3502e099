import Testing
import Foundation
import TestSupport

/// iCare's package (ICARE_DEB) on the real Plasma 6.3.6 (trixie) and 6.7.4 (forky) on X11, inside the
/// roots: the reminder popup's Snooze 5 min and Skip pressed with a real pointer (xdotool), as a person
/// presses them. What a person sees comes from the accessibility tree; what icared makes of the press,
/// from its properties on the root's session bus. The service runs 30 times faster (ICARE_TIME_SCALE):
/// the 5 minutes of a snooze pass in 10 s, the 45 minutes of the interval in 90 s.
@Suite(.serialized) struct PlasmaSnoozeSkipInRootTests {
    static let scale: UInt64 = 30
    static let snoozeMicros: UInt64 = 300_000_000 / scale, intervalMicros: UInt64 = 2_700_000_000 / scale

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func snoozeBringsTheReminderBackOnceAndSkipStartsAFreshInterval(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let plasma = try RootPlasma(release, variables: ["ICARE_TIME_SCALE": String(Self.scale)])
        defer { plasma.stop() }
        try plasma.configure("Interval = 45m\nBreakDuration = 10s\n")
        let v = "Plasma \(release.plasma)"

        // Snooze 5 min: the popup goes, icared snoozes for the snooze's length, nothing is counted.
        try plasma.restartDue()
        let reminder = try plasma.reminderPopup()
        let pressed = RootPlasma.nowMicros
        try plasma.press("Snooze 5 min", on: reminder)
        #expect(try plasma.state(becomes: "snoozed"), "Snooze 5 min did not snooze (\(v))")
        let snoozedAt = RootPlasma.nowMicros
        let next = try plasma.number("NextBreak")
        #expect(next >= pressed + Self.snoozeMicros - 1_000_000 && next <= snoozedAt + Self.snoozeMicros + 1_000_000,
                "NextBreak \(next) is not the snooze's \(Self.snoozeMicros) µs after the press at \(pressed) (\(v))")
        #expect(try plasma.noPopup(startingWith: RootPlasma.reminderSummary), "the reminder stayed after Snooze (\(v))")
        var counts = (skipped: try plasma.count("SkippedToday"), completed: try plasma.count("CompletedToday"))
        #expect(counts == (0, 0), "a snooze was counted (\(v)): \(counts)")
        #expect(try plasma.number("BreakEnds") == 0, "a countdown runs after Snooze (\(v))")

        // The snooze runs out: the reminder is back, once, not before its time.
        #expect(try plasma.state(becomes: "due", timeout: 25), "the reminder did not come back after the snooze (\(v))")
        let back = RootPlasma.nowMicros
        #expect(back + 500_000 >= next, "due at \(back), before the snooze's end \(next) (\(v))")
        let again = try plasma.reminderPopup()
        Thread.sleep(forTimeInterval: 1)  // a second popup would have come by now
        let shown = try plasma.popups()
        #expect(shown.count == 1 && shown[0].texts.contains(RootPlasma.reminderSummary), "after the snooze (\(v)): \(shown)")

        // Skip: the popup goes, one skipped break, a fresh interval, no countdown.
        let skipped = RootPlasma.nowMicros
        try plasma.press("Skip", on: again)
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try plasma.count("SkippedToday") == 1 }, "Skip counted no skipped break (\(v))")
        #expect(try plasma.state(becomes: "waiting"), "Skip did not start a new interval (\(v))")
        let fresh = try plasma.number("NextBreak")
        #expect(fresh >= skipped + Self.intervalMicros - 1_000_000 && fresh <= RootPlasma.nowMicros + Self.intervalMicros,
                "NextBreak \(fresh) is not a whole interval after the Skip at \(skipped) (\(v))")
        #expect(try plasma.noPopup(startingWith: RootPlasma.reminderSummary), "the reminder stayed after Skip (\(v))")
        #expect(try plasma.noPopup(startingWith: "Look far away"), "a countdown after Skip (\(v))")
        counts = (try plasma.count("SkippedToday"), try plasma.count("CompletedToday"))
        #expect(counts == (1, 0), "after Skip (\(v)): \(counts)")
        #expect(try plasma.number("BreakEnds") == 0, "Skip started a break (\(v))")
        print("\(v): Snooze and Skip pressed in \(PlasmaTrayInRootTests.elapsed(began))")
    }
}
