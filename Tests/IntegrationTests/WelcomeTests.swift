import Testing
import Foundation
import TestSupport

/// The first start's notice (issue 47, item 2), end to end: the real icared,
/// under its unit's sandbox, on a private bus with a fresh home (no state
/// folder: `ServiceHarness(firstStart: true)`), against the fake notification
/// server of NotificationTests. It says once that iCare is on and when the
/// first break comes; it waits for a server and for the end of do-not-disturb;
/// "Open iCare" reaches the app by the bus, which starts it (the fake app here
/// records who its parent is; AppWelcomeTests opens the real window).
@Suite(.serialized) struct WelcomeTests {
    static let summary = "iCare is on"
    static let prefix = "First eye break at "

    static func welcomes(_ fake: FakeNotificationServer) -> [NotifyRecord] {
        fake.iCareNotifies.filter { $0.summary == summary }
    }

    static func markExists(_ s: ServiceHarness) -> Bool {
        FileManager.default.fileExists(atPath: s.stateDirectory + "/welcome")
    }

    /// A fresh home's service (not started) and a running fake server.
    static func firstStart(capabilities: String = NotificationTests.gnome,
                           bus: PrivateBus? = nil) throws -> (ServiceHarness, FakeNotificationServer) {
        let s = try ServiceHarness(bus: bus, start: false, firstStart: true)
        do {
            let fake = try FakeNotificationServer(environment: s.bus.environment, capabilities: capabilities)
            try fake.start()
            return (s, fake)
        } catch {
            s.stop()
            throw error
        }
    }

    @Test func theFirstStartSaysOnceThatICareIsOnAndWhenTheFirstBreakComes() throws {
        let (s, fake) = try Self.firstStart()
        defer { NotificationTests.stop(s, fake) }
        try s.start()
        let welcome = try NotificationTests.first(fake) { $0.isICare && $0.summary == Self.summary }
        #expect(welcome.actions == ["default", "", "open", "Open iCare"],
                "GNOME Shell: one button, and the body click (never drawn) opens iCare too: \(welcome.actions)")
        #expect(welcome.hint("desktop-entry") == .string("org.icare.Reminder"))
        #expect(welcome.hint("suppress-sound") == .bool(true), "a greeting makes no sound")
        #expect(welcome.body.hasPrefix(Self.prefix) && welcome.body.hasSuffix(": then look at something 20 feet (6 m) away for 20 seconds."),
                "\(welcome.body)")
        // Its clock is the first break's, as icarectl says it.
        let clock = String(welcome.body.dropFirst(Self.prefix.count)).components(separatedBy: ": ").first ?? ""
        let status = try Subprocess.run([try Products.path("icarectl"), "status"], environment: s.environment)
        let row = status.stdout.split(separator: "\n").first { $0.hasPrefix("Next break") }.map(String.init) ?? ""
        #expect(status.status == 0 && row.contains(" \(clock), in "), "\(clock) · \(status.stdout)")
        #expect(try s.string("State") == "waiting")
        #expect(waitUntil { !Self.markExists(s) }, "the debt is settled once a server showed it")
        #expect(s.log.contains("The first start's notice (or a reminder before it) was shown"), "log:\n\(s.log)")

        // Never again: not after a restart, nor after a new server.
        #expect(try s.signal(SIGTERM) == 0)
        try s.start()
        fake.kill9()
        try fake.start()
        #expect(waitUntil { fake.calls("GetCapabilities").count >= 2 }, "\(fake.dump)")
        try NotificationTests.settle(s, fake)
        #expect(Self.welcomes(fake).count == 1, "\(fake.dump)")
        #expect(!Self.markExists(s))
    }

    @Test func withoutAServerItStaysOwedAndComesWithTheFirstServer() throws {
        let s = try ServiceHarness(start: false, firstStart: true)
        defer { s.stop() }
        try s.start()
        #expect(try s.string("State") == "waiting")
        #expect(Self.markExists(s), "no server showed it yet")
        #expect(!s.log.contains(Self.summary), "the log is no place to greet: \(s.log)")
        // A logout before any server: still owed at the next login.
        #expect(try s.signal(SIGTERM) == 0)
        let fake = try FakeNotificationServer(environment: s.bus.environment)
        defer { fake.stop() }
        try s.start()
        #expect(Self.markExists(s))
        try fake.start()
        _ = try NotificationTests.first(fake) { $0.isICare && $0.summary == Self.summary }
        #expect(waitUntil { !Self.markExists(s) })
        try NotificationTests.settle(s, fake)
        #expect(Self.welcomes(fake).count == 1, "\(fake.dump)")
    }

    @Test func aReminderShownFirstSettlesIt() throws {
        // The first start without a server: owed. At the next start a reminder is already out (a call that
        // outlasted the first interval without pausing reminders, say).
        let s = try ServiceHarness(start: false, firstStart: true)
        defer { s.stop() }
        try s.start()
        #expect(Self.markExists(s))
        #expect(try s.signal(SIGTERM) == 0)
        let fake = try FakeNotificationServer(environment: s.bus.environment)
        defer { fake.stop() }
        try fake.start()
        try NotificationTests.writeState(s, DndState.due(sinceSecondsAgo: 5))
        try s.start()
        let reminder = try NotificationTests.first(fake) { $0.isICare && $0.summary == "Time for an eye break" }
        #expect(waitUntil { !Self.markExists(s) }, "the person met iCare through the reminder")
        try fake.click(reminder.id, "skip")
        #expect(try waitUntil { try s.string("State") == "waiting" })
        try NotificationTests.settle(s, fake)
        #expect(Self.welcomes(fake).isEmpty, "'First eye break at' would be untrue now: \(fake.dump)")
    }

    /// Plasma 6.4 and later keep the notice in their history when it times out and do not close it
    /// (no NotificationClosed, as the fake server here): the first reminder, in the same icared's life,
    /// is a new notification and the notice is closed, never an update of the notice, which Plasma 6.7
    /// keeps in its history without a popup (RootDesktopTests' welcome tests show it on the real one).
    @Test(arguments: [PlasmaNotificationTests.plasma, "Plasma|KDE|6.7.4", FakeNotificationServer.gnomeShell])
    func theFirstReminderAfterTheNoticeIsANewNotification(_ server: String) throws {
        let s = try ServiceHarness(start: false, firstStart: true)
        let caps = server.hasPrefix("Plasma") ? PlasmaNotificationTests.plasmaCaps : NotificationTests.gnome
        let fake = try FakeNotificationServer(environment: s.bus.environment, capabilities: caps, serverName: server)
        defer { NotificationTests.stop(s, fake) }
        try fake.start()
        // A 15-minute interval passing in a second: the notice, then the first reminder, in one life.
        try s.start(arguments: ["--log-stderr", "--time-scale", "900"])
        let welcome = try NotificationTests.first(fake) { $0.isICare && $0.summary == Self.summary }
        let reminder = try NotificationTests.first(fake, timeout: 15) { $0.isICare && $0.summary == "Time for an eye break" }
        #expect(reminder.replaces == 0, "\(server): the reminder updates the notice \(welcome.id): \(fake.dump)")
        #expect(reminder.id != welcome.id)
        #expect(waitUntil { fake.calls("CloseNotification").contains { $0.id == welcome.id } }, "the notice is taken away: \(fake.dump)")
        try fake.click(reminder.id, "start")
        #expect(try waitUntil { try s.string("State") == "break" })
    }

    @Test func doNotDisturbHoldsItBackUntilItEnds() throws {
        let (s, fake) = try Self.firstStart(capabilities: NotificationTests.gnome + " inhibitions")
        defer { NotificationTests.stop(s, fake) }
        try fake.setInhibited(true)
        try s.start()
        #expect(try waitUntil { try s.string("PauseReason") == "dnd" }, "log:\n\(s.log)")
        try NotificationTests.settle(s, fake)
        #expect(fake.iCareNotifies.isEmpty, "nothing during do-not-disturb: \(fake.dump)")
        #expect(Self.markExists(s))
        try fake.setInhibited(false)
        _ = try NotificationTests.first(fake) { $0.isICare && $0.summary == Self.summary }
        #expect(waitUntil { !Self.markExists(s) })
        // Do-not-disturb again once it was shown: it never comes back.
        try fake.setInhibited(true)
        #expect(try waitUntil { try s.string("PauseReason") == "dnd" })
        try fake.setInhibited(false)
        #expect(try waitUntil { try s.string("State") == "waiting" })
        try NotificationTests.settle(s, fake)
        #expect(Self.welcomes(fake).count == 1, "\(fake.dump)")
    }

    @Test func aServerWithoutButtonsStillSaysItWithoutOne() throws {
        let (s, fake) = try Self.firstStart(capabilities: "body")
        defer { NotificationTests.stop(s, fake) }
        try s.start()
        let welcome = try NotificationTests.first(fake) { $0.isICare && $0.summary == Self.summary }
        #expect(welcome.actions.isEmpty, "\(welcome.actions)")
        #expect(welcome.body.hasPrefix(Self.prefix), "\(welcome.body)")
    }

    @Test func openICareAsksTheAppByTheBusWhichStartsIt() throws {
        let app = try FakeApp()
        defer { app.stop() }
        let bus = try PrivateBus(serviceDirectory: app.services.path)
        let (s, fake) = try Self.firstStart(bus: bus)
        defer { NotificationTests.stop(s, fake) }
        try s.start()
        let welcome = try NotificationTests.first(fake) { $0.isICare && $0.summary == Self.summary }
        #expect(waitUntil { !Self.markExists(s) })
        try fake.click(welcome.id, "open", activationToken: "token-of-the-click")
        #expect(waitUntil { app.activations.count == 1 }, "log:\n\(s.log)\napp: \(app.stderr)")
        let activation = app.activations.first ?? [:]
        #expect(activation["token"] as? String == "token-of-the-click", "the server's token goes along: \(activation)")
        let pid = (activation["pid"] as? NSNumber)?.int32Value ?? 0
        let icared = try #require(s.process?.processIdentifier)
        #expect(pid > 0 && !Subprocess.ancestors(of: pid).contains(icared), "the app is never icared's child: \(Subprocess.ancestors(of: pid))")
        #expect(s.log.contains("Opened iCare's window."), "log:\n\(s.log)")
        // The body click does the same; with the app running, the bus does not start another.
        try fake.click(welcome.id, "default")
        #expect(waitUntil { app.activations.count == 2 }, "app: \(app.stderr)")
        #expect(Set(app.activations.compactMap { ($0["pid"] as? NSNumber)?.int32Value }).count == 1)
        #expect(try s.string("State") == "waiting", "opening the app changes nothing of the schedule")
    }
}

/// A stand-in for the app's D-Bus face (what GLib serves for the real app, see the app's WindowName):
/// it owns org.icare.Reminder.Window, started by the bus from its activation file, and records each
/// `org.freedesktop.Application.Activate` with its platform data, its own pid and its parent's, and each
/// `ActivateAction` with the action's name.
final class FakeApp: @unchecked Sendable {
    let directory: URL
    var services: URL { directory.appendingPathComponent("services") }
    var recordPath: String { directory.appendingPathComponent("activations.jsonl").path }
    var errorPath: String { directory.appendingPathComponent("stderr.txt").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("icare-fake-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("fake_app.py").path
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        try "[D-BUS Service]\nName=org.icare.Reminder.Window\nExec=/usr/bin/python3 \(script) \(recordPath) \(errorPath)\n"
            .write(to: services.appendingPathComponent("org.icare.Reminder.Window.service"), atomically: true, encoding: .utf8)
    }

    var activations: [[String: Any]] {
        let text = (try? String(contentsOfFile: recordPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }
    var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    func stop() {
        for a in activations {
            if let pid = (a["pid"] as? NSNumber)?.int32Value { kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    static let script = """
    import json, os, sys
    from gi.repository import Gio, GLib
    record, errors = sys.argv[1], sys.argv[2]
    sys.stderr = open(errors, "a")
    XML = '<node><interface name="org.freedesktop.Application">' \\
          '<method name="Activate"><arg type="a{sv}" direction="in"/></method>' \\
          '<method name="ActivateAction"><arg type="s" direction="in"/><arg type="av" direction="in"/>' \\
          '<arg type="a{sv}" direction="in"/></method></interface></node>'
    def call(conn, sender, path, iface, method, params, invocation):
        args = params.unpack()
        platform = args[-1]
        entry = {"pid": os.getpid(), "ppid": os.getppid(), "token": platform.get("activation-token")}
        if method == "ActivateAction":
            entry["action"] = args[0]
        with open(record, "a") as f:
            f.write(json.dumps(entry) + "\\n")
        invocation.return_value(None)
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)
    bus.register_object("/org/icare/Reminder", Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], call)
    Gio.bus_own_name_on_connection(bus, "org.icare.Reminder.Window", Gio.BusNameOwnerFlags.NONE)
    GLib.MainLoop().run()
    """
}
