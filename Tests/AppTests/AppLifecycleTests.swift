import Foundation
import Testing
import TestSupport

/// The app's life: one instance, closing the window ends it (icared stays),
/// icared started through D-Bus activation, and one sentence while the
/// service is absent until it appears.
@Suite(.serialized) struct AppLifecycleTests {
    @Test func aSecondLaunchHandsOverToTheFirstAndClosingTheWindowEndsTheApp() throws {
        let rig = try AppRig()
        defer { rig.stop() }
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        // The preferences take the keyboard focus (X's input focus: no window manager here)...
        try rig.press("Preferences")
        #expect(waitUntil(timeout: 10) { (try? rig.focusedWindowName()) == "Preferences" }, "\((try? rig.focusedWindowName()) ?? "")")
        // ...the second instance asks the first (the app's name beneath the id, org.icare.Reminder.Window) to show its
        // window, and ends;
        // the first raises its window, which takes the focus.
        let second = try rig.launchApp(log: "second.log")
        #expect(waitUntil(timeout: 10) { !second.isRunning }, "the second launch did not end")
        #expect(second.terminationStatus == 0, "\(rig.log("second.log"))")
        #expect(waitUntil(timeout: 10) { (try? rig.focusedWindowName()) == "iCare" }, "the main window raised: \((try? rig.focusedWindowName()) ?? "")")
        let windows = try rig.windows()
        #expect(windows.count == 2, "the main window and the preferences, nothing more: \(windows.map { $0.first?.name ?? "" })")
        #expect(try rig.waitForName("org.icare.Reminder.Window"))
        let owner = try rig.service.ownerProcess(of: "org.icare.Reminder.Window")
        #expect(owner == rig.app!.processIdentifier, "the first instance keeps the name: \(String(describing: owner))")
        // The window's Close button (a real press through the accessibility tree) ends the process; icared stays.
        try rig.press("Close", within: "iCare")  // the main window's, not the preferences'
        let app = rig.app!
        #expect(waitUntil(timeout: 10) { !app.isRunning }, "the app did not end when its window closed")
        #expect(app.terminationStatus == 0)
        #expect(try rig.service.nameHasOwner(), "icared keeps running")
    }

    @Test func theAppStartsIcaredThroughDBusActivation() throws {
        let services = FileManager.default.temporaryDirectory.appendingPathComponent("icare-services-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        let bus = try PrivateBus(serviceDirectory: services.path)
        let rig = try AppRig(startService: false, bus: bus, startApp: false)
        defer { rig.stop() }
        let file = "[D-BUS Service]\nName=org.icare.Reminder\nExec=\(try rig.icaredCommand())\n"
        try file.write(to: services.appendingPathComponent("org.icare.Reminder.service"), atomically: true, encoding: .utf8)
        #expect(try !rig.service.nameHasOwner())
        try rig.launchApp()
        try rig.expectActivatedIcaredThenEndIt()
    }

    @Test func withoutIcaredItSaysSoAndRecoversWhenItAppears() throws {
        let rig = try AppRig(startService: false)
        defer { rig.stop() }
        // No service file on this bus: activation fails, and the window says what to do.
        let absent = try rig.waitForHome("the sentence for an absent service") {
            $0.contains { $0.name == "iCare is not running" }
        }
        #expect(absent.contains { $0.role == "label" && $0.name == "iCare is not running; start it with 'systemctl --user start icared' (or run 'icared')." },
                "\(absent)")
        #expect(absent.contains { $0.role == "push button" && $0.name == "Try again" })
        // The service appears: the window follows it without a restart.
        try rig.service.start()
        try rig.waitForHome("the home view once icared runs") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        // It goes away again: the sentence comes back.
        rig.service.kill9()
        try rig.waitForHome("the sentence after icared ended") { $0.contains { $0.name == "iCare is not running" } }
    }

    /// A second login without a systemd user session: its icared defers to the first login's
    /// (docs/architecture.md, "One icared per person"), and the app there says where the breaks are
    /// kept, then shows the home view once this login's icared has taken over.
    @Test func inASecondLoginItSaysWhereTheBreaksAreKept() throws {
        let rig = try AppRig(startService: false, startApp: false)
        defer { rig.stop() }
        let keeper = try ServiceHarness(environment: ["XDG_SESSION_ID": "3"], home: rig.service.home, logName: "keeper.log")
        defer { keeper.kill9(); keeper.bus.stop() }
        try rig.service.start()
        try rig.launchApp()
        let pid = try #require(try keeper.ownerProcess(of: "org.icare.Reminder"))
        let sentence = "Another iCare keeps your breaks: icared (process \(pid)) on \(ProcessInfo.processInfo.hostName), login session 3. "
            + "This one takes over when that one stops."
        let page = try rig.waitForHome("the page of a second login") { $0.contains { $0.name == "iCare runs in another session" } }
        #expect(page.contains { $0.role == "label" && $0.name == sentence }, "\(page)")
        #expect(!page.contains { $0.name.hasPrefix("Next break at ") })
        #expect(try keeper.signal(SIGTERM) == 0)
        try rig.waitForHome("the home view once this login's icared keeps the breaks") { $0.contains { $0.name.hasPrefix("Next break at ") } }
    }

    /// On Wayland (a headless sway), with the keyboard alone: each of the home
    /// view's actions and the preferences is reached with Tab and pressed with
    /// Return. GTK 4.8 does not tell AT-SPI which widget has the focus, so each
    /// try starts the app afresh, presses Tab k times and Return, and reads what
    /// happened from the service (and whether the preferences opened).
    /// A stranger on the session that holds the app's name but shows no window (python3-dbusmock here, which knows
    /// no `Activate`) cannot keep iCare's window away: the launch says so on stderr and opens its own.
    @Test func aStrangerHoldingTheAppsNameDoesNotKeepTheWindowAway() throws {
        let rig = try AppRig(startApp: false)
        defer { rig.stop() }
        try rig.startGroup(["/usr/bin/python3", "-m", "dbusmock", "org.icare.Reminder.Window", "/org/icare/Reminder",
                            "org.icare.Test"], log: "stranger.log")
        #expect(try rig.waitForName("org.icare.Reminder.Window"), "\(rig.log("stranger.log"))")
        try rig.launchApp()
        try rig.waitForHome("the home view") { $0.contains { $0.name.hasPrefix("Next break at ") } }
        #expect(rig.log("app.log").contains("another iCare window owns org.icare.Reminder.Window but did not answer"),
                "\(rig.log("app.log"))")
    }

    @Test func onWaylandEveryActionIsReachedWithTheKeyboard() throws {
        let rig = try AppRig(startApp: false, wayland: true)
        defer { rig.stop() }
        let s = rig.service
        var reached: Set<String> = []
        var tries: [String] = []
        let all: Set<String> = ["Preferences", "Start break now", "Pause for 30 min", "Pause for 1 hour", "Pause until resumed"]
        // The focus starts on Start break now; Tab goes on to the pauses, then round to Preferences. Each try
        // types only once sway says the new window has the focus; a try that reached nothing new (a key lost
        // on a loaded machine) is made again, up to three times.
        for k in 0...6 where reached != all {
            for _ in 0..<3 {
                let before = reached.count
                let app = try rig.launchApp(log: "app-\(k).log")
                try rig.waitForHome("the waiting state", { $0.contains { $0.name.hasPrefix("Next break at ") } })
                #expect(waitUntil(timeout: 10) { rig.sway?.focusedApp() == "org.icare.Reminder" }, "sway focuses the new window")
                try rig.keys(Array(repeating: "Tab", count: k) + ["Return"])
                // The preferences window is built on its first use: on a loaded machine that takes seconds.
                _ = waitUntil(timeout: 8) { (try? s.string("State")) != "waiting" || ((try? rig.preferences()) ?? []).count > 0 }
                let state = try s.string("State")
                var outcome = "nothing"
                if state == "break" { outcome = "Start break now" }
                if state == "paused" {
                    let until = try s.number("PausedUntil")
                    let left = until == 0 ? 0 : Int((Double(until) / 1e6 - Date().timeIntervalSince1970) / 60 + 0.5)
                    outcome = left == 0 ? "Pause until resumed" : left <= 30 ? "Pause for 30 min" : "Pause for 1 hour"
                }
                if try !rig.preferences().isEmpty { outcome = "Preferences" }
                if outcome != "nothing" { reached.insert(outcome) }
                tries.append("\(k)×Tab: \(outcome)")
                kill(app.processIdentifier, SIGKILL)
                app.waitUntilExit()
                if state != "waiting" { try s.call("Resume"); try s.call("Skip") }
                _ = waitUntil(timeout: 5) { (try? s.string("State")) == "waiting" }
                if reached.count > before { break }
            }
        }
        #expect(reached == all, "reached with Tab and Return: \(reached.sorted()); the tries: \(tries)")
        #expect(rig.sway?.isRunning == true, "sway kept running")
    }
}
