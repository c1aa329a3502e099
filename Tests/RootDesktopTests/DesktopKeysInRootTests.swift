import Testing
import Foundation
import TestSupport

/// Issue 29, item 3, on the real Plasma 6 in the Debian testing root (6.7.4):
/// GNOME's settings left in the person's dconf (do-not-disturb, eyesight
/// breaks, event sounds off) do not act there, and Plasma's own switch does.
/// The icared run is the package's (ICARE_DEB), or `ICARE_ROOT_ICARED`: a
/// statically linked icared the root can run (copied into its work folder).
@Suite struct DesktopKeysInRootTests {
    static let gnomeLeftOvers = """
        [org/gnome/desktop/notifications]
        show-banners=false

        [org/gnome/desktop/break-reminders]
        selected-breaks=['eyesight']

        [org/gnome/desktop/sound]
        event-sounds=false
        """

    @Test(.timeLimit(.minutes(10)))
    func gnomesSettingsDoNotActOnPlasma() throws {
        let plasma = try RootPlasma(.forky)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        let work = plasma.root.work

        // The dconf database a GNOME session of the same person leaves, made by the real dconf.
        let keyfiles = work.appendingPathComponent("keyfiles")
        try FileManager.default.createDirectory(at: keyfiles, withIntermediateDirectories: true)
        try Self.gnomeLeftOvers.write(to: keyfiles.appendingPathComponent("00-gnome"), atomically: true, encoding: .utf8)
        _ = try plasma.root.folder("config/dconf")
        let compiled = try Subprocess.run(["dconf", "compile", work.appendingPathComponent("config/dconf/user").path, keyfiles.path])
        try #require(compiled.status == 0, "\(compiled)")

        var icared = "/usr/bin/icared"
        if let own = ProcessInfo.processInfo.environment["ICARE_ROOT_ICARED"] {
            icared = work.appendingPathComponent("icared").path
            try FileManager.default.copyItem(atPath: own, toPath: icared)
        }
        try session.start([icared, "--log-stderr", "--debug"], log: "icared.log")
        #expect(try session.waitForName("org.icare.Reminder", timeout: 20), "\(session.log("icared.log"))")
        Thread.sleep(forTimeInterval: 1)
        let log = session.log("icared.log")
        #expect(try session.icareProperty("State") == "(<'waiting'>,)", "log:\n\(log)")
        #expect(try session.icareProperty("DoNotDisturb") == "(<false>,)", "log:\n\(log)")
        #expect(try session.icareProperty("DesktopEyeBreaks") == "(<false>,)", "log:\n\(log)")
        #expect(try session.icareProperty("SoundPlayedBy") != "(<'none'>,)", "log:\n\(log)")
        #expect(log.contains("Desktop: kde (XDG_CURRENT_DESKTOP=KDE)."), "log:\n\(log)")
        #expect(!log.contains("gnome found") && !log.contains("cinnamon found") && !log.contains("mate found"), "log:\n\(log)")
        #expect(log.contains("Do-not-disturb: kde found."), "log:\n\(log)")
    }
}
