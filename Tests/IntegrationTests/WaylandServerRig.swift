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
    private var process: Process?
    private let logPath: String

    init(_ server: WaylandServer, config: String) throws {
        self.server = server
        service = try ServiceHarness(config: config, bus: try PrivateBus(anyUser: true), start: false)
        sway = try HeadlessSway()
        logPath = sway.directory.appendingPathComponent("\(server.rawValue).log").path
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
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else { throw HarnessError("cannot create \(logPath)") }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        var command = [try Subprocess.which(server.rawValue)]
        if getuid() == 0 {
            // sway's user, as HeadlessSway starts it.
            guard let pw = getpwnam("nobody") else { throw HarnessError("no user 'nobody'") }
            command = [try Subprocess.which("setpriv"), "--reuid=nobody", "--regid=\(pw.pointee.pw_gid)", "--clear-groups",
                       "--inh-caps=-all"] + command
        }
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
        try p.run()
        process = p
        let up = try waitUntil(timeout: 10, interval: 0.05) {
            if !p.isRunning { return true }
            return try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "NameHasOwner", "s", "org.freedesktop.Notifications"]).stdout == "b true\n"
        }
        guard up, p.isRunning else {
            throw HarnessError("\(server.rawValue) did not take org.freedesktop.Notifications; its log:\n\(serverLog)\nsway's log:\n\(sway.log)")
        }
    }

    var serverLog: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs the server's CLI (`makoctl`, `swaync-client`) on the private bus.
    func ctl(_ arguments: [String]) throws -> ProcessResult {
        let r = try Subprocess.run(arguments, environment: environment, timeout: 10)
        guard r.status == 0 else { throw HarnessError("\(arguments.joined(separator: " ")): \(r)\n\(server.rawValue):\n\(serverLog)") }
        return r
    }

    /// icared stops (SIGTERM) and starts again with a reminder a second away.
    func restartDue() throws {
        if service.process != nil { _ = try service.signal(SIGTERM) }
        try NotificationTests.writeState(service, NotificationTests.waitingState(dueIn: 1))
        try service.start()
    }

    func stop() {
        service.kill9()
        if let p = process, p.isRunning {
            kill(-p.processIdentifier, SIGKILL)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        process = nil
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
        var seen: [MakoNotification] = []
        let found = try waitUntil(timeout: timeout, interval: 0.1) {
            seen = try makoList()
            return seen.count == 1 && match(seen[0])
        }
        guard found else { throw HarnessError("mako shows: \(seen)\nicared:\n\(service.log)") }
        return seen[0]
    }

    /// What a person does in mako: `makoctl invoke -n <id> <action>` (a key binding or `makoctl menu`);
    /// no action is the `default` one, which is what a left click on the bubble invokes (mako(5), on-button-left).
    func makoInvoke(_ n: MakoNotification, _ action: String? = nil) throws {
        _ = try ctl(["makoctl", "invoke", "-n", String(n.id)] + (action.map { [$0] } ?? []))
    }
}
