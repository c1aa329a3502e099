import Testing
import Foundation
import TestSupport

/// The app (from the build) on a bus whose icared is iCare's Flatpak: the call that starts it goes through
/// the installation's exported service file, so icared runs sandboxed (`flatpak run`, bubblewrap,
/// xdg-dbus-proxy) and says what it cannot do there (`SandboxLimits`); the window shows it, in words.
/// Needs the bundles of `scripts/flatpak --test-bundles DIR` (ICARE_FLATPAK_BUNDLES=DIR), as
/// FlatpakSandboxTests do, and runs with them (its name matches their filter); without them it fails.
@Suite(.serialized) struct AppFlatpakSandboxTests {
    @Test func theWindowSaysWhatTheSandboxKeepsFromICare() throws {
        let installation = try FlatpakInstallation.folder()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("icare-app-flatpak-\(UUID().uuidString)")
        let runtime = home.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: home) }
        // The bus starts the sandboxed icared with its own environment, as a session's bus would.
        let bus = try PrivateBus(serviceDirectory: installation + "/exports/share/dbus-1/services", environment: [
            "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path, "FLATPAK_USER_DIR": installation, "PATH": "/usr/bin:/bin",
            "XDG_CONFIG_HOME": home.path + "/.config", "XDG_DATA_HOME": home.path + "/.local/share", "LANG": "C.UTF-8",
        ])
        let rig = try AppRig(startService: false, bus: bus)
        defer {
            if let proxy = try? rig.service.ownerProcess(of: "org.icare.Reminder") { kill(proxy, SIGKILL) }
            rig.stop()
        }
        // No portal, screen saver or Shell extension on this bus: every limit applies, each in a sentence.
        let sentences = ["Here, iCare cannot do everything:",
                         "GNOME's do-not-disturb and eyesight breaks are seen only with iCare's Shell extension.",
                         "A suspend is not seen, so a reminder may come right after waking up.",
                         "A locked screen is not seen: this desktop does not tell apps in a sandbox.",
                         "Phones get a tap with each reminder, but not Start, Snooze and Skip.",
                         "iCare does not start at login: the desktop has not allowed it to run in the background."]
        let shown = try rig.waitForHome(timeout: 30, "the sandbox's limits") { elements in
            elements.contains { $0.role == "label" && $0.name == sentences.joined(separator: "\n") }
        }
        // (SandboxLimits is never empty only in a sandbox: icared looks for /.flatpak-info.)
        #expect(shown.contains { $0.name.hasPrefix("Next break at ") }, "the home view of the sandboxed icared: \(shown)")
    }
}
