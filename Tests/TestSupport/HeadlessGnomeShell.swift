import Foundation

/// A real GNOME Shell 43 session, headless, for tests of what a person sees:
/// `gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800` on
/// private buses and folders, with the real dconf, the accessibility bus and
/// the AppIndicator extension (`ubuntu-appindicators@ubuntu.com`) turned on.
/// The facts it rests on, measured here, are in docs/desktop-facts.md,
/// "GNOME Shell 43, run here".
///
/// - The shell needs *a* system bus: an empty private one (else it aborts in
///   loginManager.js, since /run/systemd/seats exists).
/// - The session bus activates only what a GNOME session activates here:
///   the shell's notification proxy (gjs), dconf and the accessibility bus,
///   plus icared's own activation file when iCare is installed (`prefix`).
///   Its daemon runs in the session's environment, which those inherit.
/// - Settings are written with `dconf` before the shell starts: hot corners
///   off (the pointer is pushed into corners), accessibility on (AT-SPI), the
///   extension enabled, no screen blanking; `lock-warning-shown` is touched.
/// - As root the shell shows a "privileged user" banner, and the overview is
///   open at login: Escape closes the overview and pointer motion lets the
///   banner time out (banners wait for user activity).
///
/// Every child leads a process group of its own (Foundation's Process), so
/// `stop` ends each group; the session bus's group holds what it activated.
public final class HeadlessGnomeShell: @unchecked Sendable {
    public let service: ServiceHarness
    public let root: URL
    /// Where the logs go: `shell.log`, `at-spi.log`.
    public let work: URL
    public private(set) var hand: GnomeShellHand?
    private let systemBus: PrivateBus
    private var groups: [Process] = []
    public static let width = 1280, height = 800

    /// Starts the session. `prefix` is an iCare installed with `make install PREFIX=…`: its
    /// `share` goes first on XDG_DATA_DIRS (the icon theme, the desktop entry) and its
    /// activation file onto the session bus.
    public init(prefix: String? = nil) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("icare-gnome-\(UUID().uuidString)")
        work = root.appendingPathComponent("desktop")
        let fm = FileManager.default
        // state/icare/history: iCare has run in this home before, so no first-start notice gets in the way.
        for dir in ["desktop", "config", "state/icare/history", "cache", "data/gnome-shell", "services"] {
            try fm.createDirectory(at: root.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        try fm.createDirectory(at: root.appendingPathComponent("runtime"), withIntermediateDirectories: true,
                               attributes: [.posixPermissions: 0o700])
        _ = fm.createFile(atPath: root.appendingPathComponent("data/gnome-shell/lock-warning-shown").path, contents: nil)
        let services = root.appendingPathComponent("services").path
        var activatable = ["org.gnome.Shell.Notifications", "org.a11y.Bus", "ca.desrt.dconf"].map { "/usr/share/dbus-1/services/\($0).service" }
        if let prefix { activatable.append(prefix + "/share/dbus-1/services/org.icare.Reminder.service") }
        for file in activatable {
            try fm.createSymbolicLink(atPath: services + "/" + (file as NSString).lastPathComponent, withDestinationPath: file)
        }

        systemBus = try PrivateBus(system: true)
        var env: [String: String] = [
            "HOME": root.path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_STATE_HOME": root.appendingPathComponent("state").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_RUNTIME_DIR": root.appendingPathComponent("runtime").path,
            "XDG_DATA_DIRS": (prefix.map { $0 + "/share:" } ?? "") + "/usr/local/share:/usr/share",
            "XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_DESKTOP": "gnome", "XDG_SESSION_TYPE": "wayland",
            "DBUS_SYSTEM_BUS_ADDRESS": systemBus.address, "GSETTINGS_BACKEND": "dconf", "DISPLAY": "",
        ]
        let sessionBus: PrivateBus
        do {
            sessionBus = try PrivateBus(serviceDirectory: services, environment: env)
        } catch {
            systemBus.stop()
            throw error
        }
        env["WAYLAND_DISPLAY"] = "wayland-0"
        service = try ServiceHarness(environment: env, bus: sessionBus, start: false, home: root)
        do {
            try writeSettings()
            try startShell()
        } catch {
            stop()
            throw error
        }
    }

    /// The session's environment: the private buses and folders (and WAYLAND_DISPLAY).
    public var environment: [String: String] { service.environment }

    /// The shell's log so far (its stderr: JS errors and the extension's warnings).
    public var shellLog: String { log("shell.log") }

    public func log(_ name: String) -> String {
        (try? String(contentsOf: work.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// The settings a session here needs, written through the real dconf before the shell reads them.
    private func writeSettings() throws {
        let settings = [
            ("/org/gnome/desktop/interface/enable-hot-corners", "false"),
            ("/org/gnome/desktop/interface/toolkit-accessibility", "true"),
            ("/org/gnome/shell/enabled-extensions", "['ubuntu-appindicators@ubuntu.com']"),
            ("/org/gnome/desktop/session/idle-delay", "uint32 0"),
            ("/org/gnome/desktop/screensaver/lock-enabled", "false"),
        ]
        for (key, value) in settings { try dconfWrite(key, value) }
    }

    /// `dconf write KEY VALUE` on the session's bus (GVariant text).
    public func dconfWrite(_ key: String, _ value: String) throws {
        let r = try Subprocess.run(["dconf", "write", key, value], environment: environment)
        guard r.status == 0 else { throw HarnessError("dconf write \(key) \(value): \(r)") }
    }

    /// `dconf read KEY` (GVariant text, empty when unset).
    public func dconfRead(_ key: String) throws -> String {
        try Subprocess.run(["dconf", "read", key], environment: environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func startShell() throws {
        _ = try startGroup(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], log: "at-spi.log")
        guard try waitForName("org.a11y.Bus") else { throw HarnessError("at-spi-bus-launcher did not start: \(log("at-spi.log"))") }
        _ = try startGroup(["gnome-shell", "--headless", "--wayland", "--no-x11",
                            "--virtual-monitor", "\(Self.width)x\(Self.height)"], log: "shell.log")
        guard waitUntil(timeout: 60, interval: 0.1, { shellLog.contains("GNOME Shell started at") }) else {
            throw HarnessError("gnome-shell did not start:\n\(shellLog)")
        }
        for name in ["org.freedesktop.Notifications", "org.kde.StatusNotifierWatcher", "org.gnome.Mutter.RemoteDesktop"] {
            guard try waitForName(name) else { throw HarnessError("nothing took \(name):\n\(shellLog)") }
        }
        let hand = try GnomeShellHand(environment: environment)
        self.hand = hand
        // Login: the overview is open and (as root) a banner waits for activity.
        try hand.key(GnomeShellHand.escape)
        guard try waitUntil(timeout: 20, interval: 0.3, {
            try hand.wiggle()
            return try GnomeShellAccessibility(environment: environment).nodes().allSatisfy { $0.role != "notification" }
        }) else { throw HarnessError("the login banner stayed:\n\(shellLog)") }
    }

    /// Starts a child in a process group of its own, in the session's environment, logging to `log`.
    public func startGroup(_ arguments: [String], log: String, environment: [String: String]? = nil) throws -> Process {
        let p = try Subprocess.startLogged(arguments, log: work.appendingPathComponent(log).path,
                                           environment: ProcessInfo.processInfo.environment.merging(environment ?? self.environment) { $1 })
        groups.append(p)
        return p
    }

    public func waitForName(_ name: String, timeout: TimeInterval = 20) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.05) {
            try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameHasOwner", "s", name]).stdout == "b true\n"
        }
    }

    /// The accessibility tree, read now.
    public var accessibility: GnomeShellAccessibility { GnomeShellAccessibility(environment: environment) }

    /// The pointer and keyboard; throws when the session has none.
    public func pointer() throws -> GnomeShellHand {
        guard let hand else { throw HarnessError("the session has no remote-desktop hand") }
        return hand
    }

    /// The screen now, through org.gnome.Shell.Screenshot.
    public func screen() throws -> Screenshot {
        let png = work.appendingPathComponent("screen.png").path, ppm = work.appendingPathComponent("screen.ppm").path
        try pointer().screenshot(png)
        let r = try Subprocess.run(["convert", png, "-depth", "8", "ppm:" + ppm])
        guard r.status == 0 else { throw HarnessError("convert: \(r)") }
        return try Screenshot(file: ppm)
    }

    /// When ICARE_SCREENSHOTS names a folder, a part of the screen goes there as `name`.png.
    public func screenshotForDocs(_ name: String, x: Int, y: Int, w: Int, h: Int) throws {
        guard let dir = Screenshot.docsFolder else { return }
        let png = work.appendingPathComponent("docs.png").path
        try pointer().screenshot(png)
        try Screenshot.writeForDocs(name, in: dir, magick: ["convert", png, "-crop", "\(w)x\(h)+\(x)+\(y)", "+repage"], colours: 64)
    }

    public func stop() {
        hand?.stop()
        hand = nil
        service.kill9()
        // The session bus's group: dbus-daemon and what it activated (dconf, the notification proxy).
        if service.bus.process.isRunning { kill(-service.bus.process.processIdentifier, SIGKILL) }
        for p in groups.reversed() { Subprocess.killGroup(p) }
        groups.removeAll()
        service.stop()
        systemBus.stop()
    }

    deinit { stop() }
}
