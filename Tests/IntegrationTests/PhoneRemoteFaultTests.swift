import Testing
import Foundation
import TestSupport

/// The phone remote when things go wrong, with the real kdeconnectd 22.12 and the fake phone
/// (`PhoneRemoteTests.Rig`): a phone unpaired, kdeconnectd stopped and started again while the
/// setting changes, a list file iCare cannot read. The desktop's reminders go on in each.
@Suite(.serialized) struct PhoneRemoteFaultTests {
    typealias Rig = PhoneRemoteTests.Rig

    func hasOurs(_ rig: Rig) throws -> Bool {
        let keys = Set(try rig.listInFile().keys)
        return Set(PhoneRemoteTests.ours).isSubset(of: keys)
    }

    @Test func anUnpairedPhonesListLosesICaresCommandsAndKeepsTheirs() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        try rig.addTheirOwn("their-lamp", name: "Lamp")
        try rig.start()
        _ = try rig.waitForList(withOurs: true)
        try rig.phone.unpair()
        // KDE Connect keeps an unpaired phone's settings folder: iCare takes its own entries out of it.
        let gone = try waitUntil(timeout: 10) { try !self.hasOurs(rig) }
        #expect(gone, "an unpaired phone's list still has iCare's commands: \((try? rig.listInFile()) ?? [:])\n\(rig.service.log)")
        #expect(try rig.listInFile() == ["their-lamp": ["name": "Lamp", "command": "true"]])
    }

    @Test func kdeConnectStoppedAndStartedAgainWhileTheSettingChanges() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        try rig.start()
        _ = try rig.waitForList(withOurs: true)
        rig.phone.stopDaemon()
        // While kdeconnectd is gone iCare cannot know the paired phones, so it touches no list.
        #expect(try rig.icarectl("set", "PhoneReminders", "off").status == 0)
        Thread.sleep(forTimeInterval: 1)
        #expect(try hasOurs(rig), "iCare changed a list while KDE Connect was away")
        #expect(try rig.service.property("State").hasPrefix("s "), "icared still answers")
        // kdeconnectd back: the phone, still paired, loses iCare's commands.
        try rig.phone.startDaemon()
        let gone = try waitUntil(timeout: 15) { try !self.hasOurs(rig) }
        #expect(gone, "after kdeconnectd came back, the list kept iCare's commands:\n\(rig.service.log)")
        #expect(try rig.icarectl("set", "PhoneReminders", "on").status == 0)
        #expect(try waitUntil(timeout: 10) { try self.hasOurs(rig) }, "\(rig.service.log)")
        // Through all of it the desktop's reminders went on: the next reminder comes, and the phone is tapped.
        // The break is skipped first so that the next one is due with the phone back: on a loaded machine
        // the restart can outlast the 8 s interval, and a phone that is away when a break is due gets no ping.
        let pingsBefore = rig.phone.packets(type: "kdeconnect.ping").count
        #expect(try rig.icarectl("skip").status == 0)
        #expect(try waitUntil(timeout: 30) { try rig.service.property("State") == "s \"due\"" }, "no reminder: \(rig.service.log)")
        #expect(try rig.phone.waitForPackets(type: "kdeconnect.ping", count: pingsBefore + 1, timeout: 10).count == pingsBefore + 1)
    }

    @Test func aListICareCannotReadIsLeftAloneAndSaidOnce() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        try FileManager.default.createDirectory(atPath: (rig.listFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let garbage = "[General]\ncommands=something else entirely\nmine=1\n"
        try garbage.write(toFile: rig.listFile, atomically: true, encoding: .utf8)
        try rig.start()
        let said = waitUntil(timeout: 10) { rig.service.log.contains("is not the byte array KDE Connect writes") }
        #expect(said, "no line about the unreadable list:\n\(rig.service.log)")
        // A few changes later: still the same bytes, still said once; the reminder still comes.
        for value in ["off", "on", "off", "on"] { _ = try rig.icarectl("set", "PhoneReminders", value) }
        #expect(try String(contentsOfFile: rig.listFile, encoding: .utf8) == garbage)
        #expect(rig.service.log.components(separatedBy: "is not the byte array KDE Connect writes").count == 2, "\(rig.service.log)")
        #expect(try waitUntil(timeout: 30) { try rig.service.property("State") == "s \"due\"" }, "\(rig.service.log)")
    }

    @Test func aPhoneWithRunCommandOffIsSaidOnceAndItsListWaits() throws {
        let rig = try Rig(config: "PhoneReminders = true\n", runCommand: false)
        defer { rig.stop() }
        try rig.start()
        let line = "has Run command off; iCare's commands wait in its list until it is on."
        #expect(waitUntil(timeout: 10) { rig.service.log.contains(line) }, "\(rig.service.log)")
        #expect(try waitUntil(timeout: 10) { try self.hasOurs(rig) }, "the list waits with iCare's commands: \(rig.service.log)")
        for value in ["off", "on", "off", "on"] { _ = try rig.icarectl("set", "PhoneReminders", value) }
        try rig.phone.disconnectPhone()
        try rig.phone.connectPhone()
        Thread.sleep(forTimeInterval: 1)
        #expect(rig.service.log.components(separatedBy: line).count == 2, "said once: \(rig.service.log)")
        #expect(rig.phone.packets(type: "kdeconnect.runcommand").isEmpty, "a phone without Run command gets no list")
        // Its ping does not send the person to a Run command the phone does not show.
        #expect(try waitUntil(timeout: 30) { try rig.service.property("State") == "s \"due\"" }, "no reminder: \(rig.service.log)")
        let ping = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 5)
        let message = KDEConnectRig.body(ping[0])["message"] as? String ?? ""
        #expect(message.hasPrefix("iCare: time for an eye break.") && !message.contains("Run command"), "\(ping)")
    }

    /// The phone's Run command folder cannot be made (a file stands where it goes, as a folder that cannot
    /// be written does for a person; the tests run as root, whom permissions do not stop): said once in the
    /// log, the list left alone, and the reminder and the phone's ping still come, without the sentence.
    @Test func aListThatCannotBeWrittenIsSaidOnceAndTheRemindersGoOn() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        let folder = URL(fileURLWithPath: rig.listFile).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: folder)  // kdeconnectd made it when the phone paired
        try Data("not a folder".utf8).write(to: folder)
        try rig.start()
        let said = "its Run command list:"
        #expect(waitUntil(timeout: 15) { rig.service.log.contains(said) }, "\(rig.service.log)")
        for value in ["off", "on"] { _ = try rig.icarectl("set", "PhoneReminders", value) }
        #expect(try waitUntil(timeout: 30) { try rig.service.property("State") == "s \"due\"" }, "no reminder: \(rig.service.log)")
        let ping = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 10)
        let message = KDEConnectRig.body(ping[0])["message"] as? String ?? ""
        #expect(message.hasPrefix("iCare: time for an eye break.") && !message.contains("Run command"), "\(ping)")
        #expect(rig.service.log.components(separatedBy: said).count == 2, "said once: \(rig.service.log)")
        #expect(try String(contentsOf: folder, encoding: .utf8) == "not a folder", "what stood there is left alone")
    }

    /// icared alone in its folder, without icarectl beside it (a copy run by hand): nothing the phone could
    /// run, so no commands in its list, said once in the log; the phone is still tapped, without the sentence.
    @Test func withoutIcarectlBesideItThePhoneGetsNoCommandsAndThePingStillComes() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        let alone = rig.service.home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Products.path("icared"), toPath: alone.appendingPathComponent("icared").path)
        rig.service.program = alone.appendingPathComponent("icared").path
        try rig.start()
        let said = "icarectl is not beside icared, so the phones get no commands from iCare."
        #expect(waitUntil(timeout: 10) { rig.service.log.contains(said) }, "\(rig.service.log)")
        #expect(try waitUntil(timeout: 30) { try rig.service.property("State") == "s \"due\"" }, "no reminder: \(rig.service.log)")
        let ping = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 10)
        let message = KDEConnectRig.body(ping[0])["message"] as? String ?? ""
        #expect(message.hasPrefix("iCare: time for an eye break.") && !message.contains("Run command"), "\(ping)")
        let offered = FileManager.default.fileExists(atPath: rig.listFile) && (try? hasOurs(rig)) == true
        #expect(!offered && rig.lastList()?["icare-start"] == nil, "commands that could not run were offered: \((try? rig.listInFile()) ?? [:])")
        #expect(rig.service.log.components(separatedBy: said).count == 2, "said once: \(rig.service.log)")
    }

    @Test func aCommandThatDoesNotApplyNowChangesNothingAndSaysWhyInKDEConnectsLog() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        try rig.start()
        _ = try rig.waitForList(withOurs: true)
        // Paused, so nothing is due: Snooze does not apply. icarectl refuses, and its sentence goes where
        // kdeconnectd's output goes (its log, the journal on a desktop); no dialog, no change.
        #expect(try rig.icarectl("pause").status == 0)
        try rig.phone.send("kdeconnect.runcommand.request", body: "{\"key\": \"icare-snooze\"}")
        let said = waitUntil(timeout: 10) { rig.phone.logTail().contains("Cannot snooze while paused; resume first.") }
        #expect(said, "icarectl's refusal is not in kdeconnectd's log:\n\(rig.phone.logTail())")
        #expect(try rig.service.property("State") == "s \"paused\"")
    }
}
