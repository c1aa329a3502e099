import Testing
import Foundation
import TestSupport

/// The phone remote with icared as installed (docs/as-installed.md): inside its unit's sandbox, with the
/// real kdeconnectd 22.12 and the fake phone (`PhoneRemoteTests.Rig`). The unit grants KDE Connect's folder
/// (`ReadWritePaths=-%E/kdeconnect`) only when it is there as icared starts.
@Suite(.serialized) struct PhoneRemoteAsInstalledTests {
    typealias Rig = PhoneRemoteTests.Rig

    static func limits(_ rig: Rig) throws -> String { try rig.service.property("SandboxLimits") }

    @Test func withKDEConnectsFolderThereAtStartTheCommandsReachThePhone() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        try rig.start()
        _ = try rig.waitForList(withOurs: true)
        #expect(!rig.service.log.contains("Read-only file system"), "\(rig.service.log)")
        #expect(try Self.limits(rig) == "as 0")
    }

    @Test func kdeConnectSetUpAfterIcaredStartedIsSaidAndTheNextStartBringsTheCommands() throws {
        let rig = try Rig(config: "PhoneReminders = true\n", icaredFirst: true)
        defer { rig.stop() }
        // The folder is read-only to icared: it says so on the bus, in the log once, and in icarectl status.
        #expect(try waitUntil(timeout: 15) { try Self.limits(rig) == "as 1 \"phone-commands-restart\"" },
                "\((try? Self.limits(rig)) ?? "")\n\(rig.service.log)")
        #expect(rig.service.log.contains("KDE Connect's folder was made after icared started"), "\(rig.service.log)")
        let status = try rig.icarectl("status")
        #expect(status.stdout.contains("Here, iCare cannot do everything:"), "\(status)")
        #expect(status.stdout.contains("systemctl --user restart icared"), "\(status)")
        #expect(FileManager.default.fileExists(atPath: rig.listFile) == false, "nothing was written")
        // The reminder still taps the phone.
        #expect(try waitUntil(timeout: 30) { try rig.service.property("State") == "s \"due\"" }, "\(rig.service.log)")
        #expect(try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 10).count >= 1)
        // The next start (a restart, or the next login) grants the folder: the commands reach the phone.
        #expect(try rig.service.signal(SIGTERM) == 0)
        try rig.start()
        _ = try rig.waitForList(withOurs: true)
        #expect(try Self.limits(rig) == "as 0")
    }

    @Test func withoutTheGrantTheListCannotBeWritten() throws {
        // Today's unit before this grant: the commands never reached the phone (docs/as-installed.md).
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        rig.service.unitFile = try AsInstalledTests.unit(without: "ReadWritePaths=-%E/kdeconnect", in: rig.service.home)
        try rig.start()
        #expect(waitUntil(timeout: 15) { rig.service.log.contains("Read-only file system") }, "\(rig.service.log)")
        #expect(rig.lastList().map { list in PhoneRemoteTests.ours.allSatisfy { list[$0] == nil } } ?? true)
    }
}
