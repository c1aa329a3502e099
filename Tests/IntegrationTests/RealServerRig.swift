import Foundation
import TestSupport

/// The notification servers RealServerTests runs for real, headless.
enum RealServer: String, CaseIterable, Sendable {
    /// xfce4-notifyd 0.7.3 (Debian 12's xfce4-notifyd), with xfconfd on the same bus as XFCE's session has it.
    case xfce4Notifyd = "xfce4-notifyd"
    /// GNOME's fallback server 3.20 (Debian 12's notification-daemon), as used with i3 or Openbox.
    case notificationDaemon = "notification-daemon"
    /// dunst 1.9 (Debian 12's dunst).
    case dunst

    var command: [String] {
        switch self {
        case .xfce4Notifyd: return ["/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"]
        case .notificationDaemon: return ["/usr/lib/notification-daemon/notification-daemon", "--replace"]
        case .dunst: return ["dunst"]
        }
    }
}

/// One bubble on screen as the accessibility tree (AT-SPI) tells it: the
/// texts a person reads and the buttons a person can press, with their
/// places on the screen.
struct Bubble: CustomStringConvertible {
    struct Button { let name: String; let x: Int; let y: Int; let w: Int; let h: Int }
    let x: Int, y: Int, w: Int, h: Int
    /// The texts, with their places (a click on one is a click on the body).
    let labelBoxes: [Button]
    var labels: [String] { labelBoxes.map(\.name) }
    let buttons: [Button]
    /// Whether an icon is drawn (an icon element showing, with a size).
    let icon: Bool
    /// The buttons with words on them (not the ✕).
    var named: [String] { buttons.map(\.name).filter { !$0.isEmpty } }
    func button(_ name: String) -> Button? { buttons.first { $0.name == name } }
    var description: String { "bubble \(labels) buttons \(named) icon \(icon) at \(x),\(y) \(w)x\(h)" }
}

/// A headless desktop for one real notification server: its own Xvfb
/// (`-displayfd`), the accessibility bus (at-spi-bus-launcher) on the test's
/// private session bus, the server (and xfconfd for XFCE's), and a real
/// pointer (xdotool). Every child leads a process group of its own
/// (Foundation's Process spawns with POSIX_SPAWN_SETPGROUP), so `stop` ends
/// the group: what they started too (the a11y bus, the registry). Throws —
/// the test fails — when anything does not start.
final class RealServerRig: @unchecked Sendable {
    let server: RealServer
    let service: ServiceHarness
    let work: URL
    /// iCare as the package installs it, when the rig runs that (its icon in the theme).
    let installed: InstalledICare?
    private(set) var display = ""
    private var groups: [Process] = []

    /// `installed`: run iCare installed into a temporary prefix, whose `share`
    /// leads the session's `XDG_DATA_DIRS`, rather than from the build tree.
    init(_ server: RealServer, config: String, installed: Bool = false) throws {
        self.server = server
        let install = installed ? try InstalledICare() : nil
        self.installed = install
        do {
            service = try ServiceHarness(config: config, environment: install.map { ["XDG_DATA_DIRS": $0.dataDirs] } ?? [:], start: false)
        } catch { install?.remove(); throw error }
        service.program = install?.icared
        work = service.home.appendingPathComponent("desktop")
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try startDisplay()
            try startServer()
        } catch {
            stop()
            throw error
        }
    }

    /// The session's environment: the private bus, the XDG folders and the display.
    var environment: [String: String] {
        var env = service.environment
        env["DISPLAY"] = display
        return env
    }

    func startGroup(_ arguments: [String], log: String, environment: [String: String]? = nil) throws -> Process {
        var env = ProcessInfo.processInfo.environment.merging(Subprocess.neutralLocale.merging(environment ?? self.environment) { $1 }) { $1 }
        // An X session: dunst would try Wayland first.
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let p = try Subprocess.startLogged(arguments, log: work.appendingPathComponent(log).path, environment: env)
        groups.append(p)
        return p
    }

    private func logHandle(_ name: String) throws -> FileHandle {
        let path = work.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func log(_ name: String) -> String { (try? String(contentsOf: work.appendingPathComponent(name), encoding: .utf8)) ?? "" }

    private func startDisplay() throws {
        do {
            let xvfb = try Xvfb(width: 800, height: 600, errors: try logHandle("xvfb.log"))
            groups.append(xvfb.process)
            display = xvfb.display
        } catch {
            throw HarnessError("\(error): \(log("xvfb.log"))")
        }
    }

    private func startServer() throws {
        switch server {
        case .xfce4Notifyd, .notificationDaemon:
            // GTK servers join the accessibility bus when org.a11y.Bus is on the session bus.
            _ = try startGroup(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], log: "at-spi.log")
            guard try waitForName("org.a11y.Bus") else { throw HarnessError("at-spi-bus-launcher did not start: \(log("at-spi.log"))") }
            if server == .xfce4Notifyd {
                _ = try startGroup(["/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"], log: "xfconfd.log")
                guard try waitForName("org.xfce.Xfconf") else { throw HarnessError("xfconfd did not start: \(log("xfconfd.log"))") }
            }
            _ = try startGroup(server.command, log: "server.log")
        case .dunst:
            try writeDunstConfig()
            _ = try startGroup(server.command + ["-config", work.appendingPathComponent("dunstrc").path], log: "server.log")
        }
        guard try waitForName("org.freedesktop.Notifications") else {
            throw HarnessError("\(server.rawValue) did not take org.freedesktop.Notifications: \(log("server.log"))")
        }
    }

    func waitForName(_ name: String) throws -> Bool {
        try waitUntil(timeout: 10, interval: 0.05) {
            try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameHasOwner", "s", name]).stdout == "b true\n"
        }
    }

    // MARK: what a person sees and does

    /// The bubbles showing now, read from the accessibility tree.
    func bubbles() throws -> [Bubble] {
        let script = work.appendingPathComponent("atspi-bubbles.py").path
        if !FileManager.default.fileExists(atPath: script) { try Self.atspiScript.write(toFile: script, atomically: true, encoding: .utf8) }
        let r = try Subprocess.run(["/usr/bin/python3", script], environment: environment, timeout: 20)
        return try Self.parseBubbles(r)
    }

    /// The bubbles in what `atspiScript` printed.
    static func parseBubbles(_ r: ProcessResult) throws -> [Bubble] {
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] else {
            throw HarnessError("reading the accessibility tree failed: \(r)")
        }
        func int(_ d: [String: Any], _ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? -1 }
        // The panel (XfcePanelTests) is on the same desktop, but it is no bubble.
        return json.filter { $0["app"] as? String != "xfce4-panel" }.map { b in
            func boxes(_ key: String) -> [Bubble.Button] {
                (b[key] as? [[String: Any]] ?? []).map {
                    Bubble.Button(name: $0["name"] as? String ?? "", x: int($0, "x"), y: int($0, "y"), w: int($0, "w"), h: int($0, "h"))
                }
            }
            return Bubble(x: int(b, "x"), y: int(b, "y"), w: int(b, "w"), h: int(b, "h"), labelBoxes: boxes("labels"),
                          buttons: boxes("buttons"), icon: (b["icon"] as? Bool) ?? false)
        }
    }

    /// What is on screen, for a failure's message.
    var onScreen: String { (try? bubbles()).map { "\($0)" } ?? "(unreadable)" }

    /// Waits (bounded) for exactly one bubble that satisfies `match`.
    func bubble(timeout: TimeInterval = 10, _ match: (Bubble) -> Bool) throws -> Bubble {
        let (found, seen) = try waitForOne(timeout: timeout, interval: 0.2, bubbles, match)
        guard let found else { throw HarnessError("on screen: \(seen)\nicared:\n\(service.log)") }
        return found
    }

    /// A real pointer click (XTEST) at a point of the screen.
    func click(x: Int, y: Int) throws { try click(x: x, y: y, button: 1) }

    /// A real pointer click with `button` (1 left, 2 middle, 3 right) at a point of
    /// the screen, after the pointer has come to rest there as a person's
    /// does: GTK's buttons (the panel's items) take a press only once the
    /// pointer has entered them, and a move and a click at once lose it.
    /// (Not `mousemove --sync`: it waits for a motion that never comes when
    /// the pointer is already there, for 15 s.)
    func click(x: Int, y: Int, button: Int) throws {
        let r = try Subprocess.run(["xdotool", "mousemove", "\(x)", "\(y)", "sleep", "0.3", "click", "\(button)"], environment: environment)
        guard r.status == 0 else { throw HarnessError("xdotool failed: \(r)") }
    }

    func click(_ button: Bubble.Button) throws { try click(x: button.x + button.w / 2, y: button.y + button.h / 2) }

    /// When ICARE_SCREENSHOTS names a folder, the bubble's part of the screen goes there as `name`.png.
    func screenshot(_ name: String, _ b: Bubble) throws {
        guard let dir = Screenshot.docsFolder else { return }
        let crop = "\(b.w + 8)x\(b.h + 8)+\(max(0, b.x - 4))+\(max(0, b.y - 4))"
        try Screenshot.writeForDocs(name, in: dir, magick: ["import", "-window", "root", "-crop", crop, "+repage"],
                                    colours: 64, environment: environment)
    }

    // MARK: the service

    /// icared stops (SIGTERM) and starts again with a reminder a second away.
    func restartDue() throws { try NotificationTests.restartDue(service, graceful: true) }

    func stop() {
        service.kill9()
        // Each whole group: the server and what it started.
        for p in groups.reversed() { Subprocess.killGroup(p) }
        groups.removeAll()
        service.stop()
        installed?.remove()
    }

    deinit { stop() }
}
