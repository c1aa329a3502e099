import Foundation

/// A real KDE Plasma (6.3.6 in trixie, 6.7.4 in forky) on X11 inside a
/// `DesktopRoot`, as the root's ordinary user: Xvfb (`-displayfd`: X display
/// numbers are shared with the host and every other root, through abstract
/// sockets), the session bus started with the session's variables, then
/// kactivitymanagerd and kded6 (plasmashell aborts without the first; the
/// second owns the tray's watcher), `kwin_x11 --replace`, `plasmashell
/// --no-respawn`, and the accessibility bus after plasmashell, as for 5.27
/// (`HeadlessPlasma`). With `wayland`, the session people run on Plasma 6:
/// `kwin_wayland` shows its output as a window on that Xvfb (KWin's X11
/// windowed backend, `--x11-display`) instead of `kwin_x11`, and plasmashell
/// and the apps are Wayland clients. KWin's own virtual output gives no
/// pixels without /dev/dri (its QPainter compositing has no screenshot);
/// the window's pixels are the screen (`import` on the Xvfb), and xdotool's
/// pointer there is KWin's pointer, as a nested session's is. With `sound`, PipeWire, WirePlumber and pipewire-pulse
/// start first, as a desktop session starts them, with null speakers
/// (`RootSound.startStack`). `stop()` ends the root with all of it.
public final class RootPlasma: @unchecked Sendable {
    public let root: DesktopRoot
    public private(set) var session: DesktopRootSession!
    /// Xvfb's display, e.g. `:3`.
    public private(set) var display = ""

    /// The Wayland session (`wayland`): KWin's socket, inside the session's XDG_RUNTIME_DIR.
    public static let waylandSocket = "wayland-icare"
    public let wayland: Bool

    /// `firstStart`: a home iCare never ran in, so the first call's icared shows its first-start notice.
    public init(_ release: DesktopRoot.Release, variables: [String: String] = [:], sound: Bool = false, wayland: Bool = false,
                firstStart: Bool = false) throws {
        root = try DesktopRoot(release)
        self.wayland = wayland
        let kind = wayland
            ? ["WAYLAND_DISPLAY": Self.waylandSocket, "XDG_SESSION_TYPE": "wayland", "QT_QPA_PLATFORM": "wayland"]
            : ["XDG_SESSION_TYPE": "x11", "QT_QPA_PLATFORM": "xcb"]
        do {
            try startXvfb()
            session = try DesktopRootSession(root, activatable: ["org.kde.kded6", "org.kde.kglobalaccel", "org.kde.ActivityManager",
                                                                 "org.icare.Reminder", "org.icare.Reminder.Window"],
                                             variables: kind.merging([
                                                 "DISPLAY": display, "KDE_FULL_SESSION": "true", "XDG_CURRENT_DESKTOP": "KDE",
                                                 "KDE_SESSION_VERSION": "6",
                                                 "QT_QUICK_BACKEND": "software", "LIBGL_ALWAYS_SOFTWARE": "1",
                                                 "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
                                                 // As startplasma-x11 sets it: the roots' only menu is plasma-applications.menu, and
                                                 // without it KService 6.13 (trixie) lists no applications (Kickoff stays empty).
                                                 "XDG_MENU_PREFIX": "plasma-",
                                             ]) { $1 }.merging(variables) { $1 }, firstStart: firstStart)
            try "[Daemon]\nAutolock=false\nLockOnResume=false\n"
                .write(to: root.work.appendingPathComponent("config/kscreenlockerrc"), atomically: true, encoding: .utf8)
            if sound { try RootSound.startStack(session) }
            try startPlasma()
        } catch {
            root.stop()
            throw error
        }
    }

    public var environment: [String: String] { session.environment }

    public var plasmashellLog: String { session.log(plasmashellLogName) }
    private var plasmashellLogName = "plasmashell.log"

    private func startXvfb() throws {
        let number = root.work.appendingPathComponent("display").path
        try root.start(["sh", "-c", "exec Xvfb -displayfd 1 -nolisten tcp -screen 0 1280x800x24 >\"$0\"", number], log: "xvfb.log",
                       environment: [:])
        guard waitUntil(timeout: 20, interval: 0.05, {
            ((try? String(contentsOfFile: number, encoding: .utf8)) ?? "").hasSuffix("\n")
        }), let text = try? String(contentsOfFile: number, encoding: .utf8) else {
            throw HarnessError("Xvfb reported no display in the \(root.release) root: \(root.log("xvfb.log"))")
        }
        display = ":" + text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The path of a program inside the root, in the folders Debian puts KDE's daemons in.
    private func program(_ name: String) throws -> String {
        let r = try session.run(["sh", "-c", "for d in /usr/bin /usr/libexec /usr/lib/x86_64-linux-gnu/libexec; do "
                                 + "[ -x \"$d/$0\" ] && { echo \"$d/$0\"; exit 0; }; done; exit 1", name])
        guard r.status == 0 else { throw HarnessError("no \(name) in the \(root.release) root") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func startPlasma() throws {
        // On Wayland the compositor comes first: kactivitymanagerd and kded6 are its clients.
        if wayland { try startKWin() }
        try session.start([try program("kactivitymanagerd")], log: "kactivitymanagerd.log")
        try session.start(["kded6"], log: "kded6.log")
        for name in ["org.kde.ActivityManager", "org.kde.kded6"] {
            guard try session.waitForName(name, timeout: 30) else {
                throw HarnessError("\(name) did not appear in the \(root.release) root: \(session.log("kactivitymanagerd.log"))\(session.log("kded6.log"))")
            }
        }
        if !wayland { try startKWin() }
        try startPlasmashell()
        try session.start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], log: "at-spi.log")
        guard try session.waitForName("org.a11y.Bus", timeout: 20) else {
            throw HarnessError("at-spi-bus-launcher did not start: \(session.log("at-spi.log"))")
        }
        guard try waitUntil(timeout: 30, interval: 0.3, { try session.accessibility.programs().contains("plasmashell") }) else {
            throw HarnessError("plasmashell did not join the accessibility bus; programs: \(try session.accessibility.programs())")
        }
    }

    /// plasmashell, until it owns org.freedesktop.Notifications and org.kde.StatusNotifierWatcher (about 2 s
    /// here; 4 s with both cores busy). Once in CI, Plasma 6.7's start hung: its log stopped before the tray's
    /// applets loaded, and it still owned neither name after 60 s, while 72 starts here, half of them with
    /// both cores busy, took at most 4.5 s. iCare takes no part in that start (nothing has called icared
    /// yet), so such a hang is printed with plasmashell's threads (gdb), ended, and started once more; a
    /// second hang, or a plasmashell that is gone (a crash), throws with its log.
    private func startPlasmashell() throws {
        for attempt in 1...2 {
            plasmashellLogName = attempt == 1 ? "plasmashell.log" : "plasmashell-again.log"
            let started = Date()
            try session.start(["plasmashell", "--no-respawn"], log: plasmashellLogName)
            // org.freedesktop.Notifications is activatable through plasma_waitforname (a call blocks 25 s): ask NameHasOwner.
            var missing: String?
            for name in ["org.freedesktop.Notifications", "org.kde.StatusNotifierWatcher"] where missing == nil {
                if try !session.waitForName(name, timeout: 60) { missing = name }
            }
            guard let missing else { return }
            let alive = (try? runningPlasmashells()) ?? []
            let what = "\(missing) did not appear in the \(root.release) root in \(Int(Date().timeIntervalSince(started))) s"
            guard attempt == 1, let pid = alive.first else {
                throw HarnessError("\(what); plasmashell running: \(alive.isEmpty ? "no" : alive.joined(separator: ", ")); its log:\n\(plasmashellLog)")
            }
            let threads = try session.run(["gdb", "-p", pid, "-batch", "-nx", "-ex", "thread apply all bt 10"], timeout: 60)
            print("\(what), plasmashell \(pid) still running: ended and started again. Its log:\n\(plasmashellLog)\n"
                  + "Its threads:\n\(threads.stdout.split(separator: "\n").filter { $0.hasPrefix("Thread") || $0.hasPrefix("#") }.joined(separator: "\n"))")
            _ = try session.run(["pkill", "-KILL", "-x", "plasmashell"])
            guard try waitUntil(timeout: 10, interval: 0.1, { try runningPlasmashells().isEmpty }) else {
                throw HarnessError("\(what), and plasmashell outlived SIGKILL")
            }
        }
    }

    /// The PIDs of plasmashell's processes inside, but for zombies: a killed one stays a zombie, as its
    /// parent is outside the namespace (the root's `exec`).
    private func runningPlasmashells() throws -> [String] {
        let rows: [[Substring]] = try session.run(["ps", "-C", "plasmashell", "-o", "pid=,stat="]).stdout
            .split(separator: "\n").map { $0.split(separator: " ") }
        return rows.filter { $0.count == 2 && !$0[1].hasPrefix("Z") }.map { String($0[0]) }
    }

    /// KWin, with what a test's KWin script prints (`print`) going to kwin.log.
    private func startKWin() throws {
        if wayland {
            // Debian's kwin_wayland carries cap_sys_resource, which the namespace cannot grant: a plain copy runs.
            // Qt's platform for KWin itself is its own (no QT_QPA_PLATFORM, no WAYLAND_DISPLAY to nest in).
            _ = try root.folder("bin")
            let copy = root.work.appendingPathComponent("bin/kwin_wayland").path
            let cp = try session.run(["cp", "/usr/bin/kwin_wayland", copy])
            guard cp.status == 0 else { throw HarnessError("copying kwin_wayland inside: \(cp)") }
            try session.start([copy, "--x11-display", display, "--width", "1280", "--height", "800", "--socket", Self.waylandSocket,
                               "--no-lockscreen"], log: "kwin.log",
                              environment: ["QT_QPA_PLATFORM": "", "WAYLAND_DISPLAY": "", "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1",
                                            "QT_LOGGING_RULES": "kwin_scripting.debug=true"])
        } else {
            try session.start(["kwin_x11", "--replace"], log: "kwin.log", environment: ["QT_LOGGING_RULES": "kwin_scripting.debug=true"])
        }
        guard try session.waitForName("org.kde.KWin", timeout: 30) else {
            throw HarnessError("\(wayland ? "kwin_wayland" : "kwin_x11") did not start in the \(root.release) root: \(session.log("kwin.log"))")
        }
    }

    /// The notification popups showing now: plasmashell's `notification` nodes (named by the summary),
    /// with their texts and buttons.
    public func popups() throws -> [GnomeShellAccessibility.Banner] {
        let nodes = try session.accessibility.nodes(of: "plasmashell")
        return GnomeShellAccessibility.subtrees(nodes) { $0.role == "notification" }.map { root, below in
            // libatspi 2.56 names a push button "button" (2.46: "push button"); its label is a child of it.
            GnomeShellAccessibility.Banner(box: root, labels: [root] + below.filter { ["label", "text"].contains($0.role) && !$0.name.isEmpty },
                                           buttons: below.filter { ["push button", "button"].contains($0.role) })
        }
    }

    /// The whole screen as a PNG at `path` (ImageMagick's `import`, inside).
    public func screenshot(_ path: String) throws {
        let r = try session.run(["import", "-window", "root", path])
        guard r.status == 0 else { throw HarnessError("import -window root: \(r)") }
    }

    public func stop() { root.stop() }

    deinit { stop() }
}
