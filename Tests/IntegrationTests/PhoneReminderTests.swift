import Testing
import Foundation
import TestSupport

/// Issue 32 with the real thing: a real `kdeconnectd` (Debian 12's 22.12) paired with the fake phone
/// (`KDEConnectRig`, in a network namespace of its own with only loopback), the real `icared` on the
/// same private bus, its schedule 300 times faster (a reminder 4 s after the start; 8 s in the tests
/// that take a break, so that the next reminder comes 8 s after it), and the fake
/// notification server, which kdeconnectd watches. What is counted is what the phone received.
@Suite(.serialized) struct PhoneReminderTests {
    static let label = "Pixel 7 (KDE Connect)"

    final class Rig {
        let service: ServiceHarness
        let server: FakeNotificationServer
        let phone: KDEConnectRig

        /// `forwarding`: KDE Connect sends the desktop's notifications to the phone. icared starts after the pairing.
        init(config: String = "PhoneReminders = true\n", forwarding: Bool = false) throws {
            service = try ServiceHarness(config: "BreakDuration = 10s\n" + config, start: false)
            server = try FakeNotificationServer(environment: service.bus.environment,
                                                capabilities: NotificationTests.gnome + " inhibitions")
            try server.start()
            phone = try KDEConnectRig(busAddress: service.bus.address)
            try phone.pair()
            if forwarding { try phone.setForwarding(true) }
            try service.start(arguments: ["--log-stderr", "--debug", "--time-scale", "300"])
        }

        func stop() {
            phone.stop()
            server.stop()
            service.stop()
        }

        var pings: [[String: Any]] { phone.packets(type: "kdeconnect.ping") }
        var forwarded: [[String: Any]] { phone.packets(type: "kdeconnect.notification") }
        /// What made the phone sound and vibrate during `taken`: a ping, or a notification not marked silent.
        func alerts(of taken: PhoneBreak) -> Int {
            taken.ofThisBreak(pings).count + taken.ofThisBreak(forwarded).filter { KDEConnectRig.body($0)["silent"] as? Bool != true }.count
        }

        /// Starts the break from the reminder's Start and waits until it is over (`Interval = 40m`: 8 s scaled).
        func takeTheBreak(_ reminder: NotifyRecord) throws -> PhoneBreak {
            try PhoneBreak(reminder, server: server, service: service, breakSeconds: 10, intervalSeconds: 8)
        }

        func phones() throws -> String { try service.property("Phones") }

        func waitForPhones(_ expected: String, timeout: TimeInterval = 15) throws {
            let ok = try waitUntil(timeout: timeout) { try self.phones() == expected }
            #expect(ok, "Phones is \((try? phones()) ?? "?"), not \(expected); log:\n\(service.log)\n\(phone.logTail())")
        }

        /// Waits for the `n`th reminder on the desktop (a Notify from iCare with Start: one per reminder).
        func waitForReminder(_ n: Int, timeout: TimeInterval = 30) throws {
            let ok = waitUntil(timeout: timeout) { self.server.iCareNotifies.filter { $0.actions.contains("start") }.count >= n }
            #expect(ok, "no reminder \(n) on the desktop: \(server.dump)\nlog:\n\(service.log)")
        }
    }

    @Test func eachReminderTapsThePhoneOnceAndNothingElseDoes() throws {
        let rig = try Rig(config: "PhoneReminders = true\nInterval = 40m\n")
        defer { rig.stop() }
        try rig.waitForPhones("as 1 \"\(Self.label)\"")
        try rig.waitForReminder(1)
        let first = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 5)
        let message = KDEConnectRig.body(first[0])["message"] as? String ?? ""
        #expect(message.hasPrefix("iCare: time for an eye break."), "\(first)")
        #expect(message.contains("10 seconds"), "the break's length: \(message)")
        // The break at the desk: its countdown (each second) and its end tap nothing.
        let reminder = try #require(rig.server.iCareNotifies.last { $0.actions.contains("start") })
        let taken = try rig.takeTheBreak(reminder)
        #expect(taken.ofThisBreak(rig.pings).count == 1, "one ping for one reminder: \(rig.pings)")
        #expect(rig.forwarded.isEmpty, "forwarding is off: \(rig.forwarded)")
        // The next reminder taps again, once.
        try rig.waitForReminder(2)
        _ = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 2, timeout: 5)
        #expect(rig.pings.count == 2)
    }

    @Test func withTheSettingOffOrPausedNoPingGoes() throws {
        let rig = try Rig(config: "")
        defer { rig.stop() }
        try rig.waitForPhones("as 1 \"\(Self.label)\"")
        #expect(try rig.service.property("PhoneReminders") == "b false", "off by default")
        try rig.waitForReminder(1)
        _ = try rig.service.property("State")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(rig.pings.isEmpty, "PhoneReminders is off: \(rig.pings)")
        // On, then paused: the reminder held back holds the phone's too.
        let on = try Subprocess.run([try Products.path("icarectl"), "set", "PhoneReminders", "on"], environment: rig.service.environment)
        #expect(on.status == 0, "\(on)")
        let pause = try Subprocess.run([try Products.path("icarectl"), "pause", "30m"], environment: rig.service.environment)
        #expect(pause.status == 0, "\(pause)")
        Thread.sleep(forTimeInterval: 6)  // more than one scaled interval
        #expect(rig.pings.isEmpty, "paused: \(rig.pings)")
        // Resumed: the next reminder taps.
        _ = try Subprocess.run([try Products.path("icarectl"), "resume"], environment: rig.service.environment)
        try rig.waitForReminder(2)
        _ = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 5)
        #expect(rig.pings.count == 1)
    }

    @Test func inDoNotDisturbNoPingGoes() throws {
        let rig = try Rig(config: "PhoneReminders = true\nDndPolicy = defer\n")
        defer { rig.stop() }
        try rig.server.setInhibited(true)
        #expect(try waitUntil { try rig.service.property("DoNotDisturb") == "b true" })
        try rig.waitForPhones("as 1 \"\(Self.label)\"")
        #expect(try waitUntil(timeout: 10) { try rig.service.string("State") == "due" })
        Thread.sleep(forTimeInterval: 1.5)
        #expect(rig.pings.isEmpty, "held by do-not-disturb: \(rig.pings)")
        #expect(rig.server.iCareNotifies.isEmpty)
        // Do-not-disturb ends: the reminder shows, and taps the phone once.
        try rig.server.setInhibited(false)
        try rig.waitForReminder(1)
        _ = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 5)
        Thread.sleep(forTimeInterval: 1)
        #expect(rig.pings.count == 1)
    }

    /// KDE Connect 22.12 forwarding the desktop's notifications: the phone alerts once from the reminder to
    /// the end of the break, and the desktop keeps the countdown in the ring (no bubble after the reminder).
    @Test func aPhoneThatGetsEveryNotificationAlertsOnceABreak() throws {
        let rig = try Rig(config: "PhoneReminders = true\nInterval = 40m\n", forwarding: true)
        defer { rig.stop() }
        try rig.waitForPhones("as 1 \"\(Self.label)\"")
        try rig.waitForReminder(1)
        let forwarded = try rig.phone.waitForPackets(type: "kdeconnect.notification", count: 1, timeout: 5)
        #expect(KDEConnectRig.body(forwarded[0])["appName"] as? String == "iCare", "\(forwarded)")
        let reminder = try #require(rig.server.iCareNotifies.last { $0.actions.contains("start") })
        let taken = try rig.takeTheBreak(reminder)
        #expect(rig.alerts(of: taken) == 1, "one alert from the reminder to the end: pings \(rig.pings), notifications \(rig.forwarded)")
        // The desktop: the reminder was taken away at the start, and nothing followed it.
        let after = taken.after(reminder, in: rig.server)
        #expect(after.isEmpty, "no countdown or 'Break complete' bubble: \(after)")
        #expect(!rig.server.calls("CloseNotification").isEmpty, "the reminder closed at the start: \(rig.server.dump)")
        #expect(rig.service.log.contains("Phones: Pixel 7 (KDE Connect)."))
    }

    @Test func thePhonesFollowPairingReachAndTheDaemon() throws {
        let rig = try Rig()
        defer { rig.stop() }
        try rig.waitForPhones("as 1 \"\(Self.label)\"")
        try rig.phone.disconnectPhone()
        try rig.waitForPhones("as 0")
        try rig.phone.connectPhone()
        try rig.waitForPhones("as 1 \"\(Self.label)\"")
        try rig.phone.unpair()
        try rig.waitForPhones("as 0")
        try rig.phone.pair()
        try rig.waitForPhones("as 1 \"\(Self.label)\"")
        // KDE Connect stopped and started again: the phone goes, and comes back.
        rig.phone.stopDaemon()
        try rig.waitForPhones("as 0")
        try rig.phone.startDaemon()
        try rig.waitForPhones("as 1 \"\(Self.label)\"", timeout: 30)
        // The desktop's reminder went out all the while, and icared is still there.
        try rig.waitForReminder(1)
        #expect(try rig.service.string("State") != "")
    }

    @Test func kdeConnectGoneBeforeTheReminderIsSaidOnceAndTheReminderStillShows() throws {
        let rig = try Rig()
        defer { rig.stop() }
        try rig.waitForPhones("as 1 \"\(Self.label)\"")
        // KDE Connect goes in the moment before the reminder: nothing to ping, the desktop still reminds.
        rig.phone.stopDaemon()
        try rig.waitForPhones("as 0")
        try rig.waitForReminder(1)
        Thread.sleep(forTimeInterval: 1)
        #expect(rig.pings.isEmpty)
        let said = rig.service.log.components(separatedBy: "Phones: none linked.").count - 1
        #expect(said == 1, "said once: \(rig.service.log)")
    }
}
