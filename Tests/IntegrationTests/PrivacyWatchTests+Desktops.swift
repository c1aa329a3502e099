import Testing
import Foundation
import TestSupport
import LoopSupport

/// The short watched sessions beside GNOME's (PrivacyWatchTests): what icared does only on another
/// desktop (Plasma, XFCE, sway, Cinnamon, MATE), or only with GSConnect, recorded as on GNOME, so that docs/privacy.md marks as "only on …"
/// nothing a watched run can show. Each is a bus of its own, a private system bus with nothing on it
/// (the machine's is not icared's to see here), and icared as installed, under strace.
extension PrivacyWatchTests {
    /// Plasma: the desktop in use (`org.kde.plasmashell`), KDE's do-not-disturb switch on Plasma's
    /// notification server, PowerDevil's policy agent holding a video's inhibition, and KDE's screen saver
    /// locking and unlocking; no PipeWire, no dconf database and no logind, which icared waits for.
    static func watchPlasmaSession() throws -> PrivacyRecord {
        let rig = try DndDconfRig(desktop: "KDE", shells: ["org.kde.plasmashell"])
        defer { rig.stop() }
        let service = rig.service
        let plasma = PlasmaNotifications(), agent = FakePolicyAgent()
        var screenSaver: PresenceMock?
        return try watchShort(service, prepare: { parts in
            for fake in [plasma, agent] as [FakeBusProgram] { try fake.appear(on: rig.desktop, address: service.bus.address) }
            let mock = try PresenceMock(address: service.bus.address, name: "org.freedesktop.ScreenSaver", arguments: [
                "-m", "dbusmock", "--template", try DBusMockTemplates.freedesktopScreenSaver(in: service.home),
            ])
            parts.append(mock.kill)
            screenSaver = mock
        }, steps: {
            step("Plasma: do not disturb")
            try onAndOff(service, "DoNotDisturb", "b true", "b false") { on in try rig.desktop.sync { plasma.setInhibited(on) } }
            step("Plasma: a video holds the screen on")
            let (name, path, interface) = ("org.kde.Solid.PowerManagement.PolicyAgent", FakePolicyAgent.path, FakePolicyAgent.interface)
            let added = try service.busctl(["call", name, path, interface, "AddInhibition", "uss", "4", "vlc", "Playing"])
            guard added.status == 0, let cookie = added.stdout.split(separator: " ").last.map({ String($0).trimmingCharacters(in: .whitespacesAndNewlines) }) else {
                throw HarnessError("AddInhibition: \(added)")
            }
            try waitProperty(service, "Busy", "b true", prefix: true)
            _ = try service.busctl(["call", name, path, interface, "ReleaseInhibition", "u", cookie])
            try waitProperty(service, "Busy", "b false", prefix: true)
            step("Plasma: the screen locked")
            guard let screenSaver else { throw HarnessError("no screen saver") }
            _ = try screenSaver.call("/ScreenSaver", "org.freedesktop.ScreenSaver", "SetActive", ["b", "true"])
            #expect(try waitUntil(timeout: 10) { try service.string("PauseReason") == "locked" }, "log:\n\(service.log)")
            _ = try screenSaver.call("/ScreenSaver", "org.freedesktop.ScreenSaver", "SetActive", ["b", "false"])
        })
    }

    /// XFCE: xfconf's do-not-disturb switch (xfce4-notifyd's), then an inhibitor through the freedesktop
    /// interface xfce4-power-manager serves.
    static func watchXfceSession() throws -> PrivacyRecord {
        let rig = try DndDconfRig(desktop: "XFCE", shells: [])
        defer { rig.stop() }
        let service = rig.service
        let xfconf = DndFakeXfconf(), inhibit = FakeFdoInhibit()
        return try watchShort(service, prepare: { _ in
            for fake in [xfconf, inhibit] as [FakeBusProgram] { try fake.appear(on: rig.desktop, address: service.bus.address) }
        }, steps: {
            step("XFCE: do not disturb")
            try onAndOff(service, "DoNotDisturbSource", "s \"xfce\"", "s \"\"") { on in try rig.desktop.sync { xfconf.setDND(on) } }
            step("XFCE: an inhibitor")
            try onAndOff(service, "Busy", "b true", "b false") { on in try rig.desktop.sync { inhibit.set(on) } }
        })
    }

    /// sway: a real headless sway, whose idle notifications icared follows through `WAYLAND_DISPLAY`
    /// (the Wayland display is the one socket here that is not a bus), and SwayNotificationCenter's
    /// do-not-disturb.
    static func watchSwaySession() throws -> PrivacyRecord {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let rig = try DndDconfRig(desktop: "sway", shells: [])
        defer { rig.stop() }
        let service = rig.service
        let swaync = DndFakeSwaync()
        return try watchShort(service, environment: ["WAYLAND_DISPLAY=\(sway.socket)"],
                              places: [(sway.socket, "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY")], prepare: { _ in
            try swaync.appear(on: rig.desktop, address: service.bus.address)
        }, steps: {
            step("sway: its idle notifications")
            try service.waitLogged(WaylandIdleServiceTests.watching)
            step("sway: do not disturb of swaync")
            try onAndOff(service, "DoNotDisturbSource", "s \"swaync\"", "s \"\"") { on in try rig.desktop.sync { swaync.setDND(on) } }
        })
    }

    /// Cinnamon (its shell's name on the bus) and its do-not-disturb key, written with the real `dconf`.
    static func watchCinnamonSession() throws -> PrivacyRecord {
        try watchDconfSwitch(desktop: "X-Cinnamon", shells: ["org.Cinnamon"],
                             key: "/org/cinnamon/desktop/notifications/display-notifications", on: "false", off: "true")
    }

    /// MATE and its notification daemon's do-not-disturb key.
    static func watchMateSession() throws -> PrivacyRecord {
        try watchDconfSwitch(desktop: "MATE", shells: [], key: "/org/mate/notification-daemon/do-not-disturb", on: "true", off: "false")
    }

    static func watchDconfSwitch(desktop: String, shells: [String], key: String, on: String, off: String) throws -> PrivacyRecord {
        let rig = try DndDconfRig(desktop: desktop, shells: shells)
        defer { rig.stop() }
        let service = rig.service
        let write = { (value: String) in
            let r = try Subprocess.run(["dconf", "write", key, value], environment: service.environment)
            guard r.status == 0 else { throw HarnessError("dconf write \(key): \(r)") }
        }
        // As a session leaves it: the database there and dconf's service running (else icared would watch
        // for the database's folder, and whether it sees the folder or the service first is a race).
        try write(off)
        return try watchShort(service, steps: {
            step("\(desktop): do not disturb")
            try onAndOff(service, "DoNotDisturb", "b true", "b false") { try write($0 ? on : off) }
        })
    }

    /// GNOME with GSConnect: the real GSConnect service paired with the fake phone (GSConnectRemoteTests'
    /// rig, its settings in a real dconf). iCare's commands go into GSConnect's Run command list through
    /// dconf's writer, the phone is listed, and a reminder pings it.
    static func watchGSConnectSession() throws -> PrivacyRecord {
        let rig = try GSConnectReminderTests.Rig(sharing: false, start: false)
        defer { rig.stop() }
        let service = rig.service
        try "Interval = 20m\nBreakDuration = 10s\nPhoneReminders = true\n"
            .write(toFile: service.configDirectory + "/config", atomically: true, encoding: .utf8)
        let key = rig.phone.deviceSettingsPath + "plugin/runcommand/command-list"
        return try watchShort(service, phone: rig.phone.deviceId, steps: {
            step("GSConnect: the phone and its Run command list")
            try rig.waitForPhones()
            #expect(try waitUntil(timeout: 15) { try rig.dconf("read", key).contains("icare-start") }, "log:\n\(service.log)")
            step("GSConnect: a reminder's ping")
            _ = try rig.phone.waitForPackets(type: "kdeconnect.ping", count: 1, timeout: 20)
        })
    }

    /// A desktop's switch turned on until `property` begins with `shown`, then off until it begins with `cleared`.
    static func onAndOff(_ service: ServiceHarness, _ property: String, _ shown: String, _ cleared: String,
                         _ set: (Bool) throws -> Void) throws {
        try set(true)
        try waitProperty(service, property, shown, prefix: true)
        try set(false)
        try waitProperty(service, property, cleared, prefix: true)
    }

    /// icared as installed started on `service`'s bus under watch: `prepare` puts the desktop's programs
    /// there first (adding how to stop them to `parts`), `steps` is the person's session; the record.
    /// `environment`: more of icared's, as `NAME=value`; `places`: the test's paths in the page's words.
    static func watchShort(_ service: ServiceHarness, phone: String? = nil, environment: [String] = [], places: [(String, String)] = [],
                           prepare: (inout [() -> Void]) throws -> Void = { _ in },
                           steps: () throws -> Void) throws -> PrivacyRecord {
        let notify = try NotifySocket()
        var parts: [() -> Void] = []
        defer { for stop in parts.reversed() { stop() } }
        // The service manager reads the notify socket as it comes: a full one would block icared's sd_notify.
        let draining = Box(true)
        Thread { while draining.value { _ = notify.collect(for: 0.2) } }.start()
        parts.append { draining.value = false }
        let system = try PrivateBus(system: true)
        parts.append(system.stop)
        service.launcher = ["/usr/bin/env", "NOTIFY_SOCKET=\(notify.path)", "DBUS_SYSTEM_BUS_ADDRESS=\(PresenceRig.withoutGUID(system))"] + environment
        let watched = try WatchedICared(service: service, system: system)
        parts.append(watched.stop)
        try prepare(&parts)
        let pid = try watched.start()
        parts.append { kill(pid, SIGKILL) }
        do {
            try steps()
        } catch {
            throw HarnessError("\(error)\nicared's log:\n\(service.log)")
        }
        return try watched.finish(normalize: normalizer(service: service, system: system, notify: notify.path, phone: phone, places: places))
    }
}
