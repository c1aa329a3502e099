import Testing
import Foundation
import TestSupport

/// The KDE Connect rig (Tests/TestSupport/KDEConnectRig.swift) proved with the real kdeconnectd 22.12
/// and the fake phone, through busctl and gdbus only: what the phone receives is what the desktop sent.
/// The shapes are in docs/desktop-facts.md, "Phones: KDE Connect". Each test has its own bus, namespace
/// and daemon. "Nothing else arrived" is proved with a barrier, not a sleep: a last ping sent after the
/// thing that must not arrive (kdeconnectd handles its bus messages in order and writes one TCP stream).
struct KDEConnectRigTests {
    static func busctl(_ bus: PrivateBus, _ arguments: [String]) throws -> ProcessResult {
        try Subprocess.run(["busctl", "--user"] + arguments, environment: bus.environment)
    }

    static func daemonCall(_ bus: PrivateBus, _ method: String, _ arguments: [String]) throws -> ProcessResult {
        try busctl(bus, ["call", "org.kde.kdeconnect", "/modules/kdeconnect", "org.kde.kdeconnect.daemon", method] + arguments)
    }

    static func sendPing(_ bus: PrivateBus, _ rig: KDEConnectRig, _ message: String) throws -> ProcessResult {
        try busctl(bus, ["call", "org.kde.kdeconnect", rig.devicePath + "/ping", "org.kde.kdeconnect.device.ping", "sendPing", "s", message])
    }

    static func notify(_ bus: PrivateBus, _ summary: String, _ body: String) throws {
        let r = try Subprocess.run(["gdbus", "call", "--session", "-d", "org.freedesktop.Notifications", "-o", "/org/freedesktop/Notifications",
                                    "-m", "org.freedesktop.Notifications.Notify", "icare", "0", "", summary, body, "[]", "{}", "5000"],
                                   environment: bus.environment)
        guard r.status == 0 else { throw HarnessError("Notify failed: \(r)") }
    }

    static func messages(_ rig: KDEConnectRig) -> [String] {
        rig.packets(type: "kdeconnect.ping").map { KDEConnectRig.body($0)["message"] as? String ?? "(none)" }
    }

    /// Sends a last ping and waits for it: everything kdeconnectd sent the phone before has arrived.
    static func barrier(_ bus: PrivateBus, _ rig: KDEConnectRig, _ marker: String) throws {
        let r = try sendPing(bus, rig, marker)
        guard r.status == 0 else { throw HarnessError("sendPing(\(marker)): \(r)") }
        guard waitUntil(timeout: 10, interval: 0.02, { messages(rig).contains(marker) }) else {
            throw HarnessError("the barrier ping '\(marker)' did not reach the phone in 10 s; pings: \(messages(rig))\n\(rig.logTail())")
        }
    }

    @Test func phonePairsAndIsListed() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try KDEConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        #expect(rig.startedNotificationServer)
        // Seen, not paired: listed by devices(false, false), not by deviceNames(true, true).
        #expect(try Self.daemonCall(bus, "devices", ["bb", "false", "false"]).stdout == "as 1 \"\(rig.deviceId)\"\n")
        #expect(try Self.daemonCall(bus, "deviceNames", ["bb", "true", "true"]).stdout == "a{ss} 0\n")
        try rig.pair()
        #expect(try Self.daemonCall(bus, "deviceNames", ["bb", "true", "true"]).stdout == "a{ss} 1 \"\(rig.deviceId)\" \"Pixel 7\"\n")
        let props = try Self.busctl(bus, ["get-property", "org.kde.kdeconnect", rig.devicePath, "org.kde.kdeconnect.device",
                                          "name", "isReachable", "isTrusted", "type"])
        #expect(props.stdout == "s \"Pixel 7\"\nb true\nb true\ns \"smartphone\"\n", "\(props)")
        // The desktop's acceptance reached the phone as the same pair packet.
        #expect(rig.packets(type: "kdeconnect.pair").map { KDEConnectRig.body($0)["pair"] as? Bool } == [true])
    }

    @Test func sendPingArrivesOnceWithItsMessage() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try KDEConnectRig(busAddress: bus.address, phoneName: "Fairphone 5")
        defer { rig.stop() }
        try rig.pair()
        #expect(try Self.daemonCall(bus, "deviceNames", ["bb", "true", "true"]).stdout == "a{ss} 1 \"\(rig.deviceId)\" \"Fairphone 5\"\n")
        let r = try Self.sendPing(bus, rig, "Time for a break")
        #expect(r.status == 0 && r.stdout.isEmpty, "\(r)")
        try Self.barrier(bus, rig, "barrier")
        #expect(Self.messages(rig) == ["Time for a break", "barrier"])
        let ping = try #require(rig.packets(type: "kdeconnect.ping").first)
        #expect(KDEConnectRig.body(ping).count == 1, "the ping's body is {\"message\": …} only: \(ping)")
    }

    @Test func notificationsAreForwardedOnlyWhenTurnedOn() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try KDEConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        try rig.pair()
        // Off by default.
        try Self.notify(bus, "Before", "forwarding is off")
        try Self.barrier(bus, rig, "off by default")
        #expect(rig.packets(type: "kdeconnect.notification").isEmpty, "\(rig.packets(type: "kdeconnect.notification"))")

        try rig.setForwarding(true)
        try Self.notify(bus, "Break", "Look away for 20 s")
        let forwarded = try rig.waitForPackets(type: "kdeconnect.notification", count: 1, timeout: 10)
        let body = KDEConnectRig.body(forwarded[0])
        #expect(body["ticker"] as? String == "Break: Look away for 20 s", "\(forwarded)")
        #expect(body["appName"] as? String == "icare")
        #expect(body["isClearable"] as? Bool == false)  // an expiring notification (timeout 5000)
        try Self.barrier(bus, rig, "one forwarded")
        #expect(rig.packets(type: "kdeconnect.notification").count == 1)

        try rig.setForwarding(false)
        try Self.notify(bus, "After", "forwarding is off again")
        try Self.barrier(bus, rig, "off again")
        #expect(rig.packets(type: "kdeconnect.notification").count == 1, "\(rig.packets(type: "kdeconnect.notification"))")
    }

    @Test func disconnectedPhoneIsUnreachableAndComesBack() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try KDEConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        try rig.pair()
        try rig.disconnectPhone()
        let props = try Self.busctl(bus, ["get-property", "org.kde.kdeconnect", rig.devicePath, "org.kde.kdeconnect.device", "isReachable", "isTrusted"])
        #expect(props.stdout == "b false\nb true\n", "\(props)")
        #expect(try Self.daemonCall(bus, "deviceNames", ["bb", "true", "true"]).stdout == "a{ss} 0\n")
        #expect(try Self.daemonCall(bus, "deviceNames", ["bb", "false", "true"]).stdout == "a{ss} 1 \"\(rig.deviceId)\" \"Pixel 7\"\n")
        // Unreachable, the device has no plugins: its ping object is gone.
        let gone = try Subprocess.run(["gdbus", "call", "--session", "-d", "org.kde.kdeconnect", "-o", rig.devicePath + "/ping",
                                       "-m", "org.kde.kdeconnect.device.ping.sendPing", "lost"], environment: bus.environment)
        #expect(gone.status != 0 && gone.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"), "\(gone)")

        try rig.connectPhone()
        #expect(try Self.daemonCall(bus, "deviceNames", ["bb", "true", "true"]).stdout == "a{ss} 1 \"\(rig.deviceId)\" \"Pixel 7\"\n")
        try Self.barrier(bus, rig, "back")
        #expect(Self.messages(rig) == ["back"])
    }

    @Test func restartedDaemonKeepsThePairing() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try KDEConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        try rig.pair()
        try rig.setForwarding(true)
        rig.stopDaemon()
        #expect(rig.daemonQuitCleanly, "kdeconnectd did not end after quit on /MainApplication\n\(rig.logTail())")
        #expect(try Self.busctl(bus, ["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                      "NameHasOwner", "s", "org.kde.kdeconnect"]).stdout == "b false\n")
        try rig.startDaemon()
        #expect(try Self.daemonCall(bus, "deviceNames", ["bb", "true", "true"]).stdout == "a{ss} 1 \"\(rig.deviceId)\" \"Pixel 7\"\n")
        let enabled = try Self.busctl(bus, ["call", "org.kde.kdeconnect", rig.devicePath, "org.kde.kdeconnect.device",
                                            "isPluginEnabled", "s", "kdeconnect_sendnotifications"])
        #expect(enabled.stdout == "b true\n", "\(enabled)")
        try Self.barrier(bus, rig, "after the restart")
        #expect(Self.messages(rig) == ["after the restart"])
    }

    @Test func versionOnTheBusIsThePackage() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try KDEConnectRig(busAddress: bus.address)
        defer { rig.stop() }
        let version = try rig.daemonVersion()
        let package = try Subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "kdeconnect"])
        // The package's upstream version, "22.12.3" of "22.12.3-1" on Debian 12 (an epoch would come first).
        let upstream = package.stdout.split(separator: ":").last.map { String($0.split(separator: "-").first ?? "") } ?? ""
        #expect(!version.isEmpty && version == upstream, "applicationVersion \(version), package \(package)")
    }

    @Test func stopLeavesNothingRunning() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let rig = try KDEConnectRig(busAddress: bus.address)
        let pid = try Self.busctl(bus, ["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                        "GetConnectionUnixProcessID", "s", "org.kde.kdeconnect"])
        let number = try #require(pid.stdout.split(separator: " ").last.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(kill(number, 0) == 0)
        let directory = rig.directory
        rig.stop()
        #expect(waitUntil(timeout: 5) { kill(number, 0) != 0 }, "kdeconnectd (pid \(number)) outlived the rig")
        #expect(try Self.busctl(bus, ["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                      "NameHasOwner", "s", "org.freedesktop.Notifications"]).stdout == "b false\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }
}
