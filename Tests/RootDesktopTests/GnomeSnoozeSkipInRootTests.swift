import Testing
import Foundation
import TestSupport

/// Snooze and Skip on the real GNOME Shell 48.7 and 50.5 (the package in the Debian roots), as a
/// person uses them: a real pointer (Mutter's RemoteDesktop) hovers the reminder's banner, which
/// GNOME draws with its buttons only while hovered, and clicks the button found by its place on the
/// screen. One shell per release: Snooze on the first reminder, Skip on the one that comes back.
@Suite(.serialized) struct GnomeSnoozeSkipInRootTests {
    static let reminder = "Time for an eye break"

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func snoozeAndSkipClickedWithThePointer(_ release: DesktopRoot.Release) throws {
        let began = Date()
        // Time scale 90: the 15 min interval passes in 10 s, the 5 min snooze in 3.3 s.
        let rig = try GnomeClicksRig(release, variables: ["ICARE_TIME_SCALE": "90"])
        defer { rig.stop() }
        try rig.recordAddedNotifications()
        let first = try rig.waitForReminder(breakSeconds: 10)
        let added = try rig.addedNotifications()
        #expect(added == [Self.reminder], "the shell added \(added)")

        // Snooze: the banner goes, icared snoozes for 5 min (scaled), nothing is skipped or completed.
        let snooze = try rig.clickButton("Snooze 5 min", onBanner: first)
        let clicked = Date()
        _ = try rig.bannerEvents()
        #expect(try rig.waitForState("snoozed"), "Snooze clicked at \(snooze): \(rig.state()); events \((try? rig.bannerEvents()) ?? "")")
        let snoozedFor = Double(Int64(try #require(try rig.number("NextBreak"))) - Self.now()) / 1e6
        #expect(snoozedFor > 2 && snoozedFor <= 300.0 / 90, "the next reminder \(snoozedFor) s after Snooze, not the snooze's 3.3 s")
        let gone = try waitUntil(timeout: 2, interval: 0.05) { try rig.shell.bannerBox() == nil }
        let after = try rig.shell.bannerTitle(), listed = try rig.listed()
        #expect(gone && after.isEmpty, "the banner stayed after Snooze: shown '\(after)'")
        #expect(!listed.contains(Self.reminder), "still listed after Snooze: \(listed)")
        let skipped = try rig.number("SkippedToday"), completed = try rig.number("CompletedToday")
        #expect(skipped == 0 && completed == 0, "Snooze counted: skipped \(String(describing: skipped)), completed \(String(describing: completed))")
        print("GNOME Shell \(release.gnomeShell): Snooze clicked at \(snooze), banner gone, next reminder in \(snoozedFor) s")

        // After the snooze, the reminder again: one new notification and one banner, due again.
        let back = try rig.waitForBanner(timeout: 15)
        let waited = Date().timeIntervalSince(clicked)
        #expect(waited >= 2.5, "the reminder came back \(waited) s after Snooze")
        #expect(rig.state() == "(<'due'>,)")
        let addedAfter = try rig.addedNotifications()
        #expect(addedAfter == [Self.reminder], "the shell added after Snooze: \(addedAfter)")
        let events = try rig.bannerEvents()
        #expect(try rig.listed() == [Self.reminder])
        print("GNOME Shell \(release.gnomeShell): the reminder back \(String(format: "%.1f", waited)) s after Snooze; banner events \(events)")

        // Skip on it: the banner goes, one skipped, a fresh interval (10 s scaled) and no countdown.
        let skip = try rig.clickButton("Skip", onBanner: back)
        #expect(try rig.waitForState("waiting"), "Skip clicked at \(skip): \(rig.state())")
        let nextIn = Double(Int64(try #require(try rig.number("NextBreak"))) - Self.now()) / 1e6
        #expect(nextIn > 8 && nextIn <= 900.0 / 90, "the next reminder \(nextIn) s after Skip, not a fresh interval's 10 s")
        #expect(try rig.number("SkippedToday") == 1)
        #expect(try rig.number("CompletedToday") == 0)
        var shown: Set<String> = []
        // Two seconds: a countdown that came would show at once (a Start shows it within 0.3 s).
        _ = try rig.whileMoving(timeout: 2) {
            shown.insert(try rig.shell.bannerTitle())
            return false
        }
        #expect(shown == [""], "banners after Skip: \(shown)")
        let addedAfterSkip = try rig.addedNotifications()
        #expect(addedAfterSkip.isEmpty, "the shell added after Skip: \(addedAfterSkip)")
        let listedAfterSkip = try rig.listed()
        #expect(listedAfterSkip.isEmpty, "listed after Skip: \(listedAfterSkip)")
        #expect(rig.state() == "(<'waiting'>,)")
        print("GnomeSnoozeSkipInRootTests on GNOME Shell \(release.gnomeShell): \(Int(Date().timeIntervalSince(began))) s")
    }

    /// CLOCK_REALTIME in µs, as icared's timestamps are.
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1e6) }
}
