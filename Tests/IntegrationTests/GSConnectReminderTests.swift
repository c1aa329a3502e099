import Testing
import Foundation
import TestSupport
import LoopSupport

/// Issue 32 on GNOME's side: the real GSConnect 54 service (`GSConnectRig`: headless, in a network
/// namespace of its own with only loopback, its settings in a real dconf) paired with the fake phone,
/// the real `icared` on the same bus in a GNOME session (GNOME Shell's name owned, as the real Shell
/// owns it, since GSConnect's keys live under GNOME's), its schedule 300 times faster (a reminder 8 s
/// after the start and 8 s after a break), and the fake notification server. What is counted is what
/// the phone received.
@Suite(.serialized) struct GSConnectReminderTests {
    static let label = "Pixel 7 (GSConnect)"

    final class Rig {
        let bus: PrivateBus
        let desktop: LoopThread
        let server: FakeNotificationServer
        let phone: GSConnectRig
        let service: ServiceHarness

        /// `sharing`: GSConnect's "Share notifications" for the phone (`send-notifications`, on by default).
        /// `start: false` leaves icared to `startService()`, after the test has set GSConnect's settings.
        init(sharing: Bool, start: Bool = true) throws {
            bus = try PrivateBus()
            desktop = try LoopThread()
            desktop.start()
            try FakeBusProgram(busName: "org.gnome.Shell").appear(on: desktop, address: bus.address)
            server = try FakeNotificationServer(environment: bus.environment, capabilities: NotificationTests.gnome)
            try server.start()
            phone = try GSConnectRig(busAddress: bus.address)
            _ = try phone.pair()
            try phone.setForwarding(sharing)
            // icared's XDG_CONFIG_HOME is the rig's: it reads the dconf database GSConnect's settings are in.
            service = try ServiceHarness(config: nil, environment: ["XDG_CURRENT_DESKTOP": "GNOME"], bus: bus, start: false,
                                         home: phone.directory)
            try FileManager.default.createDirectory(atPath: service.configDirectory, withIntermediateDirectories: true)
            try "Interval = 40m\nBreakDuration = 10s\nPhoneReminders = true\n".write(toFile: service.configDirectory + "/config", atomically: true, encoding: .utf8)
            if start { try startService() }
        }

        func startService() throws { try service.start(arguments: ["--log-stderr", "--debug", "--time-scale", "300"]) }

        /// The `dconf` tool on GSConnect's settings.
        @discardableResult
        func dconf(_ arguments: String...) throws -> String {
            let r = try Subprocess.run(phone.settingsLauncher + ["dconf"] + arguments, environment: phone.environment)
            guard r.status == 0 else { throw HarnessError("dconf \(arguments): \(r)") }
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func stop() {
            phone.stop()
            server.stop()
            desktop.stop()
            service.stop()
        }

        var pings: [[String: Any]] { phone.packets(type: "kdeconnect.ping") }
        var forwarded: [[String: Any]] { phone.packets(type: "kdeconnect.notification") }

        func waitForPhones() throws {
            let ok = try waitUntil(timeout: 15) { try self.service.property("Phones") == "as 1 \"\(GSConnectReminderTests.label)\"" }
            #expect(ok, "Phones is \((try? service.property("Phones")) ?? "?"); log:\n\(service.log)\n\(phone.logTail())")
        }

        func waitForReminder() throws -> NotifyRecord {
            var found: NotifyRecord?
            _ = waitUntil(timeout: 30) {
                found = self.server.iCareNotifies.first { $0.actions.contains("start") }
                return found != nil
            }
            return try #require(found, "no reminder: \(server.dump)\nlog:\n\(service.log)")
        }

        /// Starts the break from the bubble and waits until it has run to its end.
        func takeTheBreak(_ reminder: NotifyRecord) throws -> PhoneBreak {
            try PhoneBreak(reminder, server: server, service: service, breakSeconds: 10, intervalSeconds: 8)
        }

        /// What made the phone sound during `taken`: a ping, or a notification neither silent nor a cancel.
        func alerts(of taken: PhoneBreak) -> Int {
            taken.ofThisBreak(pings).count + taken.ofThisBreak(forwarded).filter {
                let body = GSConnectRig.body($0)
                return body["silent"] as? Bool != true && body["isCancel"] as? Bool != true
            }.count
        }
    }

    @Test func withSharingOffEachReminderPingsThePhoneOnce() throws {
        let rig = try Rig(sharing: false)
        defer { rig.stop() }
        try rig.waitForPhones()
        let reminder = try rig.waitForReminder()
        let pings = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 15)
        let message = GSConnectRig.body(pings[0])["message"] as? String ?? ""
        #expect(message.hasPrefix("iCare: time for an eye break."), "\(pings)")
        let taken = try rig.takeTheBreak(reminder)
        #expect(taken.ofThisBreak(rig.pings).count == 1, "\(rig.pings)")
        #expect(rig.forwarded.isEmpty, "sharing is off: \(rig.forwarded)")
        // The desktop kept its countdown and its "Break complete".
        #expect(rig.server.iCareNotifies.contains { $0.summary.hasPrefix("Look far away") }, "\(rig.server.dump)")
    }

    /// GSConnect's signals, never a poll: the phone out of reach and back, unpaired.
    @Test func thePhonesFollowGSConnectsDevice() throws {
        let rig = try Rig(sharing: false)
        defer { rig.stop() }
        try rig.waitForPhones()
        func phones(_ expected: String) throws -> Bool {
            try waitUntil(timeout: 15) { try rig.service.property("Phones") == expected }
        }
        try rig.phone.disconnectPhone()
        #expect(try phones("as 0"), "out of reach; log:\n\(rig.service.log)")
        try rig.phone.connectPhone()
        #expect(try phones("as 1 \"\(Self.label)\""), "back")
        try rig.phone.unpair()
        #expect(try phones("as 0"), "unpaired")
    }

    /// GSConnect's default: it shares the desktop's notifications. Before GSConnect 56 it shares only a
    /// Notify sent to the server's unique name, as icared now sends it; each update under a new id, each
    /// one alerting the phone. One break alerts it once: the reminder; no ping, no bubble after it.
    @Test func withSharingOnTheReminderReachesThePhoneOnceAndNothingFollows() throws {
        let rig = try Rig(sharing: true)
        defer { rig.stop() }
        try rig.waitForPhones()
        let reminder = try rig.waitForReminder()
        let forwarded = try rig.phone.waitForPackets(type: "kdeconnect.notification", count: 1, timeout: 5)
        #expect(GSConnectRig.body(forwarded[0])["appName"] as? String == "iCare", "\(forwarded)")
        let taken = try rig.takeTheBreak(reminder)
        #expect(rig.alerts(of: taken) == 1, "one alert a break: pings \(rig.pings), notifications \(rig.forwarded)")
        let after = taken.after(reminder, in: rig.server)
        #expect(after.isEmpty, "no countdown or 'Break complete' bubble: \(after)")
    }
}
