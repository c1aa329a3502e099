import Testing
import Foundation
import TestSupport

/// iCare's package (ICARE_DEB) in a Debian 13 and a Debian testing root, on the real Plasma there
/// (6.3.6, 6.7.4) on X11, as an ordinary user: plasmashell is the notification server it says, the
/// bus activates the installed icared, and its reminder shows as a popup with its buttons (read through
/// the accessibility tree inside the root).
@Suite struct PlasmaInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theInstalledIcaredIsActivatedAndItsReminderShowsOnPlasma(_ release: DesktopRoot.Release) throws {
        let plasma = try RootPlasma(release, variables: ["ICARE_TIME_SCALE": "90"])
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        #expect(try session.serverInformation() == ["Plasma", "KDE", release.plasma, "1.2"])

        _ = try plasma.root.folder("config/icare")
        try "Interval = 15m\nBreakDuration = 10s\n".write(to: plasma.root.work.appendingPathComponent("config/icare/config"),
                                                          atomically: true, encoding: .utf8)
        #expect(try session.icareProperty("Version") == "(<'\(try RootDesktopFacts.packageVersion())'>,)")
        #expect(try RootDesktopFacts.program(owning: "org.icare.Reminder", in: session) == "/usr/bin/icared")
        #expect(try RootDesktopFacts.runsAsInstalled(owning: "org.icare.Reminder", in: session), "inside the package's unit's sandbox")

        let popup = try RootDesktopFacts.waitForOne(timeout: 30) {
            try plasma.popups().filter { $0.texts.contains("Time for an eye break") }
        }
        if popup == nil {
            Issue.record(Comment(rawValue: "no reminder popup on Plasma \(release.plasma); popups: \(try plasma.popups())\n"
                                 + "icared's state: \(try session.icareProperty("State"))\nplasmashell:\n\(plasma.plasmashellLog)"))
        }
        // Plasma shows a notification's buttons always (GNOME only on hover).
        if let popup { #expect(Set(popup.named).isSuperset(of: ["Start", "Skip"]), "\(popup)") }
        #expect(try session.icareProperty("State") == "(<'due'>,)")
        // Nothing of the namespace outlives it: no process, so no mount.
        plasma.stop()
        #expect(plasma.root.namespaces.count == 2 && plasma.root.leftovers().isEmpty, "left running: \(plasma.root.leftovers())")
    }
}
