import Testing
import Foundation
import TestSupport

/// The real host: waybar 0.9's `tray` module (its own StatusNotifierWatcher
/// and host) on a headless sway, on icared's private bus. The ring must be
/// registered with waybar's watcher and drawn in the bar, checked on a
/// screenshot taken with grim. waybar runs as root (like icared here) and
/// reaches sway's socket by its absolute path.
@Suite(.serialized) struct WaybarTrayTests {
    @Test func theRingAppearsInWaybarsTray() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let service = try ServiceHarness(start: false)
        defer { service.stop() }
        let dir = service.home.appendingPathComponent("waybar")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("run"), withIntermediateDirectories: true)
        let config = dir.appendingPathComponent("config").path
        try #"{"layer": "top", "position": "top", "height": 30, "modules-right": ["tray"], "tray": {"icon-size": 24}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let style = dir.appendingPathComponent("style.css").path
        try "window#waybar { background: #000000; }\n".write(toFile: style, atomically: true, encoding: .utf8)
        let env = service.environment.merging(["WAYLAND_DISPLAY": sway.socket,
                                               "XDG_RUNTIME_DIR": dir.appendingPathComponent("run").path]) { $1 }
        let log = Pipe()
        let waybar = try Subprocess.start(["waybar", "-c", config, "-s", style], environment: env, stderr: log)
        defer { Subprocess.kill9(waybar) }
        // waybar owns the watcher once its tray is up.
        #expect(try waitUntil(timeout: 15, interval: 0.1) {
            try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameHasOwner", "s", "org.kde.StatusNotifierWatcher"]).stdout.contains("true")
        }, "waybar's tray took no watcher name")

        try service.start()
        let pid = try #require(service.process?.processIdentifier)
        #expect(try waitUntil(timeout: 10, interval: 0.1) {
            try service.busctl(["get-property", "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                                "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
                .stdout.contains("org.kde.StatusNotifierItem-\(pid)-1/StatusNotifierItem")
        }, "not registered with waybar's watcher")

        // The bar (30 px high, black) shows the blue ring at its right end.
        let shot = dir.appendingPathComponent("shot.ppm").path
        var ringPixels = 0
        let drawn = try waitUntil(timeout: 10, interval: 0.2) {
            let r = try Subprocess.run(["grim", "-t", "ppm", shot], environment: env)
            guard r.status == 0 else { throw HarnessError("grim failed: \(r)") }
            let image = try Screenshot(file: shot)
            ringPixels = image.points(of: [0x35, 0x84, 0xE4], xs: (image.width - 40)..<image.width, ys: 0..<30).count
            return ringPixels > 30
        }
        #expect(drawn, "no ring in the bar (\(ringPixels) ring-blue pixels)")

        // Paused: waybar reads the new icon after NewIcon and the blue goes.
        #expect(try service.call("Pause", "u", "0").status == 0)
        let gone = try waitUntil(timeout: 10, interval: 0.2) {
            _ = try Subprocess.run(["grim", "-t", "ppm", shot], environment: env)
            let image = try Screenshot(file: shot)
            return image.points(of: [0x35, 0x84, 0xE4], xs: (image.width - 40)..<image.width, ys: 0..<30).isEmpty
        }
        #expect(gone, "the ring stayed blue after Pause")
        #expect(waybar.isRunning)
    }
}
