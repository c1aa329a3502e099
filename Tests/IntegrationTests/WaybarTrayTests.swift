import Testing
import Foundation
import TestSupport

/// The real host: waybar 0.9's `tray` module (its own StatusNotifierWatcher
/// and host) on a headless sway, on icared's private bus. The ring must be
/// registered with waybar's watcher and drawn in the bar, checked on a
/// screenshot taken with grim, and its menu opened and used with a pointer:
/// a virtual pointer (`VirtualPointer`, wlr-virtual-pointer-unstable-v1), made
/// before waybar starts, is the seat's pointer device. waybar runs as root
/// (like icared here) and reaches sway's socket by its absolute path.
@Suite(.serialized) struct WaybarTrayTests {
    static let blue: [UInt8] = [0x35, 0x84, 0xE4], white: [UInt8] = [0xFF, 0xFF, 0xFF]
    static let orange: [UInt8] = [0xE6, 0x61, 0x00]

    @Test func theRingAppearsInWaybarsTray() throws {
        let bar = try WaybarBar()
        defer { bar.stop() }
        try bar.service.start()
        try bar.registered()

        // The bar (30 px high, black) shows the blue ring at its right end.
        var ringPixels = 0
        let drawn = try waitUntil(timeout: 10, interval: 0.2) {
            ringPixels = try bar.ringPoints(Self.blue).count
            return ringPixels > 30
        }
        #expect(drawn, "no ring in the bar (\(ringPixels) ring-blue pixels)")

        // Paused: waybar reads the new icon after NewIcon and the blue goes.
        #expect(try bar.service.call("Pause", "u", "0").status == 0)
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try bar.ringPoints(Self.blue).isEmpty },
                "the ring stayed blue after Pause")
        #expect(bar.waybar.isRunning)
    }

    @Test func aRightClickOpensTheMenuAndPauseForThirtyMinutesPauses() throws {
        let bar = try WaybarBar()
        defer { bar.stop() }
        try bar.service.start()
        let item = try bar.registered()
        let centre = try bar.ring(Self.blue)

        // A right click on the ring: waybar opens the item's dbusmenu as a GTK
        // menu (a popup at the pointer), white on the black bar and sway's grey.
        try bar.pointer.move(x: 0, y: 479)
        #expect(try bar.screen().bounds(of: Self.white) == nil, "white on the screen before the menu opened")
        try bar.pointer.click(x: centre.x, y: centre.y, button: VirtualPointer.right)
        _ = try waitUntil(timeout: 10, interval: 0.2) { try bar.screen().bounds(of: Self.white).map { $0.h > 100 } ?? false }
        // The pointer rests in the screen's bottom left corner (its arrow drawn off the
        // screen, its white outline not mistaken for the menu) while the menu is measured.
        try bar.pointer.move(x: 0, y: 479)
        Thread.sleep(forTimeInterval: 0.3)
        let menu = try #require(try bar.screen().bounds(of: Self.white), "no menu after a right click: \(bar.log)")
        try bar.screenshot("status-item-waybar-menu", width: 300, height: 400)

        // A click on the row "Pause for 30 min", found from the menu's layout as
        // waybar reads it (GetLayout) and the rows' heights measured on this screenshot.
        let rows = try WaybarBar.menuRows(bar.service, item: item)
        let row = try WaybarBar.rowCentre("Pause for 30 min", rows: rows, menu: menu)
        let before = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        try bar.pointer.click(x: row.x, y: row.y, button: VirtualPointer.left)
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try bar.service.string("State") == "paused" },
                "the menu's click did not pause: \(bar.service.log)")
        let until = try bar.service.number("PausedUntil")
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        #expect(until >= before + 1_790_000_000 && until <= now + 1_810_000_000, "PausedUntil \(until)")
        // The menu closed and the ring lost its blue (the pointer in its corner again).
        try bar.pointer.move(x: 0, y: 479)
        #expect(try waitUntil(timeout: 10, interval: 0.2) {
            try bar.ringPoints(Self.blue).isEmpty && bar.screen().bounds(of: Self.white) == nil
        }, "the ring stayed blue or the menu stayed open after the pause")
    }

    @Test func aLeftClickOnTheDueRingStartsTheBreak() throws {
        let bar = try WaybarBar()
        defer { bar.stop() }
        try NotificationTests.restartDue(bar.service)
        try bar.registered()
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try bar.service.string("State") == "due" })
        // Due: the full orange ring; a left click on it is the item's Activate.
        let centre = try bar.ring(Self.orange)
        try bar.pointer.click(x: centre.x, y: centre.y, button: VirtualPointer.left)
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try bar.service.string("State") == "break" },
                "the click did not start the break: \(bar.service.log)")
    }
}
