import Testing
import Foundation
import TestSupport

/// The portals iCare's Flatpak uses in place of what the sandbox closes (docs/flatpak.md, "The portals"),
/// with the real xdg-desktop-portal and its gtk and gnome backends (PortalRig): starting at login through
/// the Background portal, asked by the app, and a locked screen through the Inhibit portal's monitor.
extension FlatpakSandboxTests {
    var autostartEntry: String { "/.config/autostart/org.icare.Reminder.desktop" }

    /// The sandboxed app on the portals' display, and its `start-at-login` action called over the bus, as the
    /// welcome's "Start at Login" calls it (FlatpakWelcomeTests presses that button with a pointer).
    func askFromTheApp(_ rig: FlatpakRig, _ portals: PortalRig) throws -> Process {
        let app = try rig.launch(environment: ["DISPLAY": portals.display.display])
        try #require(waitUntil(timeout: 30, interval: 0.1) { (try? rig.nameHasOwner("org.icare.Reminder.Window")) == true }, "the app did not start")
        let r = try rig.busctl(["call", "org.icare.Reminder.Window", "/org/icare/Reminder", "org.freedesktop.Application",
                                "ActivateAction", "sava{sv}", "start-at-login", "0", "0"])
        try #require(r.status == 0, "\(r)")
        return app
    }

    /// Nothing stored yet: icared asks nothing at its start; the app's request is allowed by
    /// xdg-desktop-portal 1.16 without a dialog, which stores "yes"; the gnome backend writes the autostart
    /// entry, which starts icared in its sandbox; the app writes the answer down and icared follows it.
    @Test func theBackgroundPortalLetsTheSandboxedIcaredStartAtLogin() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        let portals = try PortalRig(rig)
        defer { portals.stop() }
        #expect(try portals.backgroundPermission() == "")
        #expect(try rig.state() == "waiting")
        Thread.sleep(forTimeInterval: 2)
        #expect(try portals.backgroundPermission() == "", "icared asked the portal at its start")
        #expect(try limits(rig).contains("\"autostart\""))

        let app = try askFromTheApp(rig, portals)
        defer { if !waitUntil(timeout: 10, interval: 0.05, { !app.isRunning }) { kill(app.processIdentifier, SIGKILL) } }
        let entry = rig.home.path + autostartEntry
        let written = waitUntil(timeout: 15, interval: 0.1) { FileManager.default.fileExists(atPath: entry) }
        try #require(written, "no autostart entry; SandboxLimits \((try? limits(rig)) ?? "?")")
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        #expect(text.contains("\nExec=flatpak run --command=icared org.icare.Reminder\n"), "\(text)")
        #expect(try portals.backgroundPermission() == "yes")
        // Asked and allowed: only what the sandbox closes for good is left; GNOME's screen saver is on the
        // bus, so a lock is seen.
        let left = "as 3 \"gnome-keys\" \"sleep\" \"phone-commands\"\n"
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try limits(rig) == left }, "SandboxLimits \((try? limits(rig)) ?? "?")")
    }

    /// The permission set to "ask" (as a desktop's settings can): the app's request brings the real dialog
    /// with iCare's reason, and the person clicks "Don't allow" with the pointer. No autostart entry; the
    /// app writes "no", and the service says so.
    @Test func askedWithItsReasonAndRefusedByThePerson() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        let portals = try PortalRig(rig)
        defer { portals.stop() }
        try portals.setBackgroundPermission("ask")
        // What the dialog is asked to show, seen on the bus (the backend draws it from these arguments).
        let calls = rig.home.appendingPathComponent("access-calls.log").path
        let monitor = try Subprocess.startLogged(["dbus-monitor", "--session", "interface=org.freedesktop.impl.portal.Access"],
                                                 log: calls, environment: portals.environment)
        defer { Subprocess.kill9(monitor) }
        #expect(try rig.state() == "waiting")
        #expect(portals.dialog(timeout: 3) == nil, "icared asked the Background portal at its start")
        let app = try askFromTheApp(rig, portals)
        defer { if !waitUntil(timeout: 10, interval: 0.05, { !app.isRunning }) { kill(app.processIdentifier, SIGKILL) } }
        let window = try #require(portals.dialog(), "no dialog from the Background portal")
        Thread.sleep(forTimeInterval: 0.5)
        let asked = try String(contentsOfFile: calls, encoding: .utf8)
        #expect(asked.contains("member=AccessDialog") && asked.contains("string \"org.icare.Reminder\"")
                && asked.contains("string \"iCare starts when you log in, to remind you to rest your eyes.\""), "\(asked)")
        // The dialog as the person sees it: drawn (not an empty window) on Xvfb's black screen.
        let file = rig.home.appendingPathComponent("dialog.ppm").path
        let shot = try Subprocess.run(["import", "-window", window, "-depth", "8", "ppm:" + file], environment: ["DISPLAY": portals.display.display])
        try #require(shot.status == 0, "\(shot)")
        let size = try #require(portals.size(of: window))
        #expect(try Screenshot(file: file).colours(xs: 0..<size.width, ys: 0..<size.height) > 20, "the dialog shows nothing")
        if let docs = Screenshot.docsFolder {
            try Screenshot.writeForDocs("flatpak-background-dialog", in: docs, magick: ["convert", file], colours: 64)
        }
        try portals.click(window, at: 0.25)
        let answer = rig.stateDirectory.appendingPathComponent("starts-at-login").path
        #expect(waitUntil(timeout: 15, interval: 0.1) { (try? String(contentsOfFile: answer, encoding: .utf8)) == "no\n" }, "icared kept no answer")
        #expect(!FileManager.default.fileExists(atPath: rig.home.path + autostartEntry))
        let status = try rig.run("icarectl", ["status"])
        #expect(status.stdout.contains("iCare does not start at login: the desktop has not allowed it to run in the background."), "\(status)")
        #expect(try rig.run("icarectl", ["doctor"]).stdout.contains("The desktop did not allow iCare to start at login."))
    }

    /// No logind in the sandbox, and GNOME's screen saver not granted here (a user override takes the
    /// talk-name away): the lock comes through the Inhibit portal's monitor alone, and pauses reminders.
    @Test func aLockSeenThroughTheInhibitPortalPausesTheSandboxedIcared() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        let portals = try PortalRig(rig)
        defer { portals.stop() }
        let flatpak = try Subprocess.which("flatpak")
        let override = try Subprocess.run([flatpak, "override", "--user", "--no-talk-name=org.gnome.ScreenSaver", FlatpakRig.appID],
                                          environment: rig.environment)
        try #require(override.status == 0, "\(override)")
        defer { _ = try? Subprocess.run([flatpak, "override", "--user", "--reset", FlatpakRig.appID], environment: rig.environment) }
        #expect(try rig.state() == "waiting")
        // The monitor answered, so a lock can be seen although no screen saver is reachable.
        Thread.sleep(forTimeInterval: 1)
        #expect(try !limits(rig).contains("\"lock\""), "SandboxLimits \((try? limits(rig)) ?? "?")")
        try expectPauses(rig, "the lock", saying: "PauseReason", "s \"locked\"\n",
                         on: { try portals.screenSaver(true) }, off: { try portals.screenSaver(false) })
    }
}
