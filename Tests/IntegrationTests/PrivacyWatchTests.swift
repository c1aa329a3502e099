import Testing
import Foundation
import TestSupport
import LoopSupport

/// docs/privacy.md proven by watching icared (issue 54): the real icared, as installed (inside its unit's
/// sandbox, scripts/unit-sandbox), runs one session that touches its features, and what it does is
/// recorded; the page must list exactly that.
///
/// The files and sockets: strace (`SyscallWatch`), around the sandbox, following icared and the
/// processes it starts. strace rather than fanotify (which needs CAP_SYS_ADMIN in the first user
/// namespace and sees no sockets) or a seccomp notifier (which would replace the unit's own filter):
/// strace needs no privilege over its own child, sees every path a call names, failed calls too, and the
/// sockets' addresses. The bus names: `busctl monitor` on the test's own buses (`BusRecorder`), since a
/// name is in a message, not in a system call; icared's connections are told by its process id.
///
/// The session is GNOME's: the first start's notice and its "Open iCare"; reminders answered with
/// Start (then End break), Snooze and Skip; GNOME's do-not-disturb (the dconf key, through the real
/// dconf-service); logind's lock, sleep and GNOME's
/// screensaver and idle monitor; a microphone in use in a real PipeWire; the sounds through
/// pipewire-pulse (a server without the `sound` capability); the ring drawn by the Shell extension's
/// name, then in a tray (a StatusNotifierWatcher) once the extension is gone;
/// GNOME's eyesight breaks; a real kdeconnectd paired with the fake phone;
/// a setting changed. Then short sessions on Plasma, XFCE, sway, Cinnamon and MATE, and GNOME with
/// GSConnect (PrivacyWatchTests+Desktops.swift). What no watched session shows (the Flatpak's, an icared
/// systemd did not start)
/// is marked on the page with the desktop and the test that shows it.
@Suite(.serialized) struct PrivacyWatchTests {
    static let config = "BreakDuration = 10s\nPhoneReminders = true\n"
    static let arguments = ["--debug", "--time-scale", "300"]

    /// This build's icared itself (a sanitizer's build opens its runtime's files too).
    static var icared: String {
        URL(fileURLWithPath: Products.binDirectory + "/icared").resolvingSymlinksInPath().path
    }

    @Test func thePrivacyPageListsExactlyWhatIcaredDid() throws {
        var record = try Self.watchSession()
        record.merge(try Self.watchPlasmaSession())
        record.merge(try Self.watchXfceSession())
        record.merge(try Self.watchSwaySession())
        record.merge(try Self.watchCinnamonSession())
        record.merge(try Self.watchMateSession())
        record.merge(try Self.watchGSConnectSession())
        print("PrivacyWatchTests: what icared did, as docs/privacy.md words it:\n\(record.text)")
        let page = try PrivacyPage.read()
        let problems = page.compare(record, programs: ["icared"])
        if !problems.isEmpty { Issue.record("docs/privacy.md and the watched session disagree:\n\(problems.joined(separator: "\n"))") }
    }

    /// Runs the session under watch; icared's record.
    static func watchSession() throws -> PrivacyRecord {
        let notify = try NotifySocket()
        let rig = try PresenceRig(systemBus: true, state: .waiting(startedSecondsAgo: 0), environment: [
            "XDG_CURRENT_DESKTOP": "GNOME", "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "60000000",
        ])
        let service = rig.service
        var parts: [() -> Void] = []
        defer {
            for stop in parts.reversed() { stop() }
            rig.stop()
        }
        // A first start: neither the state file nor the history, nor the app's mark.
        try FileManager.default.removeItem(atPath: service.stateDirectory)
        try config.write(toFile: service.configDirectory + "/config", atomically: true, encoding: .utf8)
        // A person's home has its cache folder (which is read-only to icared).
        try FileManager.default.createDirectory(at: service.home.appendingPathComponent(".cache"), withIntermediateDirectories: true)
        guard let system = rig.system else { throw HarnessError("no system bus") }
        // The service manager reads the notify socket as it comes: a full one would block icared's sd_notify.
        let draining = Box(true)
        let drainer = Thread { while draining.value { _ = notify.collect(for: 0.2) } }
        drainer.start()
        parts.append { draining.value = false }

        let watched = try WatchedICared(service: service, system: system)
        parts.append(watched.stop)
        let logind = try rig.startLogind()
        let screenSaver = try rig.startSessionMock(name: "org.gnome.ScreenSaver", arguments: ["--template", "gnome_screensaver"])
        let mutter = try rig.startFakeMutter()
        let dconf = try Subprocess.start([DndDconfRig.dconfService], environment: service.environment)
        parts.append { Subprocess.kill9(dconf) }
        // GNOME Shell's capabilities but `sound`: icared plays the sounds itself.
        let server = try FakeNotificationServer(environment: service.bus.environment,
                                                capabilities: "actions body body-markup icon-static persistence")
        try server.start()
        parts.append(server.stop)
        let desktop = try LoopThread()
        desktop.start()
        parts.append(desktop.stop)
        let watcher = FakeWatcher(), shellRing = FakeShellRing()
        for fake in [watcher, FakeScreenTime(), shellRing, FakeGnomeSession()] as [FakeBusProgram] {
            try fake.appear(on: desktop, address: service.bus.address)
        }
        let pipeWire = try HeadlessPipeWire(environment: service.environment)
        parts.append(pipeWire.stop)
        try pipeWire.startPulse()
        // Before icared: the unit grants KDE Connect's folder only where it is there when icared starts.
        let phone = try KDEConnectRig(busAddress: service.bus.address,
                                      settingsFolder: service.home.appendingPathComponent("config/kdeconnect").path)
        parts.append(phone.stop)
        try phone.pair()

        let pid = try watched.start()
        parts.append { kill(pid, SIGKILL) }
        do {
            try drive(service: service, server: server, logind: logind, screenSaver: screenSaver, mutter: mutter,
                      pipeWire: pipeWire, phone: phone)
            // The ring: drawn by the Shell's extension while it runs, then in the panel's tray without it.
            step("the ring in a tray")
            try desktop.sync { shellRing.vanish() }
            #expect(waitUntil(timeout: 10) { (try? desktop.sync { watcher.items.isEmpty }) == false }, "the ring never came to the tray")
            // What `icarectl doctor` and the app's page "This desktop" read.
            step("what icared can see here")
            #expect(try service.property("Capabilities").hasPrefix("a"))
        } catch {
            throw HarnessError("\(error)\nicared's log:\n\(service.log)")
        }

        return try watched.finish(normalize: normalizer(service: service, system: system, notify: notify.path, phone: phone.deviceId))
    }

    static func step(_ what: String) { print("PrivacyWatchTests: \(what)") }

    /// The person's session, each step waited on (bounded) where icared's answer shows.
    static func drive(service: ServiceHarness, server: FakeNotificationServer, logind: PresenceLogind, screenSaver: PresenceMock,
                      mutter: PresenceFakeMutter, pipeWire: HeadlessPipeWire, phone: KDEConnectRig) throws {
        step("the first start")
        // The first start's notice, and its "Open iCare" (the app is not there: the call fails, as it may).
        let welcome = try NotificationTests.first(server) { $0.isICare && $0.summary == WelcomeTests.summary }
        try server.click(welcome.id, "open")
        try service.waitLogged("iCare's window")
        step("the reminders")
        // The reminders (the schedule 300 times faster: one every four seconds), and their buttons.
        for (n, key) in ["start", "snooze", "skip"].enumerated() {
            try mutter.input()   // the person is at the desk (an idle person gets no reminder)
            var reminder: NotifyRecord?
            _ = waitUntil(timeout: 15) {
                let reminders = server.iCareNotifies.filter { $0.actions.contains("snooze") }
                reminder = reminders.count > n ? reminders.last : nil
                return reminder != nil
            }
            guard let reminder else { throw HarnessError("no reminder \(n + 1); recorded:\n\(server.dump)\nlog:\n\(service.log)") }
            try server.click(reminder.id, key)
            if key == "start" {
                #expect(try waitUntil(timeout: 10) { try service.string("State") == "break" })
                try server.click(reminder.id, "end")
            }
            #expect(try waitUntil(timeout: 10) { try service.string("State") != "due" && service.string("State") != "break" },
                    "\(key): \(String(describing: try? service.string("State")))")
        }
        step("do not disturb")
        // Do not disturb: GNOME's key through dconf (KDE's, the server's `Inhibited`, counts on Plasma only).
        try gsettings(service, "set", "org.gnome.desktop.notifications", "show-banners", "false")
        try waitProperty(service, "DoNotDisturb", "b true")
        try gsettings(service, "set", "org.gnome.desktop.notifications", "show-banners", "true")
        try waitProperty(service, "DoNotDisturb", "b false")
        step("lock, idle and sleep")
        // Lock, idle and sleep.
        try logind.setLocked(PresenceServiceTests.session, true)
        #expect(try waitUntil(timeout: 10) { try service.string("PauseReason") == "locked" }, "log:\n\(service.log)")
        try logind.setLocked(PresenceServiceTests.session, false)
        _ = try screenSaver.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "true"])
        _ = try screenSaver.call("/org/gnome/ScreenSaver", "org.gnome.ScreenSaver", "SetActive", ["b", "false"])
        try mutter.pretendIdle(seconds: 600)
        try mutter.input()
        try logind.prepareForSleep(true)
        try logind.prepareForSleep(false)
        step("a call")
        // A call: a microphone in use.
        let call = try pipeWire.stream(["pw-record", service.home.appendingPathComponent("voice.wav").path])
        try waitProperty(service, "Busy", "b true", prefix: true)
        Subprocess.kill9(call)
        try waitProperty(service, "Busy", "b false", prefix: true)
        step("a setting and the phone's list")
        // A setting changed (icared writes its config file), and the phone's list written (KDE Connect).
        #expect(try service.busctl(["set-property", "org.icare.Reminder", "/org/icare/Reminder", "org.icare.Reminder", "SnoozeDuration", "u", "420"]).status == 0)
        let list = service.home.appendingPathComponent("config/kdeconnect/\(phone.deviceId)/kdeconnect_runcommand/config").path
        #expect(waitUntil(timeout: 10) { (try? String(contentsOfFile: list, encoding: .utf8))?.contains("icare") == true },
                "KDE Connect's list has iCare's commands; log:\n\(service.log)")
    }

    static func gsettings(_ service: ServiceHarness, _ arguments: String...) throws {
        var env = service.environment
        env["GSETTINGS_BACKEND"] = "dconf"
        let r = try Subprocess.run(["gsettings"] + arguments, environment: env)
        guard r.status == 0 else { throw HarnessError("gsettings \(arguments): \(r)") }
    }

    static func waitProperty(_ service: ServiceHarness, _ name: String, _ value: String, prefix: Bool = false) throws {
        let ok = try waitUntil(timeout: 10) {
            let v = try service.property(name)
            return prefix ? v.hasPrefix(value) : v == value + "\n" || v == value
        }
        guard ok else { throw HarnessError("\(name) never became \(value) (\((try? service.property(name)) ?? "?"))") }
    }

    /// The test's places in the page's words.
    static func normalizer(service: ServiceHarness, system: PrivateBus?, notify: String, phone: String?,
                           places: [(String, String)] = []) -> PathNormalizer {
        let home = service.home.path
        let folder = URL(fileURLWithPath: icared).deletingLastPathComponent()
        let socket = { (address: String) in
            address.split(separator: ",").first.map { String($0.dropFirst("unix:path=".count)) } ?? address
        }
        return PathNormalizer(replacements: places + [
            (home + "/config", "~/.config"), (home + "/.local/state", "~/.local/state"), (home + "/runtime", "$XDG_RUNTIME_DIR"),
            (home, "~"), (socket(service.bus.address), "$DBUS_SESSION_BUS_ADDRESS"),
            (notify, "$NOTIFY_SOCKET"), (folder.path, "PREFIX/bin"), (folder.deletingLastPathComponent().path, "PREFIX"),
        ] + (system.map { [(socket($0.address), "$DBUS_SYSTEM_BUS_ADDRESS")] } ?? []), phoneIDs: phone.map { [$0] } ?? [])
    }
}

extension ServiceHarness {
    /// Waits (bounded) until icared's log has a line containing `text`.
    func waitLogged(_ text: String, timeout: TimeInterval = 10) throws {
        guard waitUntil(timeout: timeout, { self.log.contains(text) }) else {
            throw HarnessError("icared never logged '\(text)'; log:\n\(log)")
        }
    }
}
