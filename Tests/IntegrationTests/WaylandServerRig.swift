import Foundation
import TestSupport

/// The Wayland notification servers RealServerTests runs for real, under a headless sway.
enum WaylandServer: String, Sendable {
    /// mako 1.7 (Debian 12's mako-notifier); read and driven with `makoctl`.
    case mako
    /// sway-notification-center 0.7.3 (Debian 12's); counted with `swaync-client`.
    case swaync

    var command: [String] { [rawValue] }
}

/// A headless Wayland desktop for one real notification server: a real sway
/// (HeadlessSway: as `nobody` when the tests run as root), the server as the
/// same user (it must reach sway's socket in sway's 0700 runtime folder),
/// and the test's private session bus, opened to every user for it
/// (PrivateBus(anyUser:)). icared runs as the test's user on that bus, as
/// in every other test. Throws — the test fails — when anything does not start.
final class WaylandServerRig: @unchecked Sendable {
    let server: WaylandServer
    let service: ServiceHarness
    let sway: HeadlessSway
    private var processes: [Process] = []

    init(_ server: WaylandServer, config: String) throws {
        self.server = server
        service = try ServiceHarness(config: config, bus: try PrivateBus(anyUser: true), start: false)
        sway = try HeadlessSway()
        do { try startServer() } catch {
            stop()
            throw error
        }
    }

    /// The environment of the server and of its CLI: sway's runtime folder and socket, the private bus.
    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": sway.runtimeDirectory, "WAYLAND_DISPLAY": sway.socket, "HOME": sway.directory.path,
         "XDG_CONFIG_HOME": sway.directory.appendingPathComponent("config.d").path,
         "DBUS_SESSION_BUS_ADDRESS": service.bus.address, "GDK_BACKEND": "wayland"]
    }

    private func startServer() throws {
        if server == .swaync {
            // swaync is GTK: its bubbles and buttons go to the accessibility bus of its own user.
            _ = try launch(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], log: "at-spi.log")
            guard try waitForName("org.a11y.Bus") else { throw HarnessError("at-spi-bus-launcher did not start:\n\(log("at-spi.log"))") }
        }
        let p = try launch(server.command, log: "\(server.rawValue).log")
        let up = try waitUntil(timeout: 10, interval: 0.05) { try !p.isRunning || hasName("org.freedesktop.Notifications") }
        guard up, p.isRunning else {
            throw HarnessError("\(server.rawValue) did not take org.freedesktop.Notifications; its log:\n\(serverLog)\nsway's log:\n\(sway.log)")
        }
    }

    /// Starts `command` as sway's user (as HeadlessSway starts sway), leading a process group of its own.
    func launch(_ command: [String], log name: String) throws -> Process {
        let path = sway.directory.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw HarnessError("cannot create \(path)") }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let command = try asSwaysUser([command[0].hasPrefix("/") ? command[0] : try Subprocess.which(command[0])] + command.dropFirst())
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst())
        var env = ProcessInfo.processInfo.environment.filter { !["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"].contains($0.key) }
        env.merge(Subprocess.neutralLocale) { $1 }
        env.merge(environment) { $1 }
        p.environment = env
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = log
        p.standardError = log
        try Subprocess.launch(p)
        processes.append(p)
        return p
    }

    /// `command` run as sway's user: `nobody` through setpriv when the tests run as root.
    func asSwaysUser(_ command: [String]) throws -> [String] {
        guard getuid() == 0 else { return command }
        guard let pw = getpwnam("nobody") else { throw HarnessError("no user 'nobody'") }
        return [try Subprocess.which("setpriv"), "--reuid=nobody", "--regid=\(pw.pointee.pw_gid)", "--clear-groups", "--inh-caps=-all"] + command
    }

    func hasName(_ name: String) throws -> Bool {
        try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                            "NameHasOwner", "s", name]).stdout == "b true\n"
    }

    func waitForName(_ name: String) throws -> Bool { try waitUntil(timeout: 10, interval: 0.05) { try hasName(name) } }

    func log(_ name: String) -> String {
        (try? String(contentsOfFile: sway.directory.appendingPathComponent(name).path, encoding: .utf8)) ?? ""
    }

    var serverLog: String { log("\(server.rawValue).log") }

    /// Runs the server's CLI (`makoctl`, `swaync-client`) on the private bus.
    func ctl(_ arguments: [String]) throws -> ProcessResult {
        let r = try Subprocess.run(arguments, environment: environment, timeout: 10)
        guard r.status == 0 else { throw HarnessError("\(arguments.joined(separator: " ")): \(r)\n\(server.rawValue):\n\(serverLog)") }
        return r
    }

    /// When ICARE_SCREENSHOTS names a folder, the bubble as sway shows it goes there as `name`.png:
    /// the whole output taken by grim, the empty desktop around the bubble trimmed away.
    func screenshot(_ name: String) throws {
        guard let dir = Screenshot.docsFolder else { return }
        Thread.sleep(forTimeInterval: 0.5)  // the server's first frame (swaync fades in)
        let shot = sway.directory.appendingPathComponent("shot.png").path
        let grim = try Subprocess.run(["grim", shot], environment: environment)
        guard grim.status == 0 else { throw HarnessError("grim failed: \(grim)") }
        try Screenshot.writeForDocs(name, in: dir, magick: ["convert", shot, "-trim", "+repage", "-bordercolor", "black", "-border", "4"],
                                    colours: 64)
    }

    /// icared stops (SIGTERM) and starts again with a reminder a second away.
    func restartDue() throws { try NotificationTests.restartDue(service, graceful: true) }

    func stop() {
        service.kill9()
        // Each whole group: the server and what it started (the accessibility bus and registry).
        for p in processes.reversed() { Subprocess.killGroup(p) }
        processes.removeAll()
        sway.stop()
        service.stop()
    }

    deinit { stop() }
}

/// One notification as `makoctl list` tells it (mako 1.7: the JSON of
/// busctl's `--json` for mako's ListNotifications, `aa{sv}`).
struct MakoNotification: CustomStringConvertible {
    let id: UInt32
    let summary: String
    let body: String
    /// action key → label.
    let actions: [String: String]
    var description: String { "#\(id) \(summary) / \(body) \(actions)" }
}

extension WaylandServerRig {
    /// `makoctl list`: the notifications mako shows now.
    func makoList() throws -> [MakoNotification] {
        let r = try ctl(["makoctl", "list"])
        guard let top = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = top["data"] as? [[[String: Any]]] else { throw HarnessError("makoctl list: \(r.stdout)") }
        func value(_ d: [String: Any], _ k: String) -> Any? { (d[k] as? [String: Any])?["data"] }
        return (data.first ?? []).map { n in
            MakoNotification(id: (value(n, "id") as? NSNumber)?.uint32Value ?? 0,
                             summary: value(n, "summary") as? String ?? "",
                             body: value(n, "body") as? String ?? "",
                             actions: value(n, "actions") as? [String: String] ?? [:])
        }
    }

    /// What mako shows, for a failure's message.
    var makoShown: String { (try? makoList()).map { "\($0)" } ?? "(unreadable)" }

    /// Waits (bounded) for exactly one notification on mako that satisfies `match`.
    func makoOne(timeout: TimeInterval = 10, _ match: (MakoNotification) -> Bool) throws -> MakoNotification {
        let (found, seen) = try waitForOne(timeout: timeout, interval: 0.1, makoList, match)
        guard let found else { throw HarnessError("mako shows: \(seen)\nicared:\n\(service.log)") }
        return found
    }

    /// What a person does in mako: `makoctl invoke -n <id> <action>` (a key binding or `makoctl menu`);
    /// no action is the `default` one, which is what a left click on the bubble invokes (mako(5), on-button-left).
    func makoInvoke(_ n: MakoNotification, _ action: String? = nil) throws {
        _ = try ctl(["makoctl", "invoke", "-n", String(n.id)] + (action.map { [$0] } ?? []))
    }
}
