import Testing
import Foundation
import TestSupport

/// The GSConnect rig (Tests/TestSupport/GSConnectRig.swift) proved with the real GSConnect service (54 on
/// Debian 12) and the fake phone, through busctl, gdbus and gsettings only: what the phone receives is what
/// the desktop sent. The shapes are in docs/desktop-facts.md, "Phones: GSConnect". Each test has its own bus,
/// namespace and service.
///
/// "Nothing else arrived" is proved with barriers, not sleeps. A ping is one: GSConnect sends every packet to
/// a device through one queue on one TLS stream, so a ping activated after something has gone after it. A
/// notification is decided asynchronously (GSConnect looks the sender up on the bus first), so before its
/// barrier ping the test waits for the sign that the notification plugin has decided: each notification
/// comes from an app name of its own, which the plugin adds to its `applications` setting just before it
/// reads `send-notifications` and `send-active`.
struct GSConnectRigTests {
    static func busctl(_ bus: PrivateBus, _ arguments: [String]) throws -> ProcessResult {
        try Subprocess.run(["busctl", "--user"] + arguments, environment: bus.environment)
    }

    static func actions(_ bus: PrivateBus, _ rig: GSConnectRig, _ method: String, _ arguments: [String] = []) throws -> ProcessResult {
        try busctl(bus, ["call", GSConnectRig.busName, rig.devicePath, "org.gtk.Actions", method] + arguments)
    }

    /// `Activate("ping", [<message>], {})`, as icared will call it.
    static func ping(_ bus: PrivateBus, _ rig: GSConnectRig, _ message: String) throws -> ProcessResult {
        try actions(bus, rig, "Activate", ["sava{sv}", "ping", "1", "s", message, "0"])
    }

    static func messages(_ rig: GSConnectRig) -> [String] {
        rig.packets(type: "kdeconnect.ping").map { GSConnectRig.body($0)["message"] as? String ?? "(none)" }
    }

    /// Activates a last ping and waits for it: everything GSConnect sent the phone before has arrived.
    static func barrier(_ bus: PrivateBus, _ rig: GSConnectRig, _ marker: String) throws {
        let r = try ping(bus, rig, marker)
        guard r.status == 0 else { throw HarnessError("ping(\(marker)): \(r)") }
        guard waitUntil(timeout: 10, interval: 0.02, { messages(rig).contains(marker) }) else {
            throw HarnessError("the barrier ping '\(marker)' did not reach the phone in 10 s; pings: \(messages(rig))\n\(rig.logTail())")
        }
    }

    /// The unique name that owns org.freedesktop.Notifications (":1.4").
    static func notificationServer(_ bus: PrivateBus) throws -> String {
        let r = try busctl(bus, ["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", "s",
                                 "org.freedesktop.Notifications"])
        guard r.status == 0, r.stdout.hasPrefix("s \"") else { throw HarnessError("GetNameOwner(org.freedesktop.Notifications): \(r)") }
        return String(r.stdout.dropFirst(3).dropLast(2))
    }

    /// A `Notify` to `destination`: the server's unique name (as libnotify's GDBusProxy sends it) or the well-known name.
    static func notify(_ bus: PrivateBus, to destination: String, app: String, replacing: UInt32 = 0, _ summary: String, _ body: String) throws {
        let r = try Subprocess.run(["gdbus", "call", "--session", "-d", destination, "-o", "/org/freedesktop/Notifications",
                                    "-m", "org.freedesktop.Notifications.Notify", app, "\(replacing)", "", summary, body, "[]", "{}", "5000"],
                                   environment: bus.environment)
        guard r.status == 0 else { throw HarnessError("Notify failed: \(r)") }
    }

    static func notifications(_ rig: GSConnectRig) -> [[String: Any]] {
        rig.packets(type: "kdeconnect.notification").map { GSConnectRig.body($0) }
    }

    /// Waits until the notification plugin has seen a notification from `app` (its `applications` setting names it).
    static func waitForPluginToSee(_ rig: GSConnectRig, _ app: String) throws {
        guard try waitUntil(timeout: 10, interval: 0.05, { try rig.notificationSetting("applications").contains("\"\(app)\"") }) else {
            throw HarnessError("GSConnect's notification plugin did not see \(app): applications = \(try rig.notificationSetting("applications"))\n\(rig.logTail())")
        }
    }

    @Test func phoneIsListedAndPairs() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try GSConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        #expect(try GSConnectRig.version() == 54)
        // Listed by the ObjectManager, connected and not paired; no ping action before pairing.
        let listed = try Self.busctl(bus, ["--json=short", "call", GSConnectRig.busName, GSConnectRig.managerPath,
                                           "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let objects = try #require((json["data"] as? [Any])?.first as? [String: Any])
        #expect(Array(objects.keys) == [rig.devicePath])
        let device = try #require((objects[rig.devicePath] as? [String: Any])?[GSConnectRig.deviceInterface] as? [String: Any])
        func value(_ name: String) -> Any? { (device[name] as? [String: Any])?["data"] }
        #expect(Set(device.keys) == ["Connected", "EncryptionInfo", "IconName", "Id", "Name", "Paired", "Type"])
        #expect(value("Connected") as? Bool == true)
        #expect(value("Paired") as? Bool == false)
        #expect(value("Id") as? String == rig.deviceId)
        #expect(value("Name") as? String == "Pixel 7")
        #expect(value("Type") as? String == "phone")
        #expect(try Self.actions(bus, rig, "List").stdout.contains("\"ping\"") == false)

        #expect(try rig.pair() == rig.deviceId)
        #expect(try Self.busctl(bus, ["get-property", GSConnectRig.busName, rig.devicePath, GSConnectRig.deviceInterface, "Paired", "Connected"]).stdout
                == "b true\nb true\n")
        #expect(try Self.actions(bus, rig, "Describe", ["s", "ping"]).stdout == "(bgav) true \"s\" 0\n")
        // GSConnect asked once; the phone's answer made it paired (no second request).
        #expect(rig.packets(type: "kdeconnect.pair").map { GSConnectRig.body($0)["pair"] as? Bool } == [true])
        // The per-device settings, in the rig's own dconf.
        let dconf = try Subprocess.run(["dconf", "dump", rig.deviceSettingsPath], environment: rig.environment)
        #expect(dconf.stdout.contains("paired=true"), "\(dconf)")
        #expect(dconf.stdout.contains("supported-plugins=['notification', 'ping', 'runcommand']"), "\(dconf)")
        #expect(try rig.notificationSetting("send-notifications") == "true")
        #expect(try rig.notificationSetting("send-active") == "true")
    }

    @Test func pingArrivesAsExactlyOnePingPacket() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try GSConnectRig(busAddress: bus.address, phoneName: "Fairphone 5")
        defer { rig.stop() }
        try rig.pair()
        let r = try Self.ping(bus, rig, "Time for a break")
        #expect(r.status == 0 && r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(r)")
        try Self.barrier(bus, rig, "barrier")
        #expect(Self.messages(rig) == ["Time for a break", "barrier"])
        let first = try #require(rig.packets(type: "kdeconnect.ping").first)
        #expect(GSConnectRig.body(first).count == 1, "the ping's body is {\"message\": …} only: \(first)")
        // An empty text sends a ping without a message; no parameter at all is refused.
        #expect(try Self.ping(bus, rig, "").status == 0)
        let bare = try Self.actions(bus, rig, "Activate", ["sava{sv}", "ping", "0", "0"])
        #expect(bare.status != 0 && bare.stderr.contains("expected type s"), "\(bare)")
        try Self.barrier(bus, rig, "barrier 2")
        #expect(rig.packets(type: "kdeconnect.ping").map { GSConnectRig.body($0).count } == [1, 1, 0, 1])
    }

    @Test func pingWhileDisconnectedOrUnpairedSendsNothing() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try GSConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        try rig.pair()
        try rig.disconnectPhone()
        // Still listed and paired; the action stays, disabled, and activating it is accepted and does nothing.
        #expect(try Self.busctl(bus, ["get-property", GSConnectRig.busName, rig.devicePath, GSConnectRig.deviceInterface, "Paired", "Connected"]).stdout
                == "b true\nb false\n")
        #expect(try Self.actions(bus, rig, "Describe", ["s", "ping"]).stdout == "(bgav) false \"s\" 0\n")
        #expect(try Self.ping(bus, rig, "while away").status == 0)
        try rig.connectPhone()
        #expect(try waitUntil(timeout: 10, interval: 0.05) { try Self.actions(bus, rig, "Describe", ["s", "ping"]).stdout == "(bgav) true \"s\" 0\n" })
        try Self.barrier(bus, rig, "back")
        #expect(Self.messages(rig) == ["back"], "nothing was queued while disconnected")
        // Unpaired (by the phone): the plugins are unloaded, the action is gone, Activate fails.
        try rig.unpair()
        let gone = try Self.ping(bus, rig, "unpaired")
        #expect(gone.status != 0 && gone.stderr.contains("Unknown action"), "\(gone)")
        #expect(try Self.actions(bus, rig, "List").stdout.contains("\"ping\"") == false)
    }

    @Test func notificationsAreForwardedOnlyWhenTurnedOn() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try GSConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        #expect(rig.startedNotificationServer)
        try rig.pair()
        let server = try Self.notificationServer(bus)

        // On (the default): a Notify to the server's unique name goes to the phone.
        try Self.notify(bus, to: server, app: "iCare", "Eye break", "Look far away")
        let forwarded = try rig.waitForPackets(type: "kdeconnect.notification", count: 1, timeout: 10)
        let body = GSConnectRig.body(forwarded[0])
        #expect(body["id"] as? String == "fdo|null|0")
        #expect(body["appName"] as? String == "iCare")
        #expect(body["title"] as? String == "Eye break")
        #expect(body["text"] as? String == "Look far away")
        #expect(body["ticker"] as? String == "Eye break: Look far away")
        #expect(body["isClearable"] as? Bool == false)

        // Off: the plugin sees it and sends nothing.
        try rig.setForwarding(false)
        try Self.notify(bus, to: server, app: "iCare off", "Off", "not sent")
        try Self.waitForPluginToSee(rig, "iCare off")
        try Self.barrier(bus, rig, "after off")
        #expect(Self.notifications(rig).count == 1)

        // send-active off: without logind the session counts as active, so nothing goes either.
        try rig.setForwarding(true)
        try rig.setNotificationSetting("send-active", "false")
        try Self.notify(bus, to: server, app: "iCare active", "Active", "not sent")
        try Self.waitForPluginToSee(rig, "iCare active")
        try Self.barrier(bus, rig, "after send-active")
        #expect(Self.notifications(rig).count == 1)

        // On again; the id carries the replaced id given to Notify, not the one the server returns.
        try rig.setNotificationSetting("send-active", "true")
        try Self.notify(bus, to: server, app: "iCare", replacing: 7, "Again", "replacing 7")
        let again = try rig.waitForPackets(type: "kdeconnect.notification", count: 2, timeout: 10)
        #expect(GSConnectRig.body(again[1])["id"] as? String == "fdo|null|7")
        #expect(GSConnectRig.body(again[1])["isClearable"] as? Bool == true)
    }

    /// GSConnect 54 forwards a `Notify` only when its destination is the server's unique name: one sent to the
    /// well-known name (as `gdbus call -d org.freedesktop.Notifications`, dbus-send or libdbus send it) is
    /// dropped. Fixed in 56 (commit ef1d402f, "Fix deduplication logic for fdo notifications").
    @Test func notifyToTheWellKnownNameIsNotForwardedOn54() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try GSConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        try rig.pair()
        try Self.notify(bus, to: "org.freedesktop.Notifications", app: "iCare", "Well-known", "to org.freedesktop.Notifications")
        // The marker, to the unique name, takes a longer road through GSConnect (the sender's look-up) than the drop.
        try Self.notify(bus, to: try Self.notificationServer(bus), app: "iCare", "Marker", "to the unique name")
        let seen = try rig.waitForPackets(type: "kdeconnect.notification", count: 1, timeout: 10)
        try Self.barrier(bus, rig, "after the marker")
        let titles = Self.notifications(rig).map { $0["title"] as? String ?? "?" }
        if try GSConnectRig.version() < 56 {
            #expect(titles == ["Marker"], "\(seen)")
        } else {
            #expect(titles == ["Well-known", "Marker"], "\(seen)")
        }
    }
}
