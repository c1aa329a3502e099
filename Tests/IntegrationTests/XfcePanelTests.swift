import Testing
import Foundation
import TestSupport

/// The real XFCE host: xfce4-panel 4.18's systray plugin under Xvfb, with
/// xfconfd, the accessibility bus and xfce4-notifyd as an XFCE session has
/// them, the real icared on the same private bus, and a real pointer
/// (xdotool). The ring is found on the screen by its colour and clicked
/// where it is drawn. iCare runs installed into a temporary prefix, its
/// icon in the theme the panel reads (the prefix's `share` on its
/// `XDG_DATA_DIRS`), as on a person's machine: the panel draws a theme icon
/// named by `IconName` over the pixmaps.
@Suite(.serialized) struct XfcePanelTests {
    static let blue: [UInt8] = [0x35, 0x84, 0xE4], orange: [UInt8] = [0xE6, 0x61, 0x00]

    static func desktop() throws -> RealServerRig {
        let rig = try RealServerRig(.xfce4Notifyd, config: "", installed: true)
        do { try rig.startPanel() } catch { rig.stop(); throw error }
        return rig
    }

    /// The item's bus name: the unique name of the connection it lives on.
    static func itemName(_ rig: RealServerRig) throws -> String {
        guard let name = try rig.service.statusItemOwner() else { throw HarnessError("icared shows no status item") }
        return name
    }

    /// Waits (bounded) until the panel's watcher lists the running icared's item.
    static func registered(_ rig: RealServerRig) throws -> Bool {
        var name = ""
        guard try waitUntil(timeout: 10, interval: 0.1, { name = try rig.service.statusItemOwner() ?? ""; return !name.isEmpty }) else { return false }
        return try waitUntil(timeout: 10, interval: 0.1) {
            try rig.service.busctl(["get-property", "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                                    "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
                .stdout.contains(name + "/StatusNotifierItem")
        }
    }

    static func state(_ rig: RealServerRig, becomes state: String) throws -> Bool {
        try waitUntil(timeout: 10, interval: 0.1) { try rig.service.string("State") == state }
    }

    static var nowMicros: UInt64 { UInt64(Date().timeIntervalSince1970 * 1_000_000) }

    @Test func theRingIsInThePanelAndItsMenuPausesAndResumes() throws {
        let rig = try Self.desktop()
        defer { rig.stop() }
        try rig.service.start()
        #expect(try Self.registered(rig), "not registered with xfce4-panel's watcher")
        let item = try Self.itemName(rig)
        // What iCare says of the ring here: in the panel's tray, as this test sees it.
        let seen = try rig.service.capabilities(become: ["ring": "works"])
        #expect(seen["ring"]?.words == "In the panel's tray.", "\(seen)")

        // The blue ring of the countdown, drawn by the panel from IconPixmap.
        let ring = try rig.ring(Self.blue)
        #expect(ring.y < 30)

        // A right click opens the menu; a click on "Pause for 30 min" pauses for 30 minutes.
        try rig.click(x: ring.x, y: ring.y, button: 3)
        _ = try rig.openMenu()
        try rig.panelScreenshot("status-item-xfce4-panel", width: 300, height: 400)
        let before = Self.nowMicros
        try rig.clickMenuRow("Pause for 30 min", item: item)
        #expect(try Self.state(rig, becomes: "paused"), "the menu's click did not pause: \(rig.service.log)")
        let until = try rig.service.number("PausedUntil")
        #expect(until >= before + 1_790_000_000 && until <= Self.nowMicros + 1_810_000_000, "PausedUntil \(until)")
        // Paused: the panel redraws the ring without its blue.
        #expect(try waitUntil(timeout: 10, interval: 0.2) {
            let shot = try rig.screen()
            return shot.points(of: Self.blue, xs: 0..<shot.width, ys: 0..<30).isEmpty
        }, "the ring stayed blue after the pause")

        // The menu now offers Resume; a click on it starts a new interval.
        try rig.click(x: ring.x, y: ring.y, button: 3)
        try rig.clickMenuRow("Resume", item: item)
        #expect(try Self.state(rig, becomes: "waiting"), "the menu's Resume did not resume: \(rig.service.log)")
        _ = try rig.ring(Self.blue)
    }

    @Test func aLeftClickStartsTheBreakThatIsDue() throws {
        let rig = try Self.desktop()
        defer { rig.stop() }
        try rig.restartDue()
        #expect(try Self.registered(rig))
        #expect(try Self.state(rig, becomes: "due"))
        // Due: the full orange ring (NeedsAttention); a left click on it is Activate.
        let ring = try rig.ring(Self.orange)
        try rig.click(x: ring.x, y: ring.y, button: 1)
        #expect(try Self.state(rig, becomes: "break"), "the click did not start the break: \(rig.service.log)")
        // During the break the countdown is on screen; another left click leaves it there (no status over it).
        let countdown = try rig.bubble { $0.labels.contains { $0.hasPrefix("Look far away · ") } }
        #expect(countdown.named == ["End break"], "\(countdown)")
        try rig.click(x: ring.x, y: ring.y, button: 1)
        Thread.sleep(forTimeInterval: 1)
        _ = try rig.bubble { $0.labels.contains { $0.hasPrefix("Look far away · ") } }
        #expect(try rig.service.string("State") == "break")
    }

    @Test func aLeftClickWhenNothingIsDueShowsTheStatus() throws {
        let rig = try Self.desktop()
        defer { rig.stop() }
        try rig.service.start()
        #expect(try Self.registered(rig))
        let ring = try rig.ring(Self.blue)
        // A left click on the waiting ring: xfce4-notifyd shows the status briefly, and nothing changes.
        try rig.click(x: ring.x, y: ring.y, button: 1)
        let bubble = try rig.bubble { $0.labels.contains { $0.hasPrefix("Next break at ") } }
        #expect(bubble.labels.contains("Today: 0 completed, 0 skipped"), "\(bubble)")
        #expect(bubble.named.isEmpty, "no buttons: \(bubble)")
        #expect(try rig.service.string("State") == "waiting")
        // It goes by itself (5 s), and a second click shows it again.
        #expect(try waitUntil(timeout: 10, interval: 0.3) { try rig.bubbles().isEmpty }, "on screen: \(rig.onScreen)")
        try rig.click(x: ring.x, y: ring.y, button: 1)
        _ = try rig.bubble { $0.labels.contains { $0.hasPrefix("Next break at ") } }
    }
}
