import Testing
import Foundation
import TestSupport

/// Issue 39 with the real thing: a real `kdeconnectd` (Debian 12's 22.12) paired with the fake phone,
/// which declares Run command as the Android app does; the real `icared` on the same private bus, its
/// schedule 300 times faster. iCare's commands reach the phone as kdeconnectd's own
/// `kdeconnect.runcommand` list; the phone's `kdeconnect.runcommand.request` makes kdeconnectd run
/// them with `/bin/sh -c`, and icared's `State` follows. The person's own commands are written with
/// Qt's own QSettings (PyQt5), as KDE Connect's settings page writes them, and must come out intact.
@Suite(.serialized) struct PhoneRemoteTests {
    static let ours = ["icare-start", "icare-snooze", "icare-skip", "icare-pause"]

    final class Rig: @unchecked Sendable {
        let service: ServiceHarness
        let server: FakeNotificationServer
        let phone: KDEConnectRig
        /// The phone's Run command list in KDE Connect's settings.
        let listFile: String

        /// `icaredFirst`: icared is started before KDE Connect is set up (its folder made after icared started).
        init(config: String, environment: [String: String] = [:], runCommand: Bool = true, icaredFirst: Bool = false) throws {
            service = try ServiceHarness(config: "Interval = 40m\nBreakDuration = 10s\n" + config, environment: environment, start: false)
            server = try FakeNotificationServer(environment: service.bus.environment, capabilities: NotificationTests.gnome)
            try server.start()
            if icaredFirst { try service.start(arguments: Self.arguments) }
            // icared and kdeconnectd share XDG_CONFIG_HOME on a desktop: here kdeconnectd's folder is in icared's.
            let kdeconnect = service.home.appendingPathComponent("config/kdeconnect").path
            phone = try KDEConnectRig(busAddress: service.bus.address, runCommand: runCommand, settingsFolder: kdeconnect)
            try phone.pair()
            listFile = kdeconnect + "/\(phone.deviceId)/kdeconnect_runcommand/config"
        }

        static let arguments = ["--log-stderr", "--debug", "--time-scale", "300"]

        func start() throws { try service.start(arguments: Self.arguments) }

        func stop() {
            phone.stop()
            server.stop()
            service.stop()
        }

        /// The list the phone received last (`commandList` is a JSON text inside the packet).
        func lastList() -> [String: [String: String]]? { FakePhone.runCommandList(in: phone.packets(type: "kdeconnect.runcommand")) }

        /// Waits until the phone's list holds iCare's commands (or none of them); returns how long it took.
        func waitForList(withOurs: Bool, timeout: TimeInterval = 15) throws -> TimeInterval {
            let start = Date()
            let ok = waitUntil(timeout: timeout, interval: 0.02) {
                guard let list = self.lastList() else { return false }
                return PhoneRemoteTests.ours.allSatisfy { (list[$0] != nil) == withOurs }
            }
            #expect(ok, "the phone's list \(withOurs ? "lacks" : "still has") iCare's commands: \(String(describing: lastList()))\nlog:\n\(service.log)\n\(phone.logTail())")
            return Date().timeIntervalSince(start)
        }

        func icarectl(_ arguments: String...) throws -> ProcessResult {
            try Subprocess.run([try Products.path("icarectl")] + arguments, environment: service.environment)
        }

        /// The phone taps a command; returns how long until `State` was `state`.
        func tap(_ key: String, expecting state: String) throws -> TimeInterval {
            let start = Date()
            try phone.send("kdeconnect.runcommand.request", body: "{\"key\": \"\(key)\"}")
            let ok = try waitUntil(timeout: 10, interval: 0.01) { try self.service.property("State") == "s \"\(state)\"" }
            #expect(ok, "\(key) from the phone: State is \((try? service.property("State")) ?? "?"), not \(state)\nlog:\n\(service.log)\n\(phone.logTail())")
            return Date().timeIntervalSince(start)
        }

        /// Writes with Qt's QSettings (PyQt5) as KDE Connect's settings page does: the list read, an entry
        /// added, the list written back, then `configChanged` on the bus.
        func addTheirOwn(_ key: String, name: String) throws {
            try KDEConnectRig.addTheirOwnCommand(key, name: name, to: listFile)
            let emit = try Subprocess.run(["gdbus", "emit", "--session", "--object-path", "/kdeconnect/\(phone.deviceId)/kdeconnect_runcommand",
                                           "--signal", "org.kde.kdeconnect.config.configChanged"], environment: service.bus.environment)
            guard emit.status == 0 else { throw HarnessError("gdbus emit failed: \(emit)") }
        }

        /// The list in the file, as Qt reads it.
        func listInFile() throws -> [String: [String: String]] {
            let r = try Subprocess.run(["/usr/bin/python3", "-c", """
                import sys
                from PyQt5.QtCore import QSettings
                print(bytes(QSettings(sys.argv[1], QSettings.IniFormat).value("commands")).decode())
                """, listFile])
            guard r.status == 0, let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: [String: String]] else {
                throw HarnessError("the list file does not read: \(r)")
            }
            return list
        }
    }

    @Test func thePhoneOffersStartSnoozeSkipAndPauseAndEachActsAsTheBubblesButtons() throws {
        let rig = try Rig(config: "PhoneReminders = false\n")
        defer { rig.stop() }
        try rig.addTheirOwn("their-lamp", name: "Lamp ☀ uit")
        try rig.start()
        #expect(try rig.waitForList(withOurs: false, timeout: 3) >= 0)
        let turnedOn = Date()
        #expect(try rig.icarectl("set", "PhoneReminders", "on").status == 0)
        _ = try rig.waitForList(withOurs: true)
        let shown = Date().timeIntervalSince(turnedOn)
        print("PhoneRemoteTests: the phone had iCare's commands \(Int(shown * 1000)) ms after PhoneReminders went on")
        let list = try #require(rig.lastList())
        let icarectl = try Products.path("icarectl")
        #expect(list["icare-start"] == ["name": "Start eye break", "command": "'\(icarectl)' start"], "\(list)")
        #expect(list["icare-snooze"]?["name"] == "Snooze eye break")
        #expect(list["icare-skip"]?["name"] == "Skip eye break")
        #expect(list["icare-pause"] == ["name": "Pause eye breaks for an hour", "command": "'\(icarectl)' pause 1h"])
        #expect(list["their-lamp"] == ["name": "Lamp ☀ uit", "command": "true"], "the person's own: \(list)")

        // The reminder (4 s scaled); the phone's ping says the break can start from there.
        let ok = try waitUntil(timeout: 30) { try rig.service.property("State") == "s \"due\"" }
        #expect(ok, "no reminder: \(rig.service.log)")
        let ping = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 5)
        #expect((KDEConnectRig.body(ping[0])["message"] as? String)?.hasSuffix("Start it from your phone under Run command.") == true, "\(ping)")
        let snoozed = try rig.tap("icare-snooze", expecting: "snoozed")
        let skipped = try rig.tap("icare-skip", expecting: "waiting")
        #expect(try rig.service.property("SkippedToday") == "u 1")
        let started = try rig.tap("icare-start", expecting: "break")
        print("PhoneRemoteTests: from the phone's request to State: snooze \(Int(snoozed * 1000)) ms, skip \(Int(skipped * 1000)) ms, start \(Int(started * 1000)) ms")
        // The desktop shows the countdown, as after the bubble's Start, and then the break's end.
        let countdown = waitUntil(timeout: 5) { rig.server.iCareNotifies.contains { $0.summary.hasPrefix("Look far away · ") } }
        #expect(countdown, "no countdown on the desktop: \(rig.server.dump)")
        let complete = waitUntil(timeout: 20) { rig.server.iCareNotifies.contains { $0.summary == "Break complete" } }
        #expect(complete, "no 'Break complete' on the desktop: \(rig.server.dump)")

        // Pause for an hour from the phone: the entry becomes Resume, and Resume resumes.
        _ = try rig.tap("icare-pause", expecting: "paused")
        let resume = waitUntil(timeout: 10) { rig.lastList()?["icare-pause"]?["name"] == "Resume eye breaks" }
        #expect(resume, "the pause entry did not become Resume: \(String(describing: rig.lastList()))")
        _ = try rig.tap("icare-pause", expecting: "waiting")

        // PhoneReminders off: iCare's commands leave the phone; the person's stay, in the file too.
        #expect(try rig.icarectl("set", "PhoneReminders", "off").status == 0)
        _ = try rig.waitForList(withOurs: false)
        #expect(rig.lastList()?["their-lamp"] != nil)
        #expect(try rig.listInFile() == ["their-lamp": ["name": "Lamp ☀ uit", "command": "true"]])
    }

    @Test func theirOwnCommandsWrittenWhileICareWritesAllSurvive() throws {
        let rig = try Rig(config: "PhoneReminders = true\n")
        defer { rig.stop() }
        try rig.addTheirOwn("their-0", name: "Before")
        try rig.start()
        _ = try rig.waitForList(withOurs: true)
        // KDE Connect's settings page adds entries while iCare takes its commands away and back.
        let writer = Thread {
            for i in 1...12 { try? rig.addTheirOwn("their-\(i)", name: "Mine \(i)") }
        }
        writer.start()
        for i in 0..<12 { _ = try rig.icarectl("set", "PhoneReminders", i % 2 == 0 ? "off" : "on") }
        #expect(waitUntil(timeout: 60) { writer.isFinished })
        let all = Set((0...12).map { "their-\($0)" })
        let settled = try waitUntil(timeout: 15) {
            let keys = Set(try rig.listInFile().keys)
            return all.isSubset(of: keys) && Set(Self.ours).isSubset(of: keys)
        }
        let keys = (try? rig.listInFile().keys.sorted()) ?? []
        #expect(settled, "the list should hold all 13 of theirs and iCare's 4: \(keys)\nlog:\n\(rig.service.log)")
        #expect(keys.count == 17, "\(keys)")
        _ = try rig.waitForList(withOurs: true)
        #expect(all.isSubset(of: Set(rig.lastList()?.keys.map { $0 } ?? [])), "the phone's list: \(String(describing: rig.lastList()))")
    }

    @Test func inDutchTheCommandsAndThePingSpeakDutch() throws {
        let rig = try Rig(config: "PhoneReminders = true\n", environment: try TranslationTests.dutch())
        defer { rig.stop() }
        try rig.start()
        _ = try rig.waitForList(withOurs: true)
        let names = Self.ours.map { rig.lastList()?[$0]?["name"] ?? "?" }
        #expect(names == ["Oogpauze starten", "Oogpauze uitstellen", "Oogpauze overslaan", "Oogpauzes een uur pauzeren"])
        let ping = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 30)
        let message = KDEConnectRig.body(ping[0])["message"] as? String ?? ""
        #expect(message.hasPrefix("iCare: tijd voor een oogpauze.") && message.hasSuffix("Start hem vanaf je telefoon, met de opdrachten van iCare."),
                "\(message)")
        // Paused by the person: the fourth entry resumes, in Dutch too.
        #expect(try rig.icarectl("pause").status == 0)
        let resume = waitUntil(timeout: 10) { rig.lastList()?["icare-pause"]?["name"] == "Oogpauzes hervatten" }
        #expect(resume, "\(rig.lastList() ?? [:])")
    }

    /// The phone's texts in every language of po/LINGUAS: its four commands, as the phone lists them, and
    /// the ping, in the language and without English left but names.
    @Test(arguments: Catalogs.languages) func thePhonesTextsSpeakEachLanguage(_ language: String) throws {
        let rig = try Rig(config: "PhoneReminders = true\n", environment: try Catalogs.environment(language))
        defer { rig.stop() }
        try rig.start()
        _ = try rig.waitForList(withOurs: true)
        let names = Self.ours.map { rig.lastList()?[$0]?["name"] ?? "?" }
        let want = try ["Start eye break", "Snooze eye break", "Skip eye break", "Pause eye breaks for an hour"]
            .map { try Catalogs.translation(of: $0, in: language) }
        #expect(names == want && !names.contains("Start eye break"), "\(language): \(names)")
        let ping = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 30)
        let message = KDEConnectRig.body(ping[0])["message"] as? String ?? ""
        #expect(!message.isEmpty && !message.contains("time for an eye break"), "\(language): \(message)")
        let left = try Catalogs.englishLeft(in: ([message] + names).joined(separator: "\n"), language: language)
        #expect(left.isEmpty, "the phone's texts in \(language) say in English: \(left)")
    }
}
