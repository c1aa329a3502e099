import Testing
import Foundation
import TestSupport

/// Several phones paired with one real kdeconnectd 22.12 (`KDEConnectRig.addPhone`), as a person with a
/// phone and a tablet has them: each phone with Run command gets iCare's commands, a tap on any of them
/// acts, each ping is worded for its own phone, and one phone unpairing touches only its own list.
@Suite(.serialized) struct PhoneRemoteManyPhonesTests {
    typealias Rig = PhoneRemoteTests.Rig
    static let sentence = "Start it from your phone under Run command."

    /// The Run command list a phone received last.
    static func lastList(_ packets: [[String: Any]]) -> [String: [String: String]] { FakePhone.runCommandList(in: packets) ?? [:] }

    static func hasOurs(_ list: [String: [String: String]]) -> Bool { PhoneRemoteTests.ours.allSatisfy { list[$0] != nil } }

    @Test func eachPairedPhoneGetsICaresCommandsAndItsOwnPing() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        let tablet = try rig.phone.addPhone(name: "Tab S9")
        let old = try rig.phone.addPhone(name: "Moto G", runCommand: false)
        try rig.start()
        // In KDE Connect's order, which is its ids' order.
        let phones = try waitUntil(timeout: 15) {
            let listed = try rig.service.property("Phones")
            return listed.hasPrefix("as 3 ") && ["Moto G", "Pixel 7", "Tab S9"].allSatisfy { listed.contains("\"\($0) (KDE Connect)\"") }
        }
        #expect(phones, "Phones is \((try? rig.service.property("Phones")) ?? "?")\n\(rig.service.log)")

        // Both phones with Run command get iCare's commands; the one with it off gets no list, said once.
        _ = try rig.waitForList(withOurs: true)
        let listed = waitUntil(timeout: 15, interval: 0.05) { Self.hasOurs(Self.lastList(tablet.packets(type: "kdeconnect.runcommand"))) }
        #expect(listed, "the tablet's list: \(Self.lastList(tablet.packets(type: "kdeconnect.runcommand")))\n\(rig.service.log)")
        let off = "KDE Connect's phone \(old.deviceId) has Run command off"
        #expect(waitUntil(timeout: 10) { rig.service.log.contains(off) }, "\(rig.service.log)")

        // The reminder taps each phone once; only the phones showing the commands are sent to them.
        #expect(try waitUntil(timeout: 30) { try rig.service.property("State") == "s \"due\"" }, "no reminder: \(rig.service.log)")
        let phonesPings: [(label: String, pings: () throws -> [[String: Any]], worded: Bool)] = [
            ("Pixel 7", { try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 10) }, true),
            ("Tab S9", { try tablet.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 10) }, true),
            ("Moto G", { try old.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 10) }, false),
        ]
        for (label, ping, worded) in phonesPings {
            let pings = try ping()
            let message = KDEConnectRig.body(pings[0])["message"] as? String ?? ""
            #expect(pings.count == 1 && message.hasPrefix("iCare: time for an eye break.") && message.contains(Self.sentence) == worded,
                    "\(label)'s ping: \(pings)")
        }
        #expect(old.packets(type: "kdeconnect.runcommand").isEmpty, "a phone without Run command got a list")

        // The tablet's Snooze acts as the bubble's would.
        try tablet.send("kdeconnect.runcommand.request", body: "{\"key\": \"icare-snooze\"}")
        #expect(try waitUntil(timeout: 10, interval: 0.02) { try rig.service.property("State") == "s \"snoozed\"" }, "\(rig.service.log)")

        // The tablet unpairs: its list loses iCare's commands, the first phone's keeps them.
        let tabletFile = (rig.listFile as NSString).deletingLastPathComponent
            .replacingOccurrences(of: rig.phone.deviceId, with: tablet.deviceId) + "/config"
        #expect(FileManager.default.fileExists(atPath: tabletFile), "no list file for the tablet at \(tabletFile)")
        try tablet.unpair()
        let gone = waitUntil(timeout: 10) { !((try? String(contentsOfFile: tabletFile, encoding: .utf8)) ?? "icare-").contains("icare-") }
        #expect(gone, "the unpaired tablet's list: \((try? String(contentsOfFile: tabletFile, encoding: .utf8)) ?? "?")\n\(rig.service.log)")
        let first = try rig.listInFile()
        #expect(Self.hasOurs(first), "the first phone's list lost iCare's commands: \(first)")
        #expect(rig.service.log.components(separatedBy: off).count == 2, "said once: \(rig.service.log)")
    }
}
