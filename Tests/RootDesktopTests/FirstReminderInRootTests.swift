import Testing
import Foundation
import TestSupport

/// The person's first reminder after the first start's notice, in one icared's life, on the real GNOME
/// Shell 48.7 and 50.5 and Plasma 6.3.6 and 6.7.4 (X11 and Wayland), from the installed package: icared
/// (in its unit's sandbox, its clock fifty times faster so the first 15-minute interval passes in 18 s)
/// shows "iCare is on", which times out as a notice does (into Plasma's history), then the reminder pops
/// up with its buttons and a real pointer presses Start. Plasma 6.7 kept that reminder in its history
/// when it updated the notice (docs/desktop-facts.md, "Brief notices").
@Suite(.serialized) struct FirstReminderInRootTests {
    /// A desktop: GNOME Shell or Plasma (on X11 or Wayland) of a root's release.
    enum Desktop: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case plasma67X11, plasma67Wayland, gnome50, gnome48, plasma63X11, plasma63Wayland
        var release: DesktopRoot.Release { ["gnome48", "plasma63X11", "plasma63Wayland"].contains(rawValue) ? .trixie : .forky }
        var testDescription: String { rawValue }
    }

    static let interval = "Interval = 15m\n", scale = "50"

    @Test(.timeLimit(.minutes(10)), arguments: Desktop.allCases)
    func theFirstReminderPopsUpAfterTheNotice(_ desktop: Desktop) throws {
        switch desktop {
        case .gnome48, .gnome50: try Self.onGnome(desktop.release)
        case .plasma63X11, .plasma67X11: try Self.onPlasma(desktop.release, wayland: false)
        case .plasma63Wayland, .plasma67Wayland: try Self.onPlasma(desktop.release, wayland: true)
        }
    }

    static func onPlasma(_ release: DesktopRoot.Release, wayland: Bool) throws {
        let plasma = try RootPlasma(release, wayland: wayland, firstStart: true)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        _ = try plasma.root.folder("config/icare")
        try interval.write(to: plasma.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        try session.startIcared(["--time-scale", scale], log: "icared.log")
        let notice = try plasma.popup { $0.texts.contains("iCare is on") }
        #expect(notice.named.contains("Open iCare"), "\(notice)")
        // The notice times out as Plasma times out a normal notification, before the break is due.
        #expect(try waitUntil(timeout: 15, interval: 0.3) { try !plasma.popups().contains { $0.texts.contains("iCare is on") } },
                "the notice did not time out on Plasma \(release.plasma)")
        #expect(try session.icareProperty("State") == "(<'waiting'>,)")
        let reminder = try plasma.reminderPopup(timeout: 40)
        try plasma.press("Start", on: reminder)
        #expect(try plasma.state(becomes: "break"), "Start did not start the break on Plasma \(release.plasma) (wayland: \(wayland))")
        print("Plasma \(release.plasma) (\(wayland ? "Wayland" : "X11")): the notice, then the first reminder popped up; Start pressed")
    }

    static func onGnome(_ release: DesktopRoot.Release) throws {
        let rig = try GnomeClicksRig(release, firstStart: true)
        defer { rig.stop() }
        _ = try rig.root.folder("config/icare")
        try interval.write(to: rig.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        try rig.recordAddedNotifications()
        try rig.session.startIcared(["--time-scale", scale], log: "icared.log")
        _ = try rig.waitForBanner("iCare is on")
        let box = try rig.waitForBanner("Time for an eye break", timeout: 40)
        #expect(try rig.addedNotifications().filter { $0 == "Time for an eye break" || $0 == "iCare is on" } == ["iCare is on", "Time for an eye break"])
        _ = try rig.clickButton("Start", onBanner: box)
        #expect(try waitUntil(timeout: 15, interval: 0.2) { try rig.session.icareProperty("State") == "(<'break'>,)" },
                "Start did not start the break on GNOME Shell \(release.gnomeShell)")
        print("GNOME Shell \(release.gnomeShell): the notice, then the first reminder's banner; Start clicked")
    }
}
