import Testing
import Foundation
import TestSupport

/// iCare's banners on the real GNOME Shell 48.7 and 50.5 (the package in the Debian roots), with
/// animations on as on a desktop with a GPU. What shows is read from the shell (Eval of its message
/// tray). Issue 29: the countdown bounced every second on 50, and no reminder showed while the iCare
/// window had the focus. (Its third defect, "break complete" hidden as "pointer left", is not tested
/// here: in these roots a banner loses its hover 5 ms after gaining it, and a click on it does nothing.)
@Suite(.serialized) struct GnomeBannerTests {
    /// A shell with icared activated (time scale 90: a 15 min interval passes in 10 s), its reminder
    /// showing, and the break started with `icarectl start`. Returns when it was started.
    static func startABreak(_ shell: GnomeBannerShell, breakSeconds: Int) throws -> Date {
        _ = try shell.root.folder("config/icare")
        try "Interval = 15m\nBreakDuration = \(breakSeconds)s\n"
            .write(to: shell.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        _ = try shell.session.icareProperty("Version")
        let shown = try waitUntil(timeout: 40, interval: 0.1) { try shell.bannerTitle() == "Time for an eye break" }
        var box: (x: Int, y: Int, w: Int, h: Int)?
        _ = try waitUntil(timeout: 3, interval: 0.1) { box = try shell.bannerBox(); return box != nil }
        guard shown, box != nil else {
            let seen = "shown '\((try? shell.bannerTitle()) ?? "?")', listed '\((try? shell.listedTitles()) ?? "")', "
                + "state \((try? shell.session.icareProperty("State")) ?? "?")"
            Issue.record(Comment(rawValue: "no reminder banner: \(seen)\n\(shell.shellLog.suffix(3000))"))
            throw HarnessError("no reminder banner")
        }
        // Started as the reminder's words say where no button is at hand.
        let started = try shell.session.run(["icarectl", "start"])
        #expect(started.status == 0, "\(started)")
        let at = Date()
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try shell.session.icareProperty("State") == "(<'break'>,)" })
        return at
    }

    /// Issue 29, 1: every update of a showing banner replays GNOME 50's pop-in (its scale 0.9 → 1.01 →
    /// 1). Through the break the banner's scale stays still; a person still sees the break in words.
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theCountdownDoesNotBounce(_ release: DesktopRoot.Release) throws {
        let shell = try GnomeBannerShell(release, variables: ["ICARE_TIME_SCALE": "90"])
        defer { shell.stop() }
        let started = try Self.startABreak(shell, breakSeconds: 10)
        var titles: Set<String> = []
        // The countdown's own arrival may pop in once; from 1.5 s after the start to 2 s before the end, nothing should.
        Thread.sleep(until: started.addingTimeInterval(1.5))
        titles.insert(try shell.bannerTitle())
        _ = try shell.scales()
        while Date() < started.addingTimeInterval(8) {
            Thread.sleep(forTimeInterval: 0.5)
            titles.insert(try shell.bannerTitle())
        }
        let scales = try shell.scales()
        // A pop-in starts where the scale drops to 0.9 (GNOME sets it, then eases back to 1).
        let popIns = zip([1.0] + scales, scales).filter { $0 > 0.95 && $1 <= 0.95 }.count
        print("GNOME Shell \(release.gnomeShell): scales from 1.5 s to 8 s of the break: \(scales)")
        #expect(popIns == 0, "the banner popped in \(popIns) times during the break: \(scales)")
        #expect(titles.contains { $0.hasPrefix("Look far away") }, "the break is not on screen: \(titles)")
        #expect(try waitUntil(timeout: 10, interval: 0.3) { try shell.session.icareProperty("CompletedToday") == "(<uint32 1>,)" })
    }

    /// Issue 29, 3: with the iCare window focused, a new reminder shows as a banner (GNOME marks a
    /// resident notification of the focused app as seen: no banner, no sound).
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func aReminderShowsWhileTheICareWindowHasTheFocus(_ release: DesktopRoot.Release) throws {
        let shell = try GnomeBannerShell(release, variables: ["ICARE_TIME_SCALE": "90"])
        defer { shell.stop() }
        // 30 min at scale 90: 20 s, time for the window to open first.
        try shell.openICare(config: "Interval = 30m\nBreakDuration = 10s\n")
        var window: [Int] = []
        _ = try waitUntil(timeout: 30, interval: 0.3) {
            let own = try shell.windows().split(separator: " ").first { $0.hasPrefix("org.icare.Reminder:") }
            window = own?.split(separator: ":").last?.split(separator: ",").compactMap { Int($0) } ?? []
            return window.count == 4
        }
        try #require(window.count == 4, "no iCare window: \((try? shell.windows()) ?? "")\n\(shell.session.log("icare.log"))")
        // The person clicks into it (a new window may or may not take the focus by itself).
        let hand = try shell.pointer()
        defer { hand.stop() }
        Thread.sleep(forTimeInterval: 1)
        try hand.click(x: window[0] + window[2] / 2, y: window[1] + 12)
        let focused = try waitUntil(timeout: 10, interval: 0.2) { try shell.focusedApp() == "org.icare.Reminder.desktop" }
        try #require(focused, "the iCare window did not get the focus: \((try? shell.windows()) ?? "")")
        #expect(try shell.session.icareProperty("State") == "(<'waiting'>,)", "the reminder came before the window")
        #expect(try waitUntil(timeout: 30, interval: 0.2) { try shell.session.icareProperty("State") == "(<'due'>,)" })
        let shown = try waitUntil(timeout: 5, interval: 0.1) { try shell.bannerTitle() == "Time for an eye break" }
        #expect(try shell.focusedApp() == "org.icare.Reminder.desktop")
        let listed = try shell.listedTitles()
        #expect(shown, "no reminder banner with the iCare window focused; listed: \(listed)")
    }
}
