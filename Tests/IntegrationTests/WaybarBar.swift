import Foundation
import TestSupport

/// A headless sway with a virtual pointer, waybar with only its `tray` on
/// top (30 px high, black), and a not yet started icared on its private bus:
/// iCare installed into a temporary prefix as the package installs it (its
/// icon in the theme waybar reads through `XDG_DATA_DIRS`).
final class WaybarBar: @unchecked Sendable {
    let sway: HeadlessSway, service: ServiceHarness, pointer: VirtualPointer, waybar: Process
    let installed: InstalledICare
    let env: [String: String]
    private let shot: String, logFile: String

    init() throws {
        installed = try InstalledICare()
        do { sway = try HeadlessSway() } catch { installed.remove(); throw error }
        do {
            // The pointer device first: the seat has the pointer capability when waybar maps its bar.
            pointer = try VirtualPointer(socket: sway.socket)
            service = try ServiceHarness(environment: ["XDG_DATA_DIRS": installed.dataDirs], start: false)
        } catch { sway.stop(); installed.remove(); throw error }
        service.program = installed.icared
        let dir = service.home.appendingPathComponent("waybar")
        shot = dir.appendingPathComponent("shot.ppm").path
        logFile = dir.appendingPathComponent("waybar.log").path
        env = service.environment.merging(["WAYLAND_DISPLAY": sway.socket,
                                           "XDG_RUNTIME_DIR": dir.appendingPathComponent("run").path]) { $1 }
        do {
            // waybar draws the menu with DejaVu alone (`FixedFonts`), whose rows `rowCentre` measured.
            let fonts = try FixedFonts.environment(in: dir.appendingPathComponent("fonts"))
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("run"), withIntermediateDirectories: true)
            let config = dir.appendingPathComponent("config").path
            try #"{"layer": "top", "position": "top", "height": 30, "modules-right": ["tray"], "tray": {"icon-size": 24}}"#
                .write(toFile: config, atomically: true, encoding: .utf8)
            let style = dir.appendingPathComponent("style.css").path
            try "window#waybar { background: #000000; }\n".write(toFile: style, atomically: true, encoding: .utf8)
            // Its log to a file (through sh's exec: waybar itself is the child killed at `stop`).
            waybar = try Subprocess.start(["/bin/sh", "-c", #"exec waybar -c "$0" -s "$1" 2>"$2""#, config, style, logFile],
                                          environment: env.merging(fonts) { $1 })
        } catch { pointer.stop(); service.stop(); sway.stop(); installed.remove(); throw error }
    }

    /// waybar's log so far, and the end of sway's (the seat's devices).
    var log: String {
        "waybar's log:\n" + ((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "") +
            "\nsway's log (end):\n" + String(sway.log.suffix(2000))
    }

    /// Waits (bounded) for waybar's watcher, then for the running icared's item in it; its bus name.
    @discardableResult func registered() throws -> String {
        guard try waitUntil(timeout: 15, interval: 0.1, {
            try service.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                "NameHasOwner", "s", "org.kde.StatusNotifierWatcher"]).stdout.contains("true")
        }) else { throw HarnessError("waybar's tray took no watcher name") }
        var name = ""
        guard try waitUntil(timeout: 10, interval: 0.1, { name = try service.statusItemOwner() ?? ""; return !name.isEmpty }) else {
            throw HarnessError("icared shows no status item")
        }
        guard try waitUntil(timeout: 10, interval: 0.1, {
            try service.busctl(["get-property", "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher",
                                "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
                .stdout.contains(name + "/StatusNotifierItem")
        }) else { throw HarnessError("not registered with waybar's watcher") }
        return name
    }

    /// The whole output, taken with grim.
    func screen() throws -> Screenshot {
        let r = try Subprocess.run(["grim", "-t", "ppm", shot], environment: env)
        guard r.status == 0 else { throw HarnessError("grim failed: \(r)") }
        return try Screenshot(file: shot)
    }

    /// When ICARE_SCREENSHOTS names a folder, the output's top right corner goes there as `name`.png.
    func screenshot(_ name: String, width: Int, height: Int) throws {
        guard let dir = Screenshot.docsFolder else { return }
        let png = shot + ".png"
        let grim = try Subprocess.run(["grim", png], environment: env)
        guard grim.status == 0 else { throw HarnessError("grim failed: \(grim)") }
        try Screenshot.writeForDocs(name, in: dir, magick: ["convert", png, "-gravity", "NorthEast",
                                                            "-crop", "\(width)x\(height)+0+0", "+repage"], colours: nil)
    }

    /// Waits (bounded) for the ring drawn in `colour` in the tray; its centre on the output.
    func ring(_ colour: [UInt8]) throws -> (x: Int, y: Int) {
        // On failure, also how much of the waiting ring's blue is there: a tray that kept the old icon, or none at all.
        try Screenshot.ringCentre(context: "colour \(colour); the waiting blue: \((try? ringPoints(WaybarTrayTests.blue).count) ?? -1) pixels; "
                                  + "waybar:\n\(log)\nicared:\n\(service.log)") { try ringPoints(colour) }
    }

    /// The points of `colour` at the bar's right end, where the tray is.
    func ringPoints(_ colour: [UInt8]) throws -> [(x: Int, y: Int)] {
        let image = try screen()
        return image.points(of: colour, xs: (image.width - 40)..<image.width, ys: 0..<30)
    }

    /// The top level of the item's menu (`GetLayout`), as `RealServerRig.menuRows` reads it.
    static func menuRows(_ service: ServiceHarness, item: String) throws -> [String?] {
        try RealServerRig.menuRows(service, item: item)
    }

    /// The centre of the row labelled `label` in a GTK menu whose white is
    /// `menu`: Adwaita in Debian 12 on sway, in DejaVu Sans (`init`), measured on
    /// this test's screenshot (`docs/status-item-waybar-menu.png`), has 4 px of padding at the top and
    /// bottom, 26 px per item (25 under X11, `RealServerRig.clickMenuRow`) and
    /// 1 px per separator; a menu of another height fails the test rather than
    /// clicking blind.
    static func rowCentre(_ label: String, rows: [String?], menu: (x: Int, y: Int, w: Int, h: Int)) throws -> (x: Int, y: Int) {
        let items = rows.filter { $0 != nil }.count, separators = rows.count - items
        guard menu.h == 8 + 26 * items + separators else {
            throw HarnessError("the menu is \(menu.h) px high (\(menu)), not the measured 8 + 26 × \(items) + \(separators)")
        }
        guard let index = rows.firstIndex(of: label) else { throw HarnessError("no row \(label) in \(rows)") }
        let above = rows[..<index]
        return (menu.x + menu.w / 3, menu.y + 4 + 26 * above.filter { $0 != nil }.count + above.filter { $0 == nil }.count + 13)
    }

    func stop() {
        Subprocess.kill9(waybar)
        pointer.stop()
        service.stop()
        sway.stop()
        installed.remove()
    }
}

extension Screenshot {
    /// The bounding box of the pixels of exactly `colour`, or nil when there are none.
    func bounds(of colour: [UInt8]) -> (x: Int, y: Int, w: Int, h: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where pixel(x, y) == colour {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }
}
