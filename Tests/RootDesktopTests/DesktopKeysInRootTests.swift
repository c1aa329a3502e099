import Testing
import Foundation
import TestSupport

/// Issue 29, item 3, on the real Plasma 6 in the Debian testing root (6.7.4):
/// GNOME's settings left in the person's dconf (do-not-disturb, eyesight
/// breaks, event sounds off) do not act there, and icared follows Plasma's own do-not-disturb instead.
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

    /// Writes GNOME's left-overs into the session's dconf database, starts icared, waits a second. Where the
    /// session runs a dconf service (GNOME), the root's own `dconf write`; elsewhere (Plasma) the real `dconf compile`.
    static func startIcared(_ root: DesktopRoot, _ session: DesktopRootSession, dconfService: Bool = false) throws -> String {
        let work = root.work
        if dconfService {
            for (key, value) in [("/org/gnome/desktop/notifications/show-banners", "false"),
                                 ("/org/gnome/desktop/break-reminders/selected-breaks", "['eyesight']"),
                                 ("/org/gnome/desktop/sound/event-sounds", "false")] {
                let r = try session.run(["dconf", "write", key, value])
                guard r.status == 0 else { throw HarnessError("dconf write \(key): \(r)") }
            }
        } else {
            let keyfiles = work.appendingPathComponent("keyfiles")
            try FileManager.default.createDirectory(at: keyfiles, withIntermediateDirectories: true)
            try gnomeLeftOvers.write(to: keyfiles.appendingPathComponent("00-gnome"), atomically: true, encoding: .utf8)
            _ = try root.folder("config/dconf")
            let compiled = try Subprocess.run(["dconf", "compile", work.appendingPathComponent("config/dconf/user").path, keyfiles.path])
            guard compiled.status == 0 else { throw HarnessError("dconf compile: \(compiled)") }
        }
        if let own = ProcessInfo.processInfo.environment["ICARE_ROOT_ICARED"] {
            // A developer's own build, bare: the package's unit is for the package's icared.
            let icared = work.appendingPathComponent("icared").path
            try FileManager.default.copyItem(atPath: own, toPath: icared)
            try session.start([icared, "--log-stderr", "--debug"], log: "icared.log")
        } else {
            try session.startIcared(["--log-stderr", "--debug"], log: "icared.log")
        }
        guard try session.waitForName("org.icare.Reminder", timeout: 20) else { throw HarnessError(session.log("icared.log")) }
        Thread.sleep(forTimeInterval: 1)
        return session.log("icared.log")
    }

    @Test(.timeLimit(.minutes(10)))
    func gnomesSettingsDoNotActOnPlasma() throws {
        let plasma = try RootPlasma(.forky)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        let log = try Self.startIcared(plasma.root, session)
        #expect(try session.icareProperty("State") == "(<'waiting'>,)", "log:\n\(log)")
        #expect(try session.icareProperty("DoNotDisturb") == "(<false>,)", "log:\n\(log)")
        #expect(try session.icareProperty("DesktopEyeBreaks") == "(<false>,)", "log:\n\(log)")
        #expect(try session.icareProperty("SoundPlayedBy") != "(<'none'>,)", "log:\n\(log)")
        #expect(log.contains("Desktop: kde (XDG_CURRENT_DESKTOP=KDE)."), "log:\n\(log)")
        #expect(!log.contains("gnome found") && !log.contains("cinnamon found") && !log.contains("mate found"), "log:\n\(log)")
        #expect(log.contains("Do-not-disturb: kde found."), "log:\n\(log)")
    }

    /// The same left-overs on the real GNOME Shell 50.5 are GNOME's own: obeyed.
    @Test(.timeLimit(.minutes(10)))
    func gnomeStillObeysThemOnGnomeShell() throws {
        let gnome = try RootGnomeShell(.forky)
        defer { gnome.stop() }
        let log = try Self.startIcared(gnome.root, gnome.session, dconfService: true)
        #expect(try gnome.session.icareProperty("State") == "(<'paused'>,)", "log:\n\(log)")
        #expect(try gnome.session.icareProperty("DoNotDisturbSource") == "(<'gnome'>,)", "log:\n\(log)")
        #expect(try gnome.session.icareProperty("DesktopEyeBreaks") == "(<true>,)", "log:\n\(log)")
        #expect(try gnome.session.icareProperty("SoundPlayedBy") == "(<'none'>,)", "log:\n\(log)")
        #expect(log.contains("Desktop: gnome (XDG_CURRENT_DESKTOP=GNOME)."), "log:\n\(log)")
        #expect(!log.contains("kde found") && !log.contains("cinnamon found") && !log.contains("mate found"), "log:\n\(log)")
    }
}
