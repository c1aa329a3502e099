import Foundation

/// What every GNOME Shell started in a `DesktopRoot` shares, whatever its
/// test reads (`RootGnomeShell`, `GnomeBannerShell`, `ShellExtensionRig`): the
/// session's environment and activatable services, the settings written with
/// the root's `dconf` before the shell starts (no hot corners, no blanking or
/// lock, the extensions to enable, accessibility where the test reads AT-SPI),
/// and the tests' own user extension that turns on `Eval` (unsafe mode), for
/// GNOME 48, which has no option for it.
extension DesktopRootSession {
    /// The uuid of the tests' `Eval` extension (`installEvalExtension`).
    public static let evalExtension = "eval@tests.icare.org"

    /// A GNOME session in `root`: GNOME's variables (plus `variables`), and the shell's notification
    /// proxy, dconf, the accessibility bus, iCare's activation files (icared's and the app's) and `more`
    /// activatable. `firstStart`: a home iCare never ran in.
    public static func gnome(_ root: DesktopRoot, activatable more: [String] = [],
                             variables: [String: String] = [:], firstStart: Bool = false) throws -> DesktopRootSession {
        try DesktopRootSession(root, activatable: ["org.gnome.Shell.Notifications", "org.a11y.Bus", "ca.desrt.dconf",
                                                  "org.icare.Reminder", "org.icare.Reminder.Window"] + more,
                               variables: [
                                   "XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_DESKTOP": "gnome",
                                   "XDG_SESSION_TYPE": "wayland", "GSETTINGS_BACKEND": "dconf",
                               ].merging(variables) { $1 }, firstStart: firstStart)
    }

    /// The settings a headless shell under test needs, written before it starts: `extensions`
    /// enabled, accessibility on when `accessibility`; the first-login notice marked seen.
    public func prepareGnomeShell(extensions: [String], accessibility: Bool = true) throws {
        var settings = [
            ("/org/gnome/desktop/interface/enable-hot-corners", "false"),
            ("/org/gnome/shell/enabled-extensions", "[" + extensions.map { "'\($0)'" }.joined(separator: ", ") + "]"),
            ("/org/gnome/desktop/session/idle-delay", "uint32 0"),
            ("/org/gnome/desktop/screensaver/lock-enabled", "false"),
        ]
        if accessibility { settings.append(("/org/gnome/desktop/interface/toolkit-accessibility", "true")) }
        for (key, value) in settings {
            let r = try run(["dconf", "write", key, value])
            guard r.status == 0 else { throw HarnessError("dconf write \(key) in the \(root.release) root: \(r)") }
        }
        _ = try root.folder("data/gnome-shell")
        _ = try run(["touch", root.work.appendingPathComponent("data/gnome-shell/lock-warning-shown").path])
    }

    /// Installs the tests' `Eval` extension (a test aid in the user's own folder, never iCare's):
    /// enabled, it sets `global.context.unsafe_mode`. Enable it with `prepareGnomeShell`.
    public func installEvalExtension() throws {
        let folder = try root.folder("data/gnome-shell/extensions/\(Self.evalExtension)")
        try #"{"uuid": "\#(Self.evalExtension)", "name": "Eval for iCare's tests", "description": "Unsafe mode", "shell-version": ["48", "49", "50"]}"#
            .write(to: folder.appendingPathComponent("metadata.json"), atomically: true, encoding: .utf8)
        try """
        export default class {
            enable() { global.context.unsafe_mode = true; }
            disable() { global.context.unsafe_mode = false; }
        }

        """.write(to: folder.appendingPathComponent("extension.js"), atomically: true, encoding: .utf8)
    }

    /// The accessibility bus, started before the shell so that the shell joins it.
    public func startAccessibilityBus() throws {
        try start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], log: "at-spi.log")
        guard try waitForName("org.a11y.Bus", timeout: 20) else {
            throw HarnessError("at-spi-bus-launcher did not start in the \(root.release) root: \(log("at-spi.log"))")
        }
    }
}
