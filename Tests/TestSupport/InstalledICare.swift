import Foundation

/// iCare installed the way the package installs it, into a temporary
/// prefix: `make install PREFIX=… BINSRC=<this build>` puts the binaries,
/// the icon into `share/icons/hicolor`, the desktop entry, the D-Bus
/// activation file and the translations where a distribution's would go.
/// Tests run the installed `icared` and give desktops `dataDirs` as
/// `XDG_DATA_DIRS`, so a panel finds iCare's icon in the theme as it does on
/// a person's machine. `remove()` deletes the prefix.
public final class InstalledICare: @unchecked Sendable {
    public static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public let root: URL
    public var prefix: String { root.appendingPathComponent("prefix").path }
    public var share: String { prefix + "/share" }
    public var icared: String { prefix + "/bin/icared" }
    public var icarectl: String { prefix + "/bin/icarectl" }
    /// The installed unit: tests give it to `ServiceHarness.unitFile`, so icared runs inside the sandbox it installs.
    public var unitFile: String { prefix + "/lib/systemd/user/icared.service" }
    /// The prefix's `share` first, then the system's, as a session's `XDG_DATA_DIRS`.
    public var dataDirs: String { share + ":/usr/local/share:/usr/share" }
    /// The icon the theme now has: the static eye.
    public var themeIcon: String { share + "/icons/hicolor/scalable/apps/org.icare.Reminder.svg" }

    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("icare-installed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let make = try Subprocess.which("make")
        // HOME outside the prefix: the system layout a package has (the unit in lib/systemd/user,
        // autostart in etc/xdg/autostart, all below the prefix), not a personal install's.
        let r = try Subprocess.run([make, "-C", Self.repo.path, "install", "PREFIX=\(prefix)", "BINSRC=\(Products.binDirectory)"],
                                   environment: ["HOME": root.appendingPathComponent("home").path, "XDG_CONFIG_HOME": ""],
                                   timeout: 120)
        guard r.status == 0 else {
            remove()
            throw HarnessError("make install into \(prefix) failed: \(r)")
        }
        guard FileManager.default.isExecutableFile(atPath: icared), FileManager.default.fileExists(atPath: themeIcon),
              FileManager.default.fileExists(atPath: prefix + "/etc/xdg/autostart/icared-autostart.desktop") else {
            remove()
            throw HarnessError("make install left no icared, theme icon or system autostart entry in \(prefix)")
        }
    }

    public func remove() { try? FileManager.default.removeItem(at: root) }
}
