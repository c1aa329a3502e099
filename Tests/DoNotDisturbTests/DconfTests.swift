import Testing
import Foundation
import DBusKit
import TestSupport
@testable import DoNotDisturb

/// A dconf database made by the real tool (`dconf compile`), put in place
/// by rename as dconf-service does.
struct DconfFiles {
    let root: URL
    var databasePath: String { root.appendingPathComponent("config/dconf/user").path }
    var folder: URL { root.appendingPathComponent("config/dconf") }

    /// Compiles `keyfile` (GKeyFile text, `[org/gnome/…]` groups) and renames it into place.
    func install(_ keyfile: String) throws {
        let sources = root.appendingPathComponent("keyfiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try keyfile.write(to: sources.appendingPathComponent("00-test"), atomically: true, encoding: .utf8)
        let staged = root.appendingPathComponent("staged-\(UUID().uuidString)").path
        let r = try Subprocess.run(["dconf", "compile", staged, sources.path])
        guard r.status == 0 else { throw HarnessError("dconf compile failed: \(r)") }
        try installRaw(try Data(contentsOf: URL(fileURLWithPath: staged)))
    }

    /// Puts `bytes` in place by rename (creating the folder, as dconf would).
    func installRaw(_ bytes: Data) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let staged = folder.appendingPathComponent("user.tmp-\(UUID().uuidString)")
        try bytes.write(to: staged)
        guard rename(staged.path, databasePath) == 0 else { throw HarnessError("rename failed: \(errno)") }
    }
}

@Suite struct DconfTests {
    /// The real dconf-service, D-Bus activated on the private bus, written by
    /// the real `gsettings` and `dconf` tools.
    @Test func realDconfServiceThroughGsettings() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("icare-dconf-\(UUID().uuidString)")
        let config = work.appendingPathComponent("config"), runtime = work.appendingPathComponent("runtime")
        let services = work.appendingPathComponent("services")
        for dir in [config, runtime, services] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        defer { try? FileManager.default.removeItem(at: work) }
        let service = "/usr/libexec/dconf-service"
        guard FileManager.default.isExecutableFile(atPath: service) else {
            throw HarnessError("\(service) is not installed; run scripts/deps.sh (package dconf-service).")
        }
        _ = try Subprocess.which("gsettings")
        _ = try Subprocess.which("dconf")
        // dbus-daemon starts the service with its own environment: give it the test's folders.
        try """
        [D-BUS Service]
        Name=ca.desrt.dconf
        Exec=/usr/bin/env XDG_CONFIG_HOME=\(config.path) XDG_RUNTIME_DIR=\(runtime.path) \(service)

        """.write(to: services.appendingPathComponent("ca.desrt.dconf.service"), atomically: true, encoding: .utf8)
        let bus = try PrivateBus(serviceDirectory: services.path)
        let h = try MonitorHarness(bus: bus, dconfPath: config.appendingPathComponent("dconf/user").path)
        var env = bus.environment
        env["XDG_CONFIG_HOME"] = config.path
        env["XDG_RUNTIME_DIR"] = runtime.path
        env["GSETTINGS_BACKEND"] = "dconf"
        defer {
            killService(bus)
            h.stop()
        }
        try h.startMonitor()
        // No dconf service yet (it is activated on demand): the fallback watch is on.
        #expect(try waitUntil { try h.sync { h.monitor?.dconf.usesFolderWatch == true } })
        #expect(try h.state() == "off")

        func gsettings(_ args: String...) throws {
            let r = try Subprocess.run(["gsettings"] + args, environment: env)
            #expect(r.status == 0, "\(r)")
        }
        try gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
        #expect(try h.waitFor("on gnome"))
        // The service is on the bus now, so Notify drives the reads.
        #expect(try waitUntil { try h.sync { h.monitor?.dconf.usesFolderWatch == false } })
        try gsettings("set", "org.gnome.desktop.notifications", "show-banners", "true")
        #expect(try h.waitFor("off"))
        try gsettings("reset", "org.gnome.desktop.notifications", "show-banners")
        let mate = try Subprocess.run(["dconf", "write", "/org/mate/notification-daemon/do-not-disturb", "true"], environment: env)
        #expect(mate.status == 0, "\(mate)")
        #expect(try h.waitFor("on mate"))
        try gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
        #expect(try h.waitFor("on gnome"))
        // A reset of a whole tree arrives as one Notify for its prefix.
        let reset = try Subprocess.run(["dconf", "reset", "-f", "/org/"], environment: env)
        #expect(reset.status == 0, "\(reset)")
        #expect(try h.waitFor("off"))

        // A monitor started while the desktop is already in DND sees it at once.
        try gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
        #expect(try h.waitFor("on gnome"))
        let second = try MonitorHarness(bus: bus, dconfPath: h.dconfPath)
        try second.startMonitor()
        #expect(try second.waitFor("on gnome"))
        #expect(second.changes.value == ["on gnome"])
        second.stopKeepingBus()
        #expect(h.changes.value == ["on gnome", "off", "on mate", "on gnome", "off", "on gnome"])
    }

    /// The database is shared: a feature that follows a key after do-not-disturb
    /// started gets the key's value at once, and each change after, from the
    /// same reads (no second file watch, no second subscription per read).
    @Test func aKeyFollowedAfterStartIsReadAtOnceAndFollowed() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let files = DconfFiles(root: h.directory)
        try files.install("[org/gnome/desktop/sound]\nevent-sounds=false\n")
        try h.startMonitor()
        #expect(try waitUntil { try h.sync { h.monitor?.dconf.usesFolderWatch == true } })
        let seen = Box<[String]>([])
        try h.sync {
            h.monitor?.dconf.follow(prefix: "/org/gnome/desktop/sound/", name: "event-sounds") { value in
                seen.value.append(value?.boolean.map { "\($0)" } ?? "unset")
            }
        }
        #expect(waitUntil { seen.value == ["false"] }, "\(seen.value)")
        try files.install("[org/gnome/desktop/sound]\nevent-sounds=true\n")
        #expect(waitUntil { seen.value.last == "true" }, "\(seen.value)")
        try files.install("[org/gnome/desktop/interface]\nclock-format='24h'\n")
        #expect(waitUntil { seen.value.last == "unset" }, "\(seen.value)")
        #expect(try h.state() == "off")
    }

    /// With no dconf service on the bus, inotify on the database's folder —
    /// which does not exist at first — sees files dconf would write.
    @Test func inotifyFallbackWithoutDconfService() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let files = DconfFiles(root: h.directory)
        #expect(files.databasePath == h.dconfPath)
        try h.startMonitor()
        #expect(try waitUntil { try h.sync { h.monitor?.dconf.usesFolderWatch == true } })
        #expect(!FileManager.default.fileExists(atPath: files.folder.path), "the monitor must create no folders")

        try files.install("[org/gnome/desktop/notifications]\nshow-banners=false\n")
        #expect(try h.waitFor("on gnome"))
        #expect(try h.found() == ["gnome", "cinnamon", "mate"])
        try files.install("[org/gnome/desktop/notifications]\nshow-banners=true\n\n[org/mate/notification-daemon]\ndo-not-disturb=true\n")
        #expect(try h.waitFor("on mate"))
        try files.install("[org/cinnamon/desktop/notifications]\ndisplay-notifications=false\n\n[org/mate/notification-daemon]\ndo-not-disturb=true\n")
        #expect(try h.waitFor("on cinnamon"))
        try files.install("[org/gnome/desktop/interface]\nclock-format='24h'\n")
        #expect(try h.waitFor("off"))
        #expect(h.changes.value == ["on gnome", "on mate", "on cinnamon", "off"])

        // Folders removed and made again (quickly, racing the watch) are followed.
        for round in 0..<6 {
            try FileManager.default.removeItem(at: round % 2 == 0 ? files.folder : files.folder.deletingLastPathComponent())
            #expect(try h.waitFound("gnome", false))
            try files.install("[org/gnome/desktop/notifications]\nshow-banners=false\n")
            #expect(try h.waitFor("on gnome"), "round \(round)")
            try files.install("[org/gnome/desktop/notifications]\nshow-banners=true\n")
            #expect(try h.waitFor("off"), "round \(round)")
        }
    }

    @Test func unreadableDatabaseIsLoggedOnceAndCountsAsOff() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let files = DconfFiles(root: h.directory)
        try files.install("[org/gnome/desktop/notifications]\nshow-banners=false\n")
        try h.startMonitor()
        #expect(try h.waitFor("on gnome"))
        let good = try Data(contentsOf: URL(fileURLWithPath: files.databasePath))

        try files.installRaw(good.prefix(30))        // truncated
        #expect(try h.waitFor("off"))
        try files.installRaw(Data("not a database at all".utf8))
        #expect(try waitUntil { try h.problems("dconf/file").occurrences == 2 })
        #expect(try h.problems("dconf/file").linesLogged == 1)
        #expect(try h.state() == "off")
        #expect(try h.found() == ["gnome", "cinnamon", "mate"])

        try files.installRaw(good)
        #expect(try h.waitFor("on gnome"))
        // A key of the wrong type counts as off, logged once.
        try files.install("[org/gnome/desktop/notifications]\nshow-banners='no'\n")
        #expect(try h.waitFor("off"))
        #expect(try h.problems("gnome/value").occurrences == 1)
    }

    /// dconf's `Notify`, from a fake writer of its exact shape: a read follows
    /// each one for a watched prefix; a malformed one is logged once and ignored.
    @Test func notifySignalDrivesReadsAndGarbageIsIgnored() throws {
        let h = try MonitorHarness()
        defer { h.stop() }
        let files = DconfFiles(root: h.directory)
        let writer = FakeDconfWriter()
        try h.appear(writer)
        try h.startMonitor()
        #expect(try waitUntil { try h.sync { h.monitor?.dconf.usesFolderWatch == false } })
        try files.install("[org/gnome/desktop/notifications]\nshow-banners=false\n")
        try h.sync { writer.notify("/org/gnome/desktop/notifications/show-banners") }
        #expect(try h.waitFor("on gnome"))
        try files.install("[org/gnome/desktop/notifications]\nshow-banners=true\n")
        try h.sync { writer.sendGarbage(); writer.sendGarbage() }
        #expect(try waitUntil { try h.problems("dconf/signal").occurrences == 2 })
        #expect(try h.problems("dconf/signal").linesLogged == 1)
        try h.sync { writer.notify("/org/gnome/desktop/notifications/", ["show-banners", "show-in-lock-screen"]) }
        #expect(try h.waitFor("off"))

        // When the service leaves, the folder is watched again.
        try h.sync { writer.vanish() }
        #expect(try waitUntil { try h.sync { h.monitor?.dconf.usesFolderWatch == true } })
        try files.install("[org/mate/notification-daemon]\ndo-not-disturb=true\n")
        #expect(try h.waitFor("on mate"))
    }
}

/// Kills the D-Bus-activated dconf-service (a child of the bus, not of the test) by its pid.
private func killService(_ bus: PrivateBus) {
    guard let r = try? Subprocess.run(["busctl", "--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "GetConnectionUnixProcessID", "s", "ca.desrt.dconf"], environment: bus.environment),
          r.status == 0, let pid = Int32(r.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
    else { return }
    kill(pid, SIGKILL)
}
