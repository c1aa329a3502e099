import Testing
import Foundation
import TestSupport

/// The first start's notice on the real GNOME Shell 50.5, from the installed package, in a home iCare
/// never ran in: the bus activates icared (in its unit's sandbox), the Shell shows "iCare is on" as a
/// banner, a real pointer (Mutter's RemoteDesktop) hovers it and clicks "Open iCare", and the session's
/// bus starts the installed app from its activation file; its window comes up in the Shell, on its welcome,
/// which the pointer goes through to Done; then the preferences' page "This desktop".
@Suite(.serialized) struct GnomeWelcomeInRootTests {
    @Test(.timeLimit(.minutes(10)))
    func theFirstStartsNoticeOpensTheAppWithAPointer() throws {
        let rig = try GnomeClicksRig(.forky, firstStart: true)
        defer { rig.stop() }
        // As gnome-session does once the Shell is up: what the bus starts from now on runs on its display
        // (GTK drawing with cairo: no GPU in the root).
        _ = try rig.session.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.UpdateActivationEnvironment",
                                 ["{'WAYLAND_DISPLAY': 'wayland-0', 'GDK_BACKEND': 'wayland', 'GSK_RENDERER': 'cairo'}"])
        try rig.recordAddedNotifications()
        _ = try rig.session.icareProperty("Version")  // the bus activates the installed icared: its first start
        let box = try rig.waitForBanner("iCare is on")
        #expect(try rig.addedNotifications() == ["iCare is on"])
        #expect(try !rig.session.nameHasOwner("org.icare.Reminder.Window"), "no window before the click")

        let clicked = try rig.clickButton("Open iCare", onBanner: box)
        #expect(try rig.session.waitForName("org.icare.Reminder.Window", timeout: 30),
                "Open iCare clicked at \(clicked): no app; \(rig.session.log("session-bus.log").suffix(2000))")
        #expect(try RootDesktopFacts.program(owning: "org.icare.Reminder.Window", in: rig.session) == "/usr/bin/icare")
        var windows = ""
        let shown = try waitUntil(timeout: 30, interval: 0.3) {
            windows = try rig.shell.windows()
            return windows.split(separator: " ").contains { $0.hasPrefix("org.icare.Reminder:") }
        }
        #expect(shown, "no iCare window in the Shell: \(windows)")
        print("GNOME Shell 50.5: Open iCare clicked at \(clicked); windows \(windows)")
        let mark = rig.root.work.appendingPathComponent("home/.local/state/icare/welcome").path
        #expect(waitUntil(timeout: 10) { !FileManager.default.fileExists(atPath: mark) }, "the debt is settled")

        // The app opens on its welcome (nobody opened it here before), gone through with the pointer; then the
        // preferences' "This desktop", which names what icared's Capabilities says. Pictures for the docs.
        let app = rig.app
        let picture = { (name: String) throws in
            guard let dir = Screenshot.docsFolder else { return }
            _ = try rig.screenshot()
            let crop = try app.crop(name == "desktop" ? "Preferences" : "Welcome to iCare", width: GnomeClicksRig.width, height: GnomeClicksRig.height)
            try Screenshot.writeForDocs("gnome50-\(name)", in: dir, magick: ["convert", rig.lastShot, "-crop", crop, "+repage", "+dither"], colours: 64)
        }
        let titles = try app.goThroughTheWelcome(picture: picture)
        #expect(titles.count == 5, "\(titles)")
        let page = try app.openThisDesktop()
        let words = RootDesktopFacts.capabilityWords(try rig.session.icareProperty("Capabilities"), "reminder-buttons")
        #expect(words.hasPrefix("GNOME Shell 50.5 shows Start, Snooze and Skip"), "Capabilities' words: \(words)")
        #expect(page.contains { $0.name == words }, "the page shows what icared says: \(page.map(\.name))")
        try picture("desktop")
    }
}
