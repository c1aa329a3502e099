import Testing
import Foundation
import TestSupport

/// Issue 40: what dunst and xfce4-notifyd do with iCare's reminder while a window fills the
/// screen, under xfwm4 (XFCE's window manager, EWMH full screen) on Xvfb, measured in the screen's
/// pixels. A GTK window of one flat colour asks for full screen itself (as F11 does it), and
/// xfwm4 marks it `_NET_WM_STATE_FULLSCREEN`. Neither server tells a client that a popup is hidden
/// or held; both draw it over the window, as docs/desktops.md says.
@Suite(.serialized) struct X11FullScreenTests {
    static let window = WaylandFullScreenTests.window

    /// How many different colours the screen shows now.
    static func colours(_ rig: RealServerRig) throws -> Int {
        try rig.screen().colours()
    }

    static func fullScreenWindow(_ rig: RealServerRig) throws {
        _ = try rig.startGroup(["xfwm4", "--compositor=off"], log: "xfwm4.log")
        let script = rig.work.appendingPathComponent("window.py").path
        try Self.window.write(toFile: script, atomically: true, encoding: .utf8)
        _ = try rig.startGroup(["/usr/bin/python3", script], log: "window.log",
                               environment: rig.environment.merging(["GDK_BACKEND": "x11"]) { $1 })
        let full = try waitUntil(timeout: 15, interval: 0.3) {
            let id = try Subprocess.run(["xdotool", "search", "--name", "^Full screen$"], environment: rig.environment)
            guard let first = id.stdout.split(separator: "\n").first else { return false }
            let state = try Subprocess.run(["xprop", "-id", String(first), "_NET_WM_STATE"], environment: rig.environment)
            return state.stdout.contains("_NET_WM_STATE_FULLSCREEN")
        }
        guard full else { throw HarnessError("xfwm4 shows no full-screen window; xfwm4:\n\(rig.log("xfwm4.log"))\nwindow:\n\(rig.log("window.log"))") }
        Thread.sleep(forTimeInterval: 0.5)
    }

    @Test(arguments: [RealServer.dunst, .xfce4Notifyd])
    func theReminderIsDrawnOverAFullScreenWindowUnderXfwm4(_ server: RealServer) throws {
        let rig = try RealServerRig(server, config: "")
        defer { rig.stop() }
        try Self.fullScreenWindow(rig)
        let alone = try Self.colours(rig)
        #expect(alone <= 2, "the full-screen window alone: \(alone) colours")
        try rig.restartDue()
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try rig.service.string("State") == "due" })
        var seen = 0
        let shown = try waitUntil(timeout: 10, interval: 0.3) { seen = try Self.colours(rig); return seen > 20 }
        #expect(shown, "\(server.rawValue): the reminder is not drawn over the full-screen window (\(seen) colours)")
    }
}
