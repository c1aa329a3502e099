import Testing
import Foundation
import TestSupport

/// iCare's package on the real Plasma 6.3.6 and 6.7.4 **on Wayland**, the session Plasma 6 starts
/// by default, used as a person uses it: `kwin_wayland` with plasmashell and icared's bubbles as its
/// Wayland clients, shown as a window on an Xvfb (KWin's X11 windowed backend, see `RootPlasma`),
/// so that the screen has pixels and a real pointer (xdotool's, which KWin takes as its seat's
/// pointer) clicks. The tray's ring found in the pixels and its menu used; the reminder's Start
/// clicked, the countdown and "Break complete" seen. Pictures of 6.7.4 for the docs with
/// ICARE_SCREENSHOTS.
@Suite(.serialized) struct PlasmaWaylandInRootTests {
    static func picture(_ what: String) -> String { "plasma67-wayland-\(what)" }

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theRingTheMenuAndTheReminderWithAPointerOnWayland(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let plasma = try RootPlasma(release, wayland: true)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        #expect(try session.serverInformation() == ["Plasma", "KDE", release.plasma, "1.2"])
        // KWin says which session it runs: Wayland, plasmashell one of its Wayland clients.
        let support = try session.call("org.kde.KWin", "/KWin", "org.kde.KWin.supportInformation")
        #expect(support.contains("Operation Mode: Wayland"), "\(support.prefix(1500))")
        _ = try plasma.root.folder("config/icare")
        try "BreakDuration = 10s\n".write(to: plasma.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        #expect(try session.icareProperty("State") == "(<'waiting'>,)")  // the bus activates the installed icared

        // The ring in the tray, drawn by icared, and its menu opened with a right click and used.
        let item = try plasma.trayItem()
        #expect(try waitUntil(timeout: 15, interval: 0.3) { try plasma.count(RootPlasma.blue, in: item) > 30 },
                "no blue ring in Plasma \(release.plasma)'s tray on Wayland at \(item)")
        let watcher = try RootMenuWatcher(plasma)
        defer { watcher.stop() }
        let pause = PlasmaTrayInRootTests.pause30, resume = PlasmaTrayInRootTests.resume
        var rows = try PlasmaTrayInRootTests.menu(watcher, plasma, item, [pause: true, resume: false], "waiting, on Wayland")
        if let top = rows.map(\.y).min(), let left = rows.map(\.x).min() {
            try plasma.docsScreenshot(Self.picture("tray-menu"), x: left - 10, y: top - 10, w: RootPlasma.width, h: RootPlasma.height)
        }
        try plasma.choose(pause, in: rows)
        #expect(try plasma.state(becomes: "paused"), "the menu's \(pause) did not pause (Plasma \(release.plasma), Wayland)")
        rows = try PlasmaTrayInRootTests.menu(watcher, plasma, item, [pause: false, resume: true], "paused, on Wayland")
        try plasma.choose(resume, in: rows)
        #expect(try plasma.state(becomes: "waiting"), "the menu's Resume did not resume (Plasma \(release.plasma), Wayland)")

        // The reminder: Start clicked; the countdown in its place; "Break complete" at the end.
        try plasma.restartDue()
        let reminder = try plasma.reminderPopup()
        try plasma.docsScreenshot(Self.picture("reminder"), x: reminder.box.x - 6, y: reminder.box.y - 6,
                                  w: reminder.box.w + 12, h: reminder.box.h + 12)
        try plasma.press("Start", on: reminder)
        #expect(try plasma.state(becomes: "break"), "Start did not start the break (Plasma \(release.plasma), Wayland)")
        let countdown = try plasma.popup { $0.texts.contains { $0.hasPrefix("Look far away · ") } }
        #expect(countdown.named.contains("End break"), "\(countdown)")
        try plasma.docsScreenshot(Self.picture("countdown"), x: countdown.box.x - 6, y: countdown.box.y - 6,
                                  w: countdown.box.w + 12, h: countdown.box.h + 12)
        #expect(try plasma.state(becomes: "waiting", timeout: 20), "the break did not end (Plasma \(release.plasma), Wayland)")
        let done = try plasma.popup(timeout: 10) { $0.texts.contains("Break complete") }
        try plasma.docsScreenshot(Self.picture("complete"), x: done.box.x - 6, y: done.box.y - 6, w: done.box.w + 12, h: done.box.h + 12)
        #expect(try plasma.count("CompletedToday") == 1)
        print("Plasma \(release.plasma) Wayland: the ring, its menu, Start, the countdown and its end in \(PlasmaTrayInRootTests.elapsed(began))")
    }
}
