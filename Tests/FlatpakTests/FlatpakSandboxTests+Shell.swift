import Testing
import Foundation
import TestSupport

/// GNOME's do-not-disturb and eyesight breaks live in dconf, which the sandbox cannot read; iCare's
/// Shell extension, outside in the Shell, serves them as `ShowBanners` and `SelectedBreaks` beside the
/// full screen (gnome-extension/state.js; GnomeFullscreenInRootTests checks the real extension in GNOME
/// Shell 48 and 50). Here python3-dbusmock holds the extension's name and object with that shape on the
/// rig's bus, and the sandboxed icared follows it through the proxy (the name is under the app's id).
extension FlatpakSandboxTests {
    static let shellRing = "org.icare.Reminder.ShellRing"

    func limits(_ rig: FlatpakRig) throws -> String {
        try rig.busctl(["get-property", Self.name, "/org/icare/Reminder", Self.name, "SandboxLimits"]).stdout
    }

    @Test func gnomesKeysReachTheSandboxThroughTheShellExtension() throws {
        let rig = try FlatpakRig()
        defer { rig.stop() }
        #expect(try rig.state() == "waiting")
        // No extension: GNOME's switch is unknown, and the service says so. (No portal and no screen saver
        // runs on this bus, so neither a lock nor starting at login can be had either.)
        let all = "as 5 \"gnome-keys\" \"sleep\" \"lock\" \"phone-commands\" \"autostart\"\n"
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try limits(rig) == all }, "SandboxLimits: \((try? limits(rig)) ?? "?")")
        let status = try rig.run("icarectl", ["status"])
        #expect(status.stdout.contains("Here, iCare cannot do everything:")
                && status.stdout.contains("GNOME's do-not-disturb and eyesight breaks are seen only with iCare's Shell extension."),
                "\(status)")

        let shell = try MockName(Self.shellRing, path: "/org/icare/Reminder/ShellRing", environment: rig.environment)
        defer { shell.stop() }
        try shell.set("PrimaryMonitorInFullscreen", "b", ["false"])
        try shell.set("ShowBanners", "b", ["true"])
        try shell.set("SelectedBreaks", "as", ["0"])
        // The extension appeared after icared: its name's owner is followed, and the limit goes.
        let served = try waitUntil(timeout: 10, interval: 0.1) { try limits(rig) == "as 4 \"sleep\" \"lock\" \"phone-commands\" \"autostart\"\n" }
        #expect(served, "SandboxLimits: \((try? limits(rig)) ?? "?")")

        // Banners off in GNOME: do not disturb, paused under DndPolicy pause.
        try shell.set("ShowBanners", "b", ["false"])
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.state() == "paused" }, "GNOME's do-not-disturb did not pause it")
        let source = try rig.busctl(["get-property", Self.name, "/org/icare/Reminder", Self.name, "DoNotDisturbSource"])
        #expect(source.stdout == "s \"gnome\"\n", "\(source)")
        // GNOME's own eyesight breaks turned on.
        try shell.set("SelectedBreaks", "as", ["1", "eyesight"])
        let eyes = try waitUntil(timeout: 10, interval: 0.1) {
            try rig.busctl(["get-property", Self.name, "/org/icare/Reminder", Self.name, "DesktopEyeBreaks"]).stdout == "b true\n"
        }
        #expect(eyes, "DesktopEyeBreaks did not follow SelectedBreaks")

        // The extension goes (the Shell restarts, the extension is turned off): no switch is known, so
        // no do-not-disturb; the limit is back.
        shell.stop()
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.state() == "waiting" }, "still paused without the extension")
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try limits(rig) == all }, "SandboxLimits \((try? limits(rig)) ?? "?")")
    }
}
