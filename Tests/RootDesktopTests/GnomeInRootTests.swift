import Testing
import Foundation
import TestSupport

/// iCare's package (ICARE_DEB, built on Debian 12) installed with the root's own apt in a Debian 13
/// and a Debian testing root, on the real GNOME Shell there (48.7, 50.5), headless, as an ordinary
/// user: the shell is what it says, the bus activates the installed icared, and its reminder shows
/// as a banner a person sees (read through the accessibility tree inside the root).
@Suite struct GnomeInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theInstalledIcaredIsActivatedAndItsReminderShowsOnGnomeShell(_ release: DesktopRoot.Release) throws {
        // Time scale 90 (inherited from the bus by the activated icared): a 15 min interval passes in 10 s.
        let shell = try RootGnomeShell(release, variables: ["ICARE_TIME_SCALE": "90"])
        defer { shell.stop() }
        let session = shell.session
        #expect(try session.serverInformation() == ["gnome-shell", "GNOME", release.gnomeShell, "1.2"])

        _ = try shell.root.folder("config/icare")
        try "Interval = 15m\nBreakDuration = 10s\n".write(to: shell.root.work.appendingPathComponent("config/icare/config"),
                                                          atomically: true, encoding: .utf8)
        // The first call activates icared: the package's /usr/bin/icared, of the package's version.
        #expect(try session.icareProperty("Version") == "(<'\(try RootDesktopFacts.packageVersion())'>,)")
        let program = try RootDesktopFacts.program(owning: "org.icare.Reminder", in: session)
        #expect(program == "/usr/bin/icared")
        #expect(try RootDesktopFacts.runsAsInstalled(owning: "org.icare.Reminder", in: session), "inside the package's unit's sandbox")
        #expect(try session.icareProperty("TimeScale") == "(<uint32 90>,)")

        let reminder = try RootDesktopFacts.waitForOne(timeout: 30) {
            try shell.banners().filter { $0.texts.contains("Time for an eye break") }
        }
        if reminder == nil {
            Issue.record(Comment(rawValue: "no reminder banner on GNOME Shell \(release.gnomeShell); on screen: \(try shell.banners())\n"
                                 + "icared's state: \(try session.icareProperty("State"))\nshell:\n\(shell.shellLog)"))
        }
        #expect(try session.icareProperty("State") == "(<'due'>,)")
        // The person's own client inside the root says the same.
        let status = try session.run(["icarectl"])
        #expect(status.status == 0 && status.stdout.contains("due"), "\(status)")
        // Nothing of the namespace outlives it: no process, so no mount.
        shell.stop()
        #expect(shell.root.namespaces.count == 2 && shell.root.leftovers().isEmpty, "left running: \(shell.root.leftovers())")
    }
}
