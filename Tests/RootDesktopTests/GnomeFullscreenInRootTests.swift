import Testing
import Foundation
import TestSupport

/// Issue 40 on the real GNOME Shell 48.7 and 50.5, iCare installed from its package with its
/// extension on: while a window fills the screen the Shell shows no reminder banner, and
/// icared, told by the extension, holds the reminder back instead of counting it skipped;
/// when the window leaves full screen the reminder's banner shows. Paused for it (BusyPolicy pause),
/// the ring's menu says so. With FullScreenReminders on, the reminder's banner shows over the full screen.
/// The extension also serves GNOME's do-not-disturb and break keys (for a sandboxed icared).
@Suite struct GnomeFullscreenInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func aReminderWaitsForAFullScreenWindowAndShowsWhenItLeaves(_ release: DesktopRoot.Release) throws {
        let shell = try GnomeBannerShell(release, variables: ["ICARE_TIME_SCALE": "90"], extensions: [ShellExtensionRig.uuid])
        defer { shell.stop() }
        // 30 min at scale 90: 20 s, time for the window to open and fill the screen first.
        try shell.openICare(config: "Interval = 30m\nBreakDuration = 10s\n")
        let opened = try waitUntil(timeout: 30, interval: 0.3) { try shell.windows().contains("org.icare.Reminder:") }
        try #require(opened, "no iCare window: \((try? shell.windows()) ?? "")\n\(shell.session.log("icare.log"))")
        // The window to full screen, as F11 or a game does it.
        let window = "global.get_window_actors().map(a => a.meta_window).find(w => w.get_gtk_application_id() === 'org.icare.Reminder')"
        _ = try shell.eval("\(window).make_fullscreen()")
        let held = try waitUntil(timeout: 10, interval: 0.2) { try shell.session.icareProperty("BusySource") == "(<'full-screen'>,)" }
        let source = (try? shell.session.icareProperty("BusySource")) ?? "?"
        try #require(held, "icared did not hear of the full screen: \(source)\n\(shell.shellLog.suffix(2000))")
        #expect(try shell.eval("Main.layoutManager.primaryMonitor.inFullscreen") == "true")

        // Due, and past a whole interval more: no banner, nothing skipped.
        #expect(try waitUntil(timeout: 30, interval: 0.2) { try shell.session.icareProperty("State") == "(<'due'>,)" })
        Thread.sleep(forTimeInterval: 25)
        #expect(try shell.bannerTitle() == "")
        #expect(try shell.session.icareProperty("SkippedToday") == "(<uint32 0>,)")
        #expect(try shell.session.icareProperty("MissedToday") == "(<uint32 0>,)")
        #expect(try shell.session.icareProperty("State") == "(<'due'>,)")

        _ = try shell.eval("\(window).unmake_fullscreen()")
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try shell.session.icareProperty("Busy") == "(<false>,)" })
        let shown = try waitUntil(timeout: 10, interval: 0.1) { try shell.bannerTitle() == "Time for an eye break" }
        let listed = (try? shell.listedTitles()) ?? "?"
        #expect(shown, "no reminder banner after the full screen ended; listed: \(listed)")
        #expect(try shell.session.icareProperty("SkippedToday") == "(<uint32 0>,)")
        #expect(try shell.session.icareProperty("MissedToday") == "(<uint32 0>,)")

        // BusyPolicy pause, the window full screen again: the ring's menu says why reminders are paused,
        // the full screen and not a call.
        let policy = try shell.session.run(["/usr/bin/icarectl", "set", "BusyPolicy", "pause"])
        #expect(policy.status == 0, "\(policy)")
        _ = try shell.eval("\(window).make_fullscreen()")
        let stateItem = "Main.panel.statusArea['\(ShellExtensionRig.uuid)']._stateItem.label.text"
        let said = try waitUntil(timeout: 10, interval: 0.2) { try shell.eval(stateItem).contains("Paused — a window is in full screen") }
        #expect(said, "the ring's menu says \((try? shell.eval(stateItem)) ?? "?"); PauseReason \((try? shell.session.icareProperty("PauseReason")) ?? "?")")

        // FullScreenReminders on, the window still in full screen: nothing is held any more, the next
        // reminder goes out urgent, and the Shell shows its banner over the full-screen window.
        let over = try shell.session.run(["/usr/bin/icarectl", "set", "FullScreenReminders", "on"])
        #expect(over.status == 0, "\(over)")
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try shell.session.icareProperty("Busy") == "(<false>,)" })
        #expect(try waitUntil(timeout: 60, interval: 0.2) { try shell.session.icareProperty("State") == "(<'due'>,)" })
        let overShown = try waitUntil(timeout: 10, interval: 0.1) { try shell.bannerTitle() == "Time for an eye break" }
        #expect(overShown, "no banner over the full-screen window; listed: \((try? shell.listedTitles()) ?? "?")")
        #expect(try shell.eval("Main.layoutManager.primaryMonitor.inFullscreen") == "true")
        try theExtensionPassesGnomesKeysOn(shell)
    }

    /// What an icared in the Flatpak sandbox cannot read from dconf, the extension serves beside the full
    /// screen (gnome-extension/state.js): GNOME's do-not-disturb switch and its break reminders, each
    /// changed with the root's real gsettings and announced with PropertiesChanged.
    private func theExtensionPassesGnomesKeysOn(_ shell: GnomeBannerShell) throws {
        func get(_ property: String) throws -> String {
            let r = try shell.session.run(["gdbus", "call", "--session", "--dest", "org.icare.Reminder.ShellRing",
                                           "--object-path", "/org/icare/Reminder/ShellRing", "--method",
                                           "org.freedesktop.DBus.Properties.Get", "org.icare.Reminder.ShellRing", property])
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try get("ShowBanners") == "(<true>,)")
        #expect(try get("SelectedBreaks") == "(<@as []>,)")
        // Both keys set while gdbus monitor listens to the extension's name.
        let script = """
            timeout 6 gdbus monitor --session --dest org.icare.Reminder.ShellRing >/tmp/shell-state-signals & sleep 2
            gsettings set org.gnome.desktop.notifications show-banners false
            gsettings set org.gnome.desktop.break-reminders selected-breaks "['eyesight']"
            wait; cat /tmp/shell-state-signals
            """
        let monitored = try shell.session.run(["sh", "-c", script], timeout: 20)
        #expect(monitored.stdout.contains("'ShowBanners': <false>"), "\(monitored)")
        #expect(monitored.stdout.contains("'SelectedBreaks': <['eyesight']>"), "\(monitored)")
        #expect(try get("ShowBanners") == "(<false>,)")
        #expect(try get("SelectedBreaks") == "(<['eyesight']>,)")
        _ = try shell.session.run(["gsettings", "reset", "org.gnome.desktop.notifications", "show-banners"])
        #expect(try get("ShowBanners") == "(<true>,)")
    }
}
