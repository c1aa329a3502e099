import Testing
import Foundation
import TestSupport

/// Starting at login in the Flatpak is asked from the app's welcome (issue 47, item 1), with the real
/// xdg-desktop-portal (PortalRig): the sandboxed icared asks nothing at its start; the sandboxed app's
/// welcome, gone through with a real pointer, asks the Background portal; the person answers in the
/// portal's own dialog; the app tells icared the answer over the bus, and icared keeps it and follows it.
extension FlatpakSandboxTests {
    @Test func theWelcomeAsksTheBackgroundPortalAndIcaredFollowsTheAnswer() throws {
        let rig = try FlatpakRig(welcomeSeen: false)
        let portals = try PortalRig(rig)
        let hands = try AccessibleHands(rig, display: portals.display.display)
        defer {
            rig.stop()
            hands.stop()
            portals.stop()
        }
        try portals.setBackgroundPermission("ask")
        // icared alone: no dialog, nothing asked, and it says so.
        #expect(try rig.state() == "waiting")
        #expect(portals.dialog(timeout: 3) == nil, "icared asked the Background portal at its start")
        #expect(try limits(rig).contains("\"autostart\""))
        #expect(try rig.run("icarectl", ["doctor"]).stdout.contains("Not asked yet: iCare's welcome asks the desktop to start it at login."))

        let app = try rig.launch(environment: ["DISPLAY": portals.display.display])
        defer { if !waitUntil(timeout: 10, interval: 0.05, { !app.isRunning }) { kill(app.processIdentifier, SIGKILL) } }
        let welcome = "Welcome to iCare"
        try hands.waitFor("Every 20 minutes, look at something 20 feet (6 m) away for 20 seconds. Practised through the day, it relieves eye strain.",
                          in: welcome, timeout: 40)
        for title in ["Your breaks", "The ring", "Starting at login"] {
            try hands.click(try hands.waitFor("Next", role: "push button", in: welcome))
            try hands.waitFor(title, role: "label", in: welcome)
        }
        let ask = try hands.waitFor("Start at Login", role: "push button", in: welcome)
        try hands.click(ask)
        // The portal's dialog, with iCare's reason; "Allow" is its right half.
        let dialog = try #require(portals.dialog(), "no dialog from the Background portal after Start at Login")
        try portals.click(dialog, at: 0.75)
        let answer = rig.stateDirectory.appendingPathComponent("starts-at-login").path
        #expect(waitUntil(timeout: 15, interval: 0.1) { (try? String(contentsOfFile: answer, encoding: .utf8)) == "yes\n" },
                "icared kept no answer")
        // "ask" stays "ask" (1.16 asks at each request while it is); the answer was the dialog's.
        #expect(try portals.backgroundPermission() == "ask")
        #expect(FileManager.default.fileExists(atPath: rig.home.path + autostartEntry), "the portal wrote the autostart entry")
        // icared heard it: the limit goes, the capability says it works.
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try !limits(rig).contains("\"autostart\"") }, "SandboxLimits \((try? limits(rig)) ?? "?")")
        #expect(try rig.run("icarectl", ["doctor"]).stdout.contains("The desktop allows iCare to start at login."))
        // The button goes once the answer is in.
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try !hands.elements().contains { $0.name == "Start at Login" && $0.w > 0 } })
    }

    /// A person who installs the Flatpak and never opens the app: the sandboxed icared's first start shows
    /// "iCare is on" on the desktop's server (outside the sandbox); its Open iCare makes the bus start the
    /// Flatpak's app from the exported activation file (never icared's child, never in icared's sandbox
    /// instance), and the app opens on its welcome.
    @Test func theFirstStartsNoticeOpensTheFlatpaksAppOnItsWelcome() throws {
        let rig = try FlatpakRig(welcomeSeen: false, firstStart: true)
        let screen = try VirtualDisplay()
        let hands = try AccessibleHands(rig, display: screen.display)
        let server = try MockNotifications(environment: rig.environment)
        defer {
            rig.stop()
            server.stop()
            hands.stop()
            screen.stop()
        }
        // As a session does once its display is up: what the bus starts from now on draws there.
        let update = try rig.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "UpdateActivationEnvironment", "a{ss}", "1", "DISPLAY", screen.display])
        try #require(update.status == 0, "\(update)")
        #expect(try rig.state() == "waiting")
        var index: Int?
        _ = waitUntil(timeout: 15, interval: 0.1) {
            index = ((try? server.notifies()) ?? []).firstIndex { $0.summary == "iCare is on" }
            return index != nil
        }
        let notice = try #require(index, "no first-start notice: \((try? server.notifies()) ?? [])")
        #expect(try server.notifies()[notice].actions == ["open", "Open iCare"])
        #expect(try !rig.nameHasOwner("org.icare.Reminder.Window"), "no window before the click")
        try server.click(try server.idOfNotify(at: notice), "open")
        try hands.waitFor("Every 20 minutes, look at something 20 feet (6 m) away for 20 seconds. Practised through the day, it relieves eye strain.",
                          in: "Welcome to iCare", timeout: 40)
        let app = try #require(rig.sandboxedPIDs("icare").first, "the app runs in a sandbox of its own")
        let icared = try #require(rig.icaredPIDs().first)
        #expect(!Subprocess.ancestors(of: app).contains(icared), "never icared's child")
        #expect(FileManager.default.fileExists(atPath: rig.appStateDirectory.appendingPathComponent("welcome-seen").path))
        #expect(!FileManager.default.fileExists(atPath: rig.stateDirectory.appendingPathComponent("welcome-seen").path), "not in icared's folder")
    }
}
