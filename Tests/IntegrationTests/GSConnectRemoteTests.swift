import Testing
import Foundation
import TestSupport
import LoopSupport

/// Issue 39 on GNOME's side: the real GSConnect 54 service (`GSConnectRig`, its settings in a real dconf)
/// paired with the fake phone, which declares Run command as the Android app does; the real `icared` on
/// the same bus and the same dconf, its schedule 300 times faster. iCare writes its commands into
/// GSConnect's dconf list through dconf's own writer; GSConnect sends the list to the phone and runs a
/// requested command with `/bin/sh -c`. The person's own command, written with the `dconf` tool, must
/// stay as it was.
@Suite(.serialized) struct GSConnectRemoteTests {
    static let ours = PhoneRemoteTests.ours
    static let theirs = "{'their-lamp': <{'name': 'Lamp ☀ uit', 'command': 'true'}>}"

    /// GSConnect paired with the fake phone, notifications not forwarded; icared started by each test.
    typealias Rig = GSConnectReminderTests.Rig

    /// The Run command list the phone received last, as `{key: {name, command}}`.
    static func lastList(_ phone: GSConnectRig) -> [String: [String: String]] {
        FakePhone.runCommandList(in: phone.packets(type: "kdeconnect.runcommand")) ?? [:]
    }

    @Test func thePhoneGetsICaresCommandsThroughGSConnectAndTheyAct() throws {
        let rig = try Rig(sharing: false, start: false)
        defer { rig.stop() }
        let (phone, service) = (rig.phone, rig.service)
        let key = phone.deviceSettingsPath + "plugin/runcommand/command-list"
        let dconf = rig.dconf
        _ = try dconf("write", key, Self.theirs)
        try rig.startService()

        func lastList() -> [String: [String: String]] { Self.lastList(phone) }
        let listed = waitUntil(timeout: 15, interval: 0.05) { Set(Self.ours).isSubset(of: Set(lastList().keys)) }
        #expect(listed, "GSConnect did not send iCare's commands: \(lastList())\ndconf: \((try? dconf("read", key)) ?? "?")\nlog:\n\(service.log)\n\(phone.logTail())")
        let icarectl = try Products.path("icarectl")
        #expect(lastList()["icare-start"] == ["name": "Start eye break", "command": "'\(icarectl)' start"], "\(lastList())")
        #expect(lastList()["their-lamp"] == ["name": "Lamp ☀ uit", "command": "true"], "\(lastList())")

        #expect(try waitUntil(timeout: 30) { try service.property("State") == "s \"due\"" }, "no reminder: \(service.log)")
        var took: [String] = []
        for (command, state) in [("icare-snooze", "snoozed"), ("icare-start", "break"), ("icare-skip", "waiting")] {
            let asked = Date()
            try phone.send("kdeconnect.runcommand.request", body: "{\"key\": \"\(command)\"}")
            let ok = try waitUntil(timeout: 10, interval: 0.01) { try service.property("State") == "s \"\(state)\"" }
            #expect(ok, "\(command) from the phone through GSConnect: State is \((try? service.property("State")) ?? "?")\n\(service.log)\n\(phone.logTail())")
            took.append("\(command.dropFirst(6)) \(Int(Date().timeIntervalSince(asked) * 1000)) ms")
        }
        // Read by bench/phones.sh.
        let version = (try? GSConnectRig.version()).map(String.init) ?? "?"
        print("GSConnectRemoteTests: GSConnect \(version), from the phone's request to State: \(took.joined(separator: ", "))")

        // PhoneReminders off: GSConnect's list loses iCare's commands and keeps the person's, as written.
        #expect(try Subprocess.run([icarectl, "set", "PhoneReminders", "off"], environment: service.environment).status == 0)
        let gone = try waitUntil(timeout: 10) { try dconf("read", key) == Self.theirs }
        #expect(gone, "dconf: \((try? dconf("read", key)) ?? "?")\nlog:\n\(service.log)")
        #expect(waitUntil(timeout: 10) { lastList().keys.sorted() == ["their-lamp"] }, "\(lastList())")

        // On again, then the phone unpairs: its list in dconf loses iCare's commands, the person's stays.
        let turnedOn = Date()
        #expect(try Subprocess.run([icarectl, "set", "PhoneReminders", "on"], environment: service.environment).status == 0)
        let back = waitUntil(timeout: 10, interval: 0.01) { Set(Self.ours).isSubset(of: Set(lastList().keys)) }
        #expect(back, "\(lastList())\n\(service.log)")
        print("GSConnectRemoteTests: GSConnect \(version), the phone had iCare's commands \(Int(Date().timeIntervalSince(turnedOn) * 1000)) ms after PhoneReminders went on")
        #expect(try waitUntil(timeout: 10) { try dconf("read", key).contains("icare-start") }, "\(service.log)")
        try phone.unpair()
        let cleaned = try waitUntil(timeout: 10) { try dconf("read", key) == Self.theirs }
        #expect(cleaned, "an unpaired phone's list: \((try? dconf("read", key)) ?? "?")\nlog:\n\(service.log)")
    }

    /// Run command turned off for the phone in GSConnect (its `disabled-plugins`, as GSConnect's own settings
    /// page writes it): said once in the log, and the reminder's ping does not send the person there.
    @Test func aPhoneWithRunCommandOffInGSConnectIsSaidOnceAndItsPingSaysNothingOfIt() throws {
        let rig = try Rig(sharing: false, start: false)
        defer { rig.stop() }
        try rig.dconf("write", rig.phone.deviceSettingsPath + "disabled-plugins", "['runcommand']")
        try rig.startService()
        let service = rig.service
        let line = "has Run command off; iCare's commands wait in its list until it is on."
        #expect(waitUntil(timeout: 15) { service.log.contains("GSConnect's phone") && service.log.contains(line) }, "\(service.log)")
        #expect(try waitUntil(timeout: 30) { try service.property("State") == "s \"due\"" }, "no reminder: \(service.log)")
        let ping = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 10)
        let message = GSConnectRig.body(ping[0])["message"] as? String ?? ""
        #expect(message.hasPrefix("iCare: time for an eye break.") && !message.contains("Run command"), "\(ping)")
        #expect(service.log.components(separatedBy: line).count == 2, "said once: \(service.log)")
    }

    /// A list that is not the `a{sv}` GSConnect writes (another program's doing): said once, left as it is,
    /// and the reminder still comes.
    @Test func aListICareCannotReadIsLeftAloneAndSaidOnce() throws {
        let rig = try Rig(sharing: false, start: false)
        defer { rig.stop() }
        let key = rig.phone.deviceSettingsPath + "plugin/runcommand/command-list"
        try rig.dconf("write", key, "'not a list'")
        try rig.startService()
        let service = rig.service
        let said = "the Run command list is not the a{sv} GSConnect writes"
        #expect(waitUntil(timeout: 15) { service.log.contains(said) }, "\(service.log)")
        for value in ["off", "on"] { _ = try Subprocess.run([try Products.path("icarectl"), "set", "PhoneReminders", value], environment: service.environment) }
        #expect(try waitUntil(timeout: 30) { try service.property("State") == "s \"due\"" }, "no reminder: \(service.log)")
        #expect(try rig.dconf("read", key) == "'not a list'")
        #expect(service.log.components(separatedBy: said).count == 2, "said once: \(service.log)")
    }

    /// GSConnect's service ends while iCare runs (a crash, or its extension turned off) and starts again.
    /// While it is gone iCare cannot know the paired phones and touches no list; the setting changed
    /// meanwhile is applied once it is back; the phone is listed again, gets iCare's commands, and they act.
    @Test func gsConnectStoppedAndStartedAgainWhileTheSettingChanges() throws {
        let rig = try Rig(sharing: false, start: false)
        defer { rig.stop() }
        let key = rig.phone.deviceSettingsPath + "plugin/runcommand/command-list"
        try rig.dconf("write", key, Self.theirs)
        try rig.startService()
        let (service, phone) = (rig.service, rig.phone)
        let icarectl = try Products.path("icarectl")
        func set(_ value: String) throws -> Int32 {
            try Subprocess.run([icarectl, "set", "PhoneReminders", value], environment: service.environment).status
        }
        try rig.waitForPhones()
        #expect(try waitUntil(timeout: 15) { try rig.dconf("read", key).contains("icare-start") }, "\(service.log)")

        phone.stopService()
        #expect(try waitUntil(timeout: 10) { try service.property("Phones") == "as 0" }, "GSConnect gone: \(service.log)")
        #expect(try set("off") == 0)
        Thread.sleep(forTimeInterval: 1)
        #expect(try rig.dconf("read", key).contains("icare-start"), "iCare changed a list while GSConnect was away")
        #expect(try service.property("State").hasPrefix("s "), "icared still answers")

        try phone.startServiceAgain()
        try rig.waitForPhones()
        let gone = try waitUntil(timeout: 15) { try rig.dconf("read", key) == Self.theirs }
        #expect(gone, "after GSConnect came back: \((try? rig.dconf("read", key)) ?? "?")\n\(service.log)")
        #expect(try set("on") == 0)
        let listed = waitUntil(timeout: 15, interval: 0.05) { Set(Self.ours).isSubset(of: Set(Self.lastList(phone).keys)) }
        #expect(listed, "the phone's list after GSConnect came back: \(Self.lastList(phone))\n\(service.log)\n\(phone.logTail())")
        #expect(Self.lastList(phone)["their-lamp"] == ["name": "Lamp ☀ uit", "command": "true"])

        // The desktop's reminders went on through it all, and the restarted GSConnect runs iCare's Snooze.
        #expect(try waitUntil(timeout: 30) { try service.property("State") == "s \"due\"" }, "no reminder: \(service.log)")
        try phone.send("kdeconnect.runcommand.request", body: "{\"key\": \"icare-snooze\"}")
        #expect(try waitUntil(timeout: 10, interval: 0.02) { try service.property("State") == "s \"snoozed\"" }, "\(service.log)")
    }
}
