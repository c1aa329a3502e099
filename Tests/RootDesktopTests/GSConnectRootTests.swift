import Testing
import Foundation
import TestSupport

/// Issue 32 in the GNOME roots: GSConnect as Debian 13 (62) and Debian testing (74) ship it, its service (the
/// extension's gjs daemon, run directly as D-Bus activation runs it, under Xvfb) headless inside the root as the
/// root's user, on the session's buses and the session's dconf, paired with the fake phone over LAN protocol 8;
/// the root's installed icared (from ICARE_DEB, `--time-scale 300`: a reminder 8 s after the start) in a GNOME
/// session (XDG_CURRENT_DESKTOP=GNOME, `org.gnome.Shell` owned) whose XDG_CONFIG_HOME is GSConnect's; and a
/// notification server that records every call. Everything runs in the root's own network namespace with only
/// `lo` (GSConnect broadcasts); the phone and the recorders are the host's programs in that namespace.
@Suite(.serialized) struct GSConnectRootTests {
    static let label = "Pixel 7 (GSConnect)"

    static func version(_ release: DesktopRoot.Release) -> Int { release == .trixie ? 62 : 74 }

    /// The root and its desk (`PhoneRootDesk`) in a GNOME session, a holder of `org.gnome.Shell`, and GSConnect's
    /// service with the phone paired.
    final class Rig {
        let desk: PhoneRootDesk
        let shell: HeldBusName
        let phone: GSConnectRig

        /// `sharing`: GSConnect's "Share notifications" for the phone (`send-notifications`, on by default).
        init(_ release: DesktopRoot.Release, sharing: Bool) throws {
            desk = try PhoneRootDesk(release, activatable: ["ca.desrt.dconf"], variables: [
                "XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_DESKTOP": "gnome", "GSETTINGS_BACKEND": "dconf",
            ])
            do {
                shell = try HeldBusName("org.gnome.Shell", busAddress: desk.bus, networkOf: desk.root.pid, errors: desk.logFile("shell-name.log"))
                phone = try GSConnectRig(busAddress: desk.bus, protocolVersion: 8, elsewhere: try .inside(desk.root, session: desk.session))
                try phone.pair()
                try phone.setForwarding(sharing)
            } catch {
                desk.stop()
                throw error
            }
        }

        func stop() {
            phone.stop()
            shell.stop()
            desk.stop()
        }

        var pings: [[String: Any]] { phone.packets(type: "kdeconnect.ping") }
        var forwarded: [[String: Any]] { phone.packets(type: "kdeconnect.notification") }
        /// What makes the phone sound: a ping, or a notification neither silent nor a cancel.
        var alerting: [[String: Any]] {
            pings + forwarded.filter {
                let body = GSConnectRig.body($0)
                return body["silent"] as? Bool != true && body["isCancel"] as? Bool != true
            }
        }

        func waitForPhones() throws { try desk.waitForPhones(GSConnectRootTests.label, phoneLog: phone.logTail()) }

        /// GSConnect's side of the handshake: the identity it sent inside TLS (protocol 8).
        var desktopIdentities: [[String: Any]] { phone.packets(type: "kdeconnect.identity") }

        /// The device's properties as the ObjectManager lists them (busctl's text).
        func managedObjects() throws -> String {
            let r = try Subprocess.run(["busctl", "--user", "--json=short", "call", GSConnectRig.busName, GSConnectRig.managerPath,
                                        "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"],
                                       environment: ["DBUS_SESSION_BUS_ADDRESS": phone.busAddress], timeout: 10)
            guard r.status == 0 else { throw HarnessError("GetManagedObjects: \(r)") }
            return r.stdout
        }
    }

    /// The checks both tests make before icared starts: only lo, the version, protocol 8, the device on the bus.
    static func checkTheRig(_ rig: Rig, _ release: DesktopRoot.Release) throws {
        #expect(try rig.desk.links() == ["lo"], "nothing GSConnect broadcasts may leave the machine")
        #expect(rig.phone.loopbackLinks == ["lo"])
        #expect(try GSConnectRig.version(in: rig.desk.root) == version(release))
        let identities = rig.desktopIdentities
        #expect(identities.count == 1 && GSConnectRig.body(identities[0])["protocolVersion"] as? Int == 8,
                "GSConnect \(version(release)) sent its identity again inside TLS, saying 8: \(identities)")
        let objects = try rig.managedObjects()
        for property in ["Connected", "Paired", "Id", "Name", "Type", "IconName"] {
            #expect(objects.contains("\"\(property)\""), "the device has \(property): \(objects)")
        }
        print("GSConnectRootTests: GSConnect \(version(release)) in \(release): GetManagedObjects \(objects)")
    }

    /// With sharing off: one ping a reminder, and the phone as a remote (issue 39).
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func withSharingOffEachReminderPingsThePhoneOnce(_ release: DesktopRoot.Release) throws {
        let rig = try Rig(release, sharing: false)
        defer { rig.stop() }
        try Self.checkTheRig(rig, release)
        try rig.desk.startICare()
        try rig.waitForPhones()
        _ = try rig.desk.waitForReminder()
        let first = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 5)
        let message = GSConnectRig.body(first[0])["message"] as? String ?? ""
        #expect(message.hasPrefix("iCare: time for an eye break."), "\(first)")
        let taken = try rig.desk.takeTheBreak()
        #expect(taken.ofThisBreak(rig.pings).count == 1, "one ping for one reminder, none for the countdown or the end: \(rig.pings)")
        #expect(rig.forwarded.isEmpty, "sharing is off: \(rig.forwarded)")
        #expect(rig.desk.server.iCareNotifies.contains { $0.summary.hasPrefix("Look far away") }, "the desktop kept its countdown: \(rig.desk.server.dump)")
        // The phone as a remote: iCare's commands in GSConnect's list (the session's dconf), the ping saying so,
        // and Pause from the phone acting on the installed icared through the installed icarectl.
        #expect(message.hasSuffix("Start it from your phone under Run command."), "\(message)")
        let list = rig.phone.packets(type: "kdeconnect.runcommand").last.flatMap { GSConnectRig.body($0)["commandList"] as? String } ?? ""
        #expect(list.contains("\"icare-start\"") && list.contains("'/usr/bin/icarectl' pause 1h"), "GSConnect \(Self.version(release))'s list: \(list)")
        try rig.phone.send("kdeconnect.runcommand.request", body: "{\"key\": \"icare-pause\"}")
        #expect(try waitUntil(timeout: 10, interval: 0.05) { try rig.desk.state() == "(<'paused'>,)" },
                "Pause from the phone through GSConnect \(Self.version(release)): \((try? rig.desk.state()) ?? "?")\n\(rig.desk.icareLog)")
        rig.stop()
        #expect(rig.desk.root.leftovers().isEmpty, "left running: \(rig.desk.root.leftovers())")
    }

    /// GSConnect's default: it shares the desktop's notifications. One break alerts the phone once: the
    /// reminder, forwarded; no ping, and no countdown or "Break complete" bubble after it. Then another app's
    /// Notify addressed to the well-known name (as gdbus sends it): GSConnect 56 and later forward it too.
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func withSharingOnTheBreakAlertsThePhoneOnce(_ release: DesktopRoot.Release) throws {
        let rig = try Rig(release, sharing: true)
        defer { rig.stop() }
        try Self.checkTheRig(rig, release)
        try rig.desk.startICare()
        try rig.waitForPhones()
        let reminder = try rig.desk.waitForReminder()
        let forwarded = try rig.phone.waitForPackets(type: "kdeconnect.notification", count: 1, timeout: 5)
        #expect(GSConnectRig.body(forwarded[0])["appName"] as? String == "iCare", "\(forwarded)")
        let taken = try rig.desk.takeTheBreak()
        #expect(taken.ofThisBreak(rig.alerting).count == 1, "one alert from the reminder to the end: pings \(rig.pings), notifications \(rig.forwarded)")
        #expect(taken.ofThisBreak(rig.pings).isEmpty, "no ping while the reminder is shared: \(rig.pings)")
        let after = rig.desk.server.calls.filter { $0.method == "Notify" && $0.isICare && $0.time > reminder.time && taken.contains($0.time) }
        #expect(after.isEmpty, "no countdown or 'Break complete' bubble after the reminder: \(rig.desk.server.dump)\nicared:\n\(rig.desk.icareLog)")
        print("GSConnectRootTests: GSConnect \(Self.version(release)), sharing on: \(rig.forwarded.count) notification(s) at the phone, "
              + "\(rig.pings.count) ping(s), \(after.count) iCare Notify after the reminder; the reminder as the phone got it: "
              + "\(GSConnectRig.body(forwarded[0]))")
        // Another app's Notify to the well-known name: dropped by 54 (GSConnectRigTests), forwarded from 56 on.
        let before = rig.forwarded.count
        try rig.desk.notify(summary: "to the well-known name")
        let all = try rig.phone.waitForPackets(type: "kdeconnect.notification", count: before + 1, timeout: 10)
        #expect(GSConnectRig.body(all[before])["title"] as? String == "to the well-known name", "\(all.dropFirst(before))")
        rig.stop()
        #expect(rig.desk.root.leftovers().isEmpty, "left running: \(rig.desk.root.leftovers())")
    }
}
