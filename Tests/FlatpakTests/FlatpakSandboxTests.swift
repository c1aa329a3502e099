import Testing
import Foundation
import TestSupport

/// iCare's Flatpak (issue 37), run for real: the bundles of `scripts/flatpak --test-bundles DIR`
/// (ICARE_FLATPAK_BUNDLES=DIR; a Debian 13 test runtime and iCare's app built on it with
/// flatpak/finish-args) installed into a scratch installation, started by `flatpak run`
/// (bubblewrap, xdg-dbus-proxy) on a private bus that activates it through the exported service file.
/// Without the bundles every test here fails and says how to make them.
@Suite(.serialized) struct FlatpakSandboxTests {
    static let name = "org.icare.Reminder"

    @Test func busActivationStartsASandboxedIcared() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        #expect(try !rig.nameHasOwner(Self.name), "nothing runs before the call")
        // A call from outside with no icared running: the bus starts it from the installation's
        // exports/share/dbus-1/services (Exec rewritten by flatpak to `flatpak run --command=/app/bin/icared`).
        #expect(try rig.state() == "waiting")
        #expect(try rig.nameHasOwner(Self.name))
        let pids = rig.icaredPIDs()
        #expect(pids.count == 1, "one icared, in a sandbox: \(pids)")
        let pid = try #require(pids.first)
        let info = try String(contentsOfFile: "/proc/\(pid)/root/.flatpak-info", encoding: .utf8)
        #expect(info.contains("name=\(Self.name)\n"), "\(info)")
        #expect(info.contains("org.freedesktop.Notifications=talk"), "the finish-args reached the sandbox: \(info)")
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(pid)/root/usr/bin/flatpak"), "its /usr is the runtime's, not the host's")
        // The bus sees the proxy, not icared: the sandbox's connection goes through xdg-dbus-proxy.
        let owner = try rig.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                    "GetConnectionUnixProcessID", "s", Self.name])
        let ownerPID = Int32(owner.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        let comm = ownerPID.flatMap { try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8) } ?? ""
        #expect(comm.hasPrefix("xdg-dbus-proxy"), "the name's connection is the proxy's: \(owner) \(comm)")
        // The app's own activation file is exported beside it, so "Open iCare" on the first start's notice
        // starts the Flatpak's window through the bus (flatpak rewrites Exec= to `flatpak run`).
        let window = try String(contentsOfFile: rig.installation + "/exports/share/dbus-1/services/org.icare.Reminder.Window.service",
                                encoding: .utf8)
        #expect(window.contains("Name=org.icare.Reminder.Window\n") && window.contains(" run ")
                && window.contains("--command=/app/bin/icare ") && window.contains(" org.icare.Reminder"), "\(window)")
    }

    @Test func theReminderReachesTheServerAndItsClickComesBack() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        let server = try MockNotifications(environment: rig.environment)
        defer { server.stop() }
        try rig.writeDueState(in: 2)
        #expect(try rig.state() == "waiting", "activated, the reminder two seconds away")
        #expect(waitUntil(timeout: 15, interval: 0.1) { ((try? server.notifies()) ?? []).contains { $0.app == "iCare" } },
                "no reminder reached the server outside: \((try? server.notifies()) ?? [])")
        let calls = try server.notifies()
        let index = try #require(calls.firstIndex { $0.app == "iCare" })
        let keys = stride(from: 0, to: calls[index].actions.count, by: 2).map { calls[index].actions[$0] }
        #expect(keys == ["start", "snooze", "skip"], "Start, Snooze and Skip: \(calls[index].actions)")
        #expect(try rig.state() == "due")
        // The person clicks Snooze: ActionInvoked from the server, through the proxy to icared.
        try server.click(try server.idOfNotify(at: index), "snooze")
        #expect(try waitUntil(timeout: 10, interval: 0.05) { try rig.state() == "snoozed" }, "the click did not reach icared")
    }

    @Test func aNameNotGrantedIsUnreachableFromInside() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        let hidden = try MockName("org.example.Hidden", environment: rig.environment)
        defer { hidden.stop() }
        let server = try MockNotifications(environment: rig.environment)
        defer { server.stop() }
        let ping = { (name: String) in
            ["--session", "--print-reply", "--dest=\(name)", "/" + name.replacingOccurrences(of: ".", with: "/"),
             "org.freedesktop.DBus.Peer.Ping"]
        }
        // From outside both answer.
        #expect(try rig.busctl(["call", "org.example.Hidden", "/org/example/Hidden", "org.freedesktop.DBus.Peer", "Ping"]).status == 0)
        // From inside: the granted name answers, the other one does not exist.
        let granted = try rig.run("dbus-send", ping("org.freedesktop.Notifications"))
        #expect(granted.status == 0, "\(granted)")
        let refused = try rig.run("dbus-send", ping("org.example.Hidden"))
        #expect(refused.status != 0 && refused.stderr.contains("ServiceUnknown"), "\(refused)")
        let names = try rig.run("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                              "org.freedesktop.DBus.ListNames"])
        #expect(names.status == 0 && names.stdout.contains("\"org.freedesktop.Notifications\""), "\(names)")
        #expect(!names.stdout.contains("org.example.Hidden"), "ListNames inside hides it: \(names.stdout)")
    }

    @Test func icarectlInsideReadsTheStatus() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        // icarectl in the sandbox calls org.icare.Reminder (its own name); the bus activates icared.
        let r = try rig.run("icarectl", ["status"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("State:") && r.stdout.contains("waiting"), "\(r.stdout)")
        #expect(rig.icaredPIDs().count == 1, "the icared it started is sandboxed")
    }

    @Test func theAppsWindowRunsSandboxedAndASecondLaunchHandsOver() throws {
        let rig = try FlatpakRig()
        let screen = try VirtualDisplay()
        // X11 only (no Wayland socket): flatpak hands the sandbox the display through --socket=fallback-x11.
        let first = try rig.launch(environment: ["DISPLAY": screen.display])
        defer {
            // The app first (its sandbox and proxy end with it): Foundation sees `flatpak run` end only
            // once nothing it started holds the descriptor it watches.
            rig.stop()
            if !waitUntil(timeout: 10, interval: 0.05, { !first.isRunning }) { kill(first.processIdentifier, SIGKILL) }
            screen.stop()
        }
        #expect(waitUntil(timeout: 30, interval: 0.1) { ((try? screen.windows(named: "iCare")) ?? []).count == 1 },
                "the app's window did not show")
        #expect(try rig.nameHasOwner("org.icare.Reminder.Window"), "the app owns the name beneath its id")
        let app = try #require(rig.sandboxedPIDs("icare").first, "the app runs in a sandbox")
        #expect(FileManager.default.fileExists(atPath: "/proc/\(app)/root/.flatpak-info"))
        #expect(waitUntil(timeout: 10, interval: 0.1) { rig.icaredPIDs().count == 1 }, "the app started icared through the bus")
        // The window shows the ring of the icared it talks to: waiting, drawn in GNOME's blue.
        let shot = rig.home.appendingPathComponent("app.ppm").path
        var blue = 0
        let ring = waitUntil(timeout: 15, interval: 0.3) {
            guard (try? Subprocess.run(["import", "-window", "root", "-depth", "8", "ppm:" + shot],
                                       environment: ["DISPLAY": screen.display]).status) == 0,
                  let picture = try? Screenshot(file: shot) else { return false }
            blue = picture.points(of: [0x35, 0x84, 0xE4], xs: 0..<picture.width, ys: 0..<picture.height).count
            return blue > 200
        }
        #expect(ring, "no ring in the sandboxed app's window (\(blue) pixels of its blue)")
        // A second launch finds the window's name taken, calls Activate there and exits; one window stays.
        let second = try Subprocess.run([try Subprocess.which("flatpak"), "run", FlatpakRig.appID],
                                        environment: rig.environment.merging(["DISPLAY": screen.display]) { $1 }, timeout: 60)
        #expect(second.status == 0, "\(second)")
        #expect(try screen.windows(named: "iCare").count == 1)
        #expect(rig.sandboxedPIDs("icare").count == 1)
    }

    /// Plasma's do-not-disturb seen from the sandbox: `Inhibited` on org.freedesktop.Notifications (a
    /// server with the `inhibitions` capability, Plasma's shape) and its PropertiesChanged reach icared
    /// through the proxy, which grants the name's signals; under DndPolicy pause it pauses, and resumes.
    @Test func aKDEShapedDoNotDisturbPausesTheSandboxedIcared() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        let server = try MockNotifications(environment: rig.environment, capabilities: "actions body inhibitions")
        defer { server.stop() }
        try server.addInhibited()
        #expect(try rig.state() == "waiting")
        // What iCare can see, as icarectl inside the sandbox prints it: Plasma's do-not-disturb, read through the proxy.
        var doctor = ""
        let named = try waitUntil(timeout: 10, interval: 0.2) {
            doctor = try rig.run("icarectl", ["doctor"]).stdout
            return doctor.contains("Follows the do-not-disturb of Plasma.")
        }
        #expect(named, "\(doctor)")
        try expectPauses(rig, "do-not-disturb", saying: "DoNotDisturbSource", "s \"kde\"\n",
                         on: { try server.inhibit(true) }, off: { try server.inhibit(false) })
    }

    /// `on` pauses the sandboxed icared, with `property` then reading `value` (busctl's words); `off` resumes it.
    func expectPauses(_ rig: FlatpakRig, _ what: String, saying property: String, _ value: String,
                      on: () throws -> Void, off: () throws -> Void) throws {
        try on()
        let paused = try waitUntil(timeout: 10, interval: 0.1) { try rig.state() == "paused" }
        #expect(paused, "\(what) did not reach the sandboxed icared")
        let read = try rig.busctl(["get-property", Self.name, "/org/icare/Reminder", Self.name, property])
        #expect(read.stdout == value, "\(read)")
        try off()
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.state() == "waiting" }, "\(what)'s end did not reach it")
    }

    /// A camera in use, seen from the sandbox through PipeWire: the reminder that falls due meanwhile is
    /// held back (BusyPolicy defer), never sent to the server. flatpak binds the real runtime folder
    /// (`/run/user/UID`) for `--filesystem=xdg-run/pipewire-0`, and the test's PipeWire listens in the rig's
    /// own: a user override hands the sandbox that socket and its folder (`PIPEWIRE_RUNTIME_DIR`, which
    /// libpipewire and icared read first), in place of what the grant does on a desktop.
    @Test func aCameraInUseHoldsTheSandboxedReminderBack() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        let pipeWire = try HeadlessPipeWire(environment: rig.environment)
        defer { pipeWire.stop() }
        let runtime = try #require(rig.environment["XDG_RUNTIME_DIR"])
        let flatpak = try Subprocess.which("flatpak")
        let override = try Subprocess.run([flatpak, "override", "--user", "--filesystem=\(runtime)/pipewire-0",
                                           "--env=PIPEWIRE_RUNTIME_DIR=\(runtime)", FlatpakRig.appID], environment: rig.environment)
        try #require(override.status == 0, "\(override)")
        defer { _ = try? Subprocess.run([flatpak, "override", "--user", "--reset", FlatpakRig.appID], environment: rig.environment) }
        let server = try MockNotifications(environment: rig.environment)
        defer { server.stop() }
        try pipeWire.videoSource("icare-test-camera", "media.role = Camera")
        let cheese = try pipeWire.watch("icare-test-camera", as: "Cheese")
        defer { Subprocess.kill9(cheese) }
        try rig.writeDueState(in: 3)
        #expect(try rig.state() == "waiting", "activated, the reminder three seconds away")
        func busy() throws -> String {
            try rig.busctl(["get-property", Self.name, "/org/icare/Reminder", Self.name, "Busy", "BusySource"]).stdout
                .replacingOccurrences(of: "\n", with: " ")
        }
        var seen = ""
        let held = try waitUntil(timeout: 15, interval: 0.1) { seen = try busy(); return seen == "b true s \"camera\" " }
        #expect(held, "the camera was not seen from the sandbox: \(seen)")
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.state() == "due" })
        Thread.sleep(forTimeInterval: 2)
        let sent = try server.notifies().filter { $0.app == "iCare" }
        #expect(sent.isEmpty, "a reminder went out while the camera was in use: \(sent)")
        Subprocess.kill9(cheese)
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try busy().hasPrefix("b false") }, "the camera's end was not seen")
    }
}
