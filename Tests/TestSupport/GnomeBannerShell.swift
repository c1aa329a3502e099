import Foundation

/// A real GNOME Shell (48.7, 50.5) headless in a `DesktopRoot`, started as
/// `RootGnomeShell` starts it, with what a test of its banners needs: `Eval`
/// (a small user extension sets `global.context.unsafe_mode`, which 48 has no
/// option for), animations on as on every desktop with a GPU
/// (`St.Settings.uninhibit_animations`; software rendering turns them off), a
/// person's pointer (`GnomeShellHand`, from the host on the root's bus), and the
/// banner's scale recorded by the shell on each change of it.
public final class GnomeBannerShell: @unchecked Sendable {
    public let root: DesktopRoot
    public let session: DesktopRootSession

    /// `extensions`: more to enable beside the tests' Eval (e.g. iCare's own, installed by the package).
    /// `firstStart`: a home iCare never ran in.
    public init(_ release: DesktopRoot.Release, variables: [String: String] = [:], extensions: [String] = [],
                firstStart: Bool = false) throws {
        session = try DesktopRootSession.startGnomeShell(release, variables: variables, eval: true, extensions: extensions,
                                                         accessibility: true, firstStart: firstStart)
        root = session.root
        do { try waitForShell() } catch { root.stop(); throw error }
    }

    public var shellLog: String { session.log("gnome-shell.log") }

    private func waitForShell() throws {
        session.set("WAYLAND_DISPLAY", "wayland-0")
        guard try session.waitForName("org.freedesktop.Notifications", timeout: 60) else {
            throw HarnessError("nothing took org.freedesktop.Notifications in the \(root.release) root:\n\(shellLog)")
        }
        guard waitUntil(timeout: 30, interval: 0.2, { (try? self.eval("1")) == "1" }) else {
            throw HarnessError("the shell's Eval did not answer (the tests' Eval extension):\n\(shellLog)")
        }
        // Login opens the overview, whose grab keeps the pointer from the banners (a person presses Escape).
        let startedUp = waitUntil(timeout: 30, interval: 0.2, { (try? self.eval("Main.layoutManager._startingUp")) == "false" })
        let closed = waitUntil(timeout: 15, interval: 0.3, {
            (try? self.eval("Main.overview.visible ? (Main.overview.hide(), 1) : 0")) == "0"
        })
        guard startedUp, closed else {
            let seen = (try? eval("JSON.stringify([Main.layoutManager._startingUp, Main.overview.visible, Main.overview.animationInProgress])")) ?? "?"
            throw HarnessError("the overview stayed open (starting up, visible, animating: \(seen)):\n\(shellLog.suffix(2000))")
        }
        _ = try eval("imports.gi.St.Settings.get().uninhibit_animations()")
        // GNOME 50 says "System was put in unsafe mode" in a banner that, with no input yet, would hold back the rest.
        _ = try eval("Main.messageTray.getSources().forEach(s => s.notifications.slice().forEach(n => n.destroy()))")
        // Every change of the banner's scale, in order, as the shell makes it (no sampling: nothing is missed).
        _ = try eval("""
            globalThis.icareScales = [];
            Main.messageTray._bannerBin.connect('notify::scale-x', b => globalThis.icareScales.push(Math.round(b.scale_x * 1000) / 1000));
            globalThis.icareEvents = [];
            Main.messageTray._bannerBin.connect('notify::hover', b => globalThis.icareEvents.push(`${Date.now() % 100000} hover ${b.hover} ${global.get_pointer()}`));
            Main.messageTray._bannerBin.connect('notify::visible', b => globalThis.icareEvents.push(`${Date.now() % 100000} visible ${b.visible}`));
            """)
    }

    /// `org.gnome.Shell.Eval` from the host on the root's bus: the value as JSON, or a throw with the shell's words.
    public func eval(_ code: String) throws -> String {
        let r = try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell",
                                    "--method", "org.gnome.Shell.Eval", code],
                                   environment: ["DBUS_SESSION_BUS_ADDRESS": session.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "",
                                                 "PATH": "/usr/bin:/bin"], timeout: 10)
        let out = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == 0, out.hasPrefix("(true, '") else { throw HarnessError("Eval \(code): \(r)") }
        return String(out.dropFirst("(true, '".count).dropLast("')".count))
    }

    /// The banner's scales since the last call (each change; 0.9 is the start of GNOME 50's pop-in).
    public func scales() throws -> [Double] {
        let text = try eval("JSON.stringify(globalThis.icareScales.splice(0))")
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "\"[]")).split(separator: ",").compactMap { Double($0) }
    }

    /// The title of the notification showing as a banner now ("" when none).
    public func bannerTitle() throws -> String {
        let text = try eval("Main.messageTray._notification && Main.messageTray._notificationState !== 0 ? Main.messageTray._notification.title : ''")
        return text.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// The titles of the notifications in the message list (the sources' notifications), ` | `-separated.
    public func listedTitles() throws -> String {
        try eval("Main.messageTray.getSources().flatMap(s => s.notifications.map(n => n.title)).join(' | ')")
    }

    /// The box (x, y, width, height) of the banner showing now, and of its mapped button labelled `label`.
    public func bannerBox(button label: String? = nil) throws -> (x: Int, y: Int, w: Int, h: Int)? {
        let match = label.map { "a instanceof imports.gi.St.Button && a.label === '\($0)' && a.is_mapped()" } ?? "a === bin"
        let text = try eval("""
            (() => { const bin = Main.messageTray._bannerBin, found = [];
              const walk = a => { if (\(match)) found.push(...a.get_transformed_position(), ...a.get_transformed_size());
                                  a.get_children().forEach(walk); };
              if (Main.messageTray._notification && Main.messageTray._notificationState === 2) walk(bin);
              return found.slice(0, 4).map(Math.round).join(' '); })()
            """)
        let n = text.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: " ").compactMap { Int($0) }
        return n.count == 4 ? (n[0], n[1], n[2], n[3]) : nil
    }

    /// The desktop entry of the focused window's app ("" when none).
    public func focusedApp() throws -> String {
        try eval("imports.gi.Shell.WindowTracker.get_default().focus_app?.get_id() ?? ''").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// The windows (`app id:focused:x,y,w,h`), for messages and to find iCare's.
    public func windows() throws -> String {
        try eval("""
            global.get_window_actors().map(a => { const w = a.meta_window, r = w.get_frame_rect();
              return `${w.get_gtk_application_id() ?? w.get_wm_class()}:${w.has_focus()}:${r.x},${r.y},${r.width},${r.height}`; }).join(' ')
            """).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// Writes iCare's config, starts icared (D-Bus activation) and opens the app's window on the Shell's
    /// Wayland (GTK drawing with cairo: no GPU in the root).
    public func openICare(config: String) throws {
        _ = try root.folder("config/icare")
        try config.write(to: root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        _ = try session.icareProperty("Version")
        try session.start(["icare"], log: "icare.log", environment: ["GSK_RENDERER": "cairo", "GDK_BACKEND": "wayland"])
    }

    /// A person's pointer on the 1280×800 screen.
    public func pointer() throws -> GnomeShellHand {
        try GnomeShellHand(environment: ["DBUS_SESSION_BUS_ADDRESS": session.environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""])
    }

    public func banners() throws -> [GnomeShellAccessibility.Banner] { try session.accessibility.banners() }

    public func stop() { root.stop() }

    deinit { stop() }
}
