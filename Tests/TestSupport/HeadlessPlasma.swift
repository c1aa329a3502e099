import Foundation

/// A real KDE Plasma 5.27 session, headless, for the tests: on X11 (Xvfb,
/// `kwin_x11`, `plasmashell`) or on Wayland (`kwin_wayland --virtual`,
/// `plasmashell`), with a session bus, an accessibility bus and HOME/XDG
/// folders of its own. How it is started, and why in this order, is in
/// docs/desktop-facts.md, "Plasma 5.27, run here":
///
/// - the bus starts with the session's variables (DISPLAY or WAYLAND_DISPLAY,
///   the KDE ones), so that what it activates — kded5 (the tray's
///   `org.kde.StatusNotifierWatcher`), kactivitymanagerd, kglobalaccel5 —
///   joins the same display; it activates only those three (a folder of
///   their service files), never another notification server;
/// - kwin_wayland runs as a copy without Debian's file capability, at a
///   path ending in `kwin_wayland`;
/// - the accessibility bus starts after plasmashell: Qt 5.15 then joins it
///   every time (started before, plasmashell joins it about one time in three);
/// - the screen never locks (`kscreenlockerrc`).
///
/// Every child leads a process group of its own (Foundation spawns so), and
/// `stop` ends each group: what they started, and what the bus activated,
/// ends with them; then any program still running with the session's HOME
/// (KIO's workers leave the group). Throws with the logs when something does not come up.
public final class HeadlessPlasma: @unchecked Sendable {
    public enum Session: String, Sendable, CaseIterable, CustomStringConvertible {
        case x11, wayland
        public var description: String { rawValue }
    }

    public let session: Session
    /// The session's folder: home, XDG folders, logs.
    public let directory: URL
    public let bus: PrivateBus
    /// Xvfb's display (X11), e.g. `:5`; empty on Wayland.
    public private(set) var display = ""
    /// KWin's socket, an absolute path (Wayland); empty on X11.
    public private(set) var waylandSocket = ""
    public let width = 1280, height = 800
    private let dataDirectories: [String]
    /// The session's own fontconfig: DejaVu alone (`FixedFonts`).
    private let fonts: [String: String]
    private var groups: [Process] = []
    private var shell: Process?
    private var accessibility: Process?

    /// The services the session bus may start, as a Plasma session's bus would.
    static let activatable = ["org.kde.kded5", "org.kde.kglobalaccel", "org.kde.ActivityManager"]

    /// Starts the session up to a running plasmashell with its notification
    /// server, tray watcher and tray host, and the accessibility bus.
    /// `dataDirectories` come first on XDG_DATA_DIRS (an installed prefix's `share`).
    public init(_ session: Session, dataDirectories: [String] = []) throws {
        self.session = session
        self.dataDirectories = dataDirectories
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("icare-plasma-\(UUID().uuidString)")
        let services = directory.appendingPathComponent("services")
        for folder in ["home", "config", "data", "cache", "services", "bin"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("runtime"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for name in Self.activatable {
            try FileManager.default.createSymbolicLink(atPath: services.path + "/\(name).service",
                                                       withDestinationPath: "/usr/share/dbus-1/services/\(name).service")
        }
        try "[Daemon]\nAutolock=false\nLockOnResume=false\n"
            .write(to: directory.appendingPathComponent("config/kscreenlockerrc"), atomically: true, encoding: .utf8)
        var xvfb: Process?
        if session == .x11 {
            let server = try Xvfb(width: width, height: height)
            xvfb = server.process
            display = server.display
        } else {
            waylandSocket = directory.appendingPathComponent("runtime/wayland-icare").path
        }
        // Plasma sizes its panel from the font's height (the default layout's `gridUnit * 2.5`): with the
        // Noto fonts a machine with GNOME or Plasma has, the panel is taller than the 44 px the tests read.
        fonts = try FixedFonts.environment(in: directory.appendingPathComponent("fonts"))
        let busEnvironment = Self.home(directory, dataDirectories).merging(Self.desktopVariables(session, display)) { $1 }
            .merging(fonts) { $1 }
        do {
            bus = try PrivateBus(serviceDirectory: services.path, environment: busEnvironment)
        } catch {
            if let xvfb { Subprocess.kill9(xvfb) }
            throw error
        }
        if let xvfb { groups.append(xvfb) }
        do {
            try startCompositor()
            try startPlasmashell()
        } catch {
            stop()
            throw error
        }
    }

    /// HOME and the XDG folders of the session.
    private static func home(_ directory: URL, _ dataDirectories: [String]) -> [String: String] {
        [
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
            "XDG_RUNTIME_DIR": directory.appendingPathComponent("runtime").path,
            "XDG_DATA_DIRS": (dataDirectories + ["/usr/local/share", "/usr/share"]).joined(separator: ":"),
        ]
    }

    /// What a Plasma session sets for its programs (Qt in software, KDE's session markers).
    private static func desktopVariables(_ session: Session, _ display: String) -> [String: String] {
        var v = [
            "KDE_FULL_SESSION": "true", "XDG_CURRENT_DESKTOP": "KDE", "KDE_SESSION_VERSION": "5",
            "QT_QUICK_BACKEND": "software", "LIBGL_ALWAYS_SOFTWARE": "1", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
            "XDG_SESSION_TYPE": session == .x11 ? "x11" : "wayland",
            "QT_QPA_PLATFORM": session == .x11 ? "xcb" : "wayland",
        ]
        if session == .wayland { v["WAYLAND_DISPLAY"] = "wayland-icare" } else { v["DISPLAY"] = display }
        return v
    }

    /// The session's environment, for its programs and for clients (busctl, python3's AT-SPI, xdotool).
    public var environment: [String: String] {
        Self.home(directory, dataDirectories).merging(Self.desktopVariables(session, display)) { $1 }.merging(fonts) { $1 }
            .merging(bus.environment) { $1 }
    }

    // MARK: starting

    /// Starts `arguments` in a process group of its own, its output in `log` (in the session's folder).
    @discardableResult
    public func start(_ arguments: [String], log: String, environment extra: [String: String] = [:]) throws -> Process {
        var env = ProcessInfo.processInfo.environment.filter { !["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"].contains($0.key) }
        let session = Subprocess.neutralLocale.merging(environment, uniquingKeysWith: { $1 }).merging(extra, uniquingKeysWith: { $1 })
        for (k, v) in session { env[k] = v }
        let p = try Subprocess.startLogged(arguments, log: directory.appendingPathComponent(log).path, environment: env)
        groups.append(p)
        return p
    }

    /// A log of the session so far (`plasmashell.log`, `kwin.log`, …).
    public func log(_ name: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    private func startCompositor() throws {
        switch session {
        case .x11:
            try start(["kwin_x11", "--replace"], log: "kwin.log")
        case .wayland:
            // Debian's kwin_wayland has cap_sys_resource, which a container cannot grant ("Operation not
            // permitted"); a plain copy runs, and its path must end in kwin_wayland (else KWin's Qt platform
            // plugin does not load). KWIN_WAYLAND_NO_PERMISSION_CHECKS lets a test's pointer use fake input.
            let copy = directory.appendingPathComponent("bin/kwin_wayland").path
            try FileManager.default.copyItem(atPath: try Subprocess.which("kwin_wayland"), toPath: copy)
            try start([copy, "--virtual", "--width", "\(width)", "--height", "\(height)", "--socket", "wayland-icare"],
                      log: "kwin.log", environment: ["QT_QPA_PLATFORM": "", "WAYLAND_DISPLAY": "", "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1"])
        }
        guard try waitForName("org.kde.KWin", timeout: 20) else {
            throw HarnessError("KWin did not start (\(session)): \(log("kwin.log"))")
        }
    }

    /// Starts plasmashell and waits until it serves notifications and hosts the tray, then the accessibility bus.
    public func startPlasmashell() throws {
        try stopAccessibility()
        shell = try start(["plasmashell", "--no-respawn"], log: "plasmashell.log")
        for name in ["org.freedesktop.Notifications", "org.kde.StatusNotifierWatcher"] {
            guard try waitForName(name, timeout: 30) else {
                throw HarnessError("\(name) did not appear (\(session)); plasmashell: \(log("plasmashell.log"))")
            }
        }
        guard try waitUntil(timeout: 30, interval: 0.1, { try !names().filter { $0.hasPrefix("org.kde.StatusNotifierHost-") }.isEmpty }) else {
            throw HarnessError("no tray host (\(session)); plasmashell: \(log("plasmashell.log"))")
        }
        try startAccessibility()
    }

    /// The accessibility bus, started after plasmashell so that Qt joins it (see the type's comment),
    /// and waits until plasmashell's windows are in its tree.
    private func startAccessibility() throws {
        accessibility = try start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], log: "at-spi.log")
        guard try waitForName("org.a11y.Bus") else { throw HarnessError("at-spi-bus-launcher did not start: \(log("at-spi.log"))") }
        guard try waitUntil(timeout: 20, interval: 0.2, { try accessibleApplications().contains("plasmashell") }) else {
            throw HarnessError("plasmashell did not join the accessibility bus; applications: \(try accessibleApplications())")
        }
    }

    private func stopAccessibility() throws {
        guard let p = accessibility else { return }
        Subprocess.killGroup(p)
        groups.removeAll { $0 === p }
        accessibility = nil
        // On X11 the launcher also writes its bus's address on the root window (AT_SPI_BUS), which
        // Qt and libatspi read first: a killed launcher's address would send them to a dead bus.
        if session == .x11 {
            let r = try Subprocess.run(["xprop", "-root", "-remove", "AT_SPI_BUS"], environment: environment)
            guard r.status == 0 else { throw HarnessError("xprop could not remove AT_SPI_BUS: \(r)") }
        }
    }

    /// The applications in the accessibility tree.
    public func accessibleApplications() throws -> [String] {
        let script = "import gi\ngi.require_version('Atspi', '2.0')\nfrom gi.repository import Atspi\n"
            + "d = Atspi.get_desktop(0)\nprint('\\n'.join(d.get_child_at_index(i).get_name() or '' for i in range(d.get_child_count())))\n"
        let r = try Subprocess.run(["/usr/bin/python3", "-c", script], environment: environment, timeout: 20)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// plasmashell ends at once (SIGKILL, as a crash) and its notification name goes.
    public func killPlasmashell() throws {
        if let p = shell { Subprocess.killGroup(p); groups.removeAll { $0 === p } }
        shell = nil
        guard try waitUntil(timeout: 10, interval: 0.05, { try !nameHasOwner("org.freedesktop.Notifications") }) else {
            throw HarnessError("org.freedesktop.Notifications stayed after plasmashell was killed")
        }
    }

    // MARK: stopping

    private func stopGroups() {
        for p in groups.reversed() { Subprocess.killGroup(p) }
        groups.removeAll()
    }

    /// Ends the session: plasmashell, KWin, the display, the accessibility bus, and the bus with all it started.
    public func stop() {
        stopGroups()
        shell = nil
        accessibility = nil
        let busProcess = bus.process
        if busProcess.isRunning, getpgid(busProcess.processIdentifier) == busProcess.processIdentifier {
            kill(-busProcess.processIdentifier, SIGKILL)
        }
        bus.stop()
        killStragglers()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Programs of the session that left its process groups (plasmashell's KIO workers start a
    /// session of their own): every process whose environment has this session's HOME.
    private func killStragglers() {
        let home = Array("HOME=\(directory.appendingPathComponent("home").path)".utf8)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid(), let file = FileHandle(forReadingAtPath: "/proc/\(entry)/environ") else { continue }
            let variables = file.readDataToEndOfFile().split(separator: 0)
            try? file.close()
            if variables.contains(where: { Array($0) == home }) { kill(pid, SIGKILL) }
        }
    }

    deinit { stop() }
}
