import Foundation
import TestSupport

/// The real xdg-desktop-portal of Debian 12 (1.16) on a FlatpakRig's bus, with real backends:
/// xdg-desktop-portal-gtk 1.14 (Access, whose dialog shows on Xvfb; Inhibit, whose CreateMonitor follows
/// the desktop's screen saver) and xdg-desktop-portal-gnome 43 (Background, which writes the autostart
/// entry), beside xdg-permission-store. The desktop they listen to is python3-dbusmock: GNOME's session
/// manager (its name, which makes the gtk backend follow org.gnome.ScreenSaver) and screen saver
/// (template gnome_screensaver: SetActive(b) sends ActiveChanged). Everything is started here with this
/// environment, none of it through D-Bus activation. Only gtk.portal and gnome.portal are offered
/// (XDG_DESKTOP_PORTAL_DIR): Debian's folder also has gnome-shell.portal, whose Access needs GNOME Shell
/// itself, and 1.16 would take it first. Facts in docs/flatpak.md, "The portals".
final class PortalRig: @unchecked Sendable {
    let display: VirtualDisplay
    let environment: [String: String]
    /// The gtk backend, which owns the Access dialog's window.
    private(set) var gtkPID: Int32 = 0
    private var processes: [Process] = []
    private let folder: URL

    init(_ rig: FlatpakRig) throws {
        display = try VirtualDisplay()
        folder = rig.home.appendingPathComponent("portals")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in ["gtk.portal", "gnome.portal"] {
            try FileManager.default.copyItem(atPath: "/usr/share/xdg-desktop-portal/portals/" + file, toPath: folder.path + "/" + file)
        }
        // As a session with Flatpak apps has it: the installation's exports among the data folders, so the
        // dialog names the app by its desktop entry.
        environment = rig.environment.merging([
            "DISPLAY": display.display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory",
            "XDG_DESKTOP_PORTAL_DIR": folder.path, "XDG_CURRENT_DESKTOP": "GNOME",
            "XDG_DATA_DIRS": rig.installation + "/exports/share:/usr/share",
        ]) { $1 }
        do {
            try start("org.gnome.SessionManager", ["/usr/bin/python3", "-m", "dbusmock", "org.gnome.SessionManager",
                                                   "/org/gnome/SessionManager", "org.gnome.SessionManager"])
            try start("org.gnome.ScreenSaver", ["/usr/bin/python3", "-m", "dbusmock", "--template", "gnome_screensaver"])
            try start("org.freedesktop.impl.portal.PermissionStore", ["/usr/libexec/xdg-permission-store", "--replace"])
            // The gtk backend picks its screen saver once, when it starts: the fakes come first.
            try start("org.freedesktop.impl.portal.desktop.gtk", ["/usr/libexec/xdg-desktop-portal-gtk", "-r"])
            gtkPID = processes.last!.processIdentifier
            try start("org.freedesktop.impl.portal.desktop.gnome", ["/usr/libexec/xdg-desktop-portal-gnome", "-r"])
            try start(nil, ["/usr/libexec/xdg-desktop-portal", "-r"])
            // Ready when the frontend answers for both portals.
            let ready = waitUntil(timeout: 15, interval: 0.05) {
                ["org.freedesktop.portal.Background", "org.freedesktop.portal.Inhibit"].allSatisfy { portal in
                    (try? self.busctl(["get-property", "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                       portal, "version"]).status) == 0
                }
            }
            guard ready else { throw HarnessError("xdg-desktop-portal did not answer for Background and Inhibit in 15 s") }
        } catch {
            stop()
            throw error
        }
    }

    private func start(_ name: String?, _ command: [String]) throws {
        processes.append(try name.map { try startOwning($0, command, environment: environment, timeout: 15) }
                         ?? Subprocess.start(command, environment: environment))
    }

    func busctl(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run([try Subprocess.which("busctl"), "--user"] + args, environment: environment, timeout: 30)
    }

    /// The person's answer as the permission store keeps it (`flatpak permission-set background background
    /// org.icare.Reminder VALUE`: yes, no or ask).
    func setBackgroundPermission(_ value: String) throws {
        let r = try Subprocess.run([try Subprocess.which("flatpak"), "permission-set", "background", "background",
                                    FlatpakRig.appID, value], environment: environment)
        guard r.status == 0 else { throw HarnessError("flatpak permission-set failed: \(r)") }
    }

    /// What the store holds for iCare's background permission ("" when nothing).
    func backgroundPermission() throws -> String {
        let r = try Subprocess.run([try Subprocess.which("flatpak"), "permission-show", FlatpakRig.appID], environment: environment)
        let row = r.stdout.split(separator: "\n").map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }) }.first { $0.first == "background" }
        return row.flatMap { $0.count >= 4 ? String($0[3]) : nil } ?? ""
    }

    /// GNOME's screen saver (the lock screen) turned on or off.
    func screenSaver(_ active: Bool) throws {
        let r = try busctl(["call", "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver", "org.gnome.ScreenSaver",
                            "SetActive", "b", active ? "true" : "false"])
        guard r.status == 0 else { throw HarnessError("SetActive failed: \(r)") }
    }

    /// The Access dialog's window: the gtk backend's visible window that is more than a pixel wide.
    func dialog(timeout: TimeInterval = 15) -> String? {
        var found: String?
        _ = waitUntil(timeout: timeout, interval: 0.1) {
            let ids = (try? Subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", "\(self.gtkPID)"],
                                           environment: ["DISPLAY": self.display.display]).stdout) ?? ""
            found = ids.split(separator: "\n").map(String.init).first { (self.size(of: $0)?.width ?? 0) > 100 }
            return found != nil
        }
        return found
    }

    func size(of window: String) -> (width: Int, height: Int)? {
        let r = try? Subprocess.run(["xdotool", "getwindowgeometry", window], environment: ["DISPLAY": display.display])
        guard let line = r?.stdout.split(separator: "\n").first(where: { $0.contains("Geometry:") }),
              let text = line.split(separator: " ").last else { return nil }
        let parts = text.split(separator: "x").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// A pointer click on the dialog's button row (its bottom), at `fraction` of its width: "Don't allow"
    /// is the left half, "Allow" the right.
    func click(_ window: String, at fraction: Double) throws {
        guard let size = size(of: window) else { throw HarnessError("the dialog \(window) has no size") }
        let r = try Subprocess.run(["xdotool", "mousemove", "--window", window, "\(Int(Double(size.width) * fraction))",
                                    "\(size.height - 15)", "click", "1"], environment: ["DISPLAY": display.display])
        guard r.status == 0 else { throw HarnessError("xdotool click failed: \(r)") }
    }

    func stop() {
        for process in processes.reversed() { Subprocess.kill9(process) }
        processes = []
        display.stop()
    }
}
