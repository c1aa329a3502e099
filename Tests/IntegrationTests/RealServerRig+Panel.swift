import Foundation
import TestSupport

/// xfce4-panel 4.18 (Debian 12) on the rig's display: XFCE's own status
/// item host. Its systray plugin (`plugins/systray/sn-backend.c`) owns
/// `org.kde.StatusNotifierWatcher` itself and draws each item's
/// `IconPixmap`; a right click opens the item's dbusmenu as a GTK menu, a
/// left click calls `Activate` (`sn-button.c`). The plugin runs in the
/// panel's wrapper process, whose windows the accessibility tree does not
/// reach (a GtkPlug and its attached menu), so the menu's rows are found
/// from its window's place (X) and the layout the item serves (dbusmenu).
extension RealServerRig {
    /// The panel: a 30 px dark bar along the top, holding only the systray plugin at 24 px icons.
    static let panelChannel = """
    <?xml version="1.0" encoding="UTF-8"?>
    <channel name="xfce4-panel" version="1.0">
      <property name="configver" type="int" value="2"/>
      <property name="panels" type="array">
        <value type="int" value="1"/>
        <property name="panel-1" type="empty">
          <property name="position" type="string" value="p=6;x=0;y=0"/>
          <property name="length" type="uint" value="100"/>
          <property name="position-locked" type="bool" value="true"/>
          <property name="size" type="uint" value="30"/>
          <property name="background-style" type="uint" value="1"/>
          <property name="background-rgba" type="array">
            <value type="double" value="0.2"/><value type="double" value="0.2"/><value type="double" value="0.2"/><value type="double" value="1"/>
          </property>
          <property name="plugin-ids" type="array"><value type="int" value="1"/></property>
        </property>
      </property>
      <property name="plugins" type="empty">
        <property name="plugin-1" type="string" value="systray">
          <property name="icon-size" type="int" value="24"/>
        </property>
      </property>
    </channel>

    """

    /// Starts xfce4-panel with `panelChannel` in xfconf (the rig's xfconfd
    /// reads it from the session's config folder) and waits for its watcher.
    /// The panel draws its menus with DejaVu alone (`FixedFonts`), whose rows
    /// `clickMenuRow` measured.
    func startPanel() throws {
        let dir = service.home.appendingPathComponent("config/xfce4/xfconf/xfce-perchannel-xml")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Self.panelChannel.write(to: dir.appendingPathComponent("xfce4-panel.xml"), atomically: true, encoding: .utf8)
        let fonts = try FixedFonts.environment(in: work.appendingPathComponent("fonts"))
        _ = try startGroup(["xfce4-panel", "--disable-wm-check"], log: "panel.log", environment: environment.merging(fonts) { $1 })
        guard try waitForName("org.kde.StatusNotifierWatcher") else {
            throw HarnessError("xfce4-panel's systray took no watcher name: \(log("panel.log"))")
        }
    }

    /// The screen now, as a PPM (`import -window root`).
    func screen() throws -> Screenshot {
        let path = work.appendingPathComponent("screen.ppm").path
        let r = try Subprocess.run(["import", "-window", "root", "-depth", "8", "ppm:" + path], environment: environment)
        guard r.status == 0 else { throw HarnessError("import failed: \(r)") }
        return try Screenshot(file: path)
    }

    /// Waits (bounded) for the ring drawn in `colour` in the panel's 30 px; its centre on screen.
    func ring(_ colour: [UInt8], timeout: TimeInterval = 10) throws -> (x: Int, y: Int) {
        try Screenshot.ringCentre(timeout: timeout, context: "colour \(colour), panel: \(log("panel.log"))\nicared:\n\(service.log)") {
            let shot = try screen()
            return shot.points(of: colour, xs: 0..<shot.width, ys: 0..<30)
        }
    }

    /// The open menu's window (the wrapper's one tall window), from the X server.
    func openMenu(timeout: TimeInterval = 10) throws -> (x: Int, y: Int, w: Int, h: Int) {
        var menu: (x: Int, y: Int, w: Int, h: Int)?
        _ = try waitUntil(timeout: timeout, interval: 0.1) {
            let ids = try Subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "wrapper-2.0"], environment: environment)
                .stdout.split(separator: "\n").map(String.init)
            menu = try ids.compactMap { try windowGeometry($0) }.first { $0.h > 100 }
            return menu != nil
        }
        guard let menu else { throw HarnessError("no menu opened: \(log("panel.log"))") }
        return menu
    }

    func windowGeometry(_ id: String) throws -> (x: Int, y: Int, w: Int, h: Int)? {
        let r = try Subprocess.run(["xdotool", "getwindowgeometry", "--shell", id], environment: environment)
        var v: [String: Int] = [:]
        for line in r.stdout.split(separator: "\n") {
            let kv = line.split(separator: "=")
            if kv.count == 2 { v[String(kv[0])] = Int(kv[1]) }
        }
        guard let x = v["X"], let y = v["Y"], let w = v["WIDTH"], let h = v["HEIGHT"] else { return nil }
        return (x, y, w, h)
    }

    /// The top level of the item's menu as the panel reads it (`GetLayout`): each row's label, or nil for a separator.
    func menuRows(item: String) throws -> [String?] { try Self.menuRows(service, item: item) }

    static func menuRows(_ service: ServiceHarness, item: String) throws -> [String?] {
        let r = try service.busctl(["call", "--json=short", item, "/StatusNotifierItem/Menu", "com.canonical.dbusmenu",
                                    "GetLayout", "iias", "0", "1", "0"])
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = json["data"] as? [Any], data.count == 2, let layout = data[1] as? [Any], layout.count == 3,
              let children = layout[2] as? [[String: Any]] else { throw HarnessError("GetLayout: \(r)") }
        return try children.map { child in
            guard let entry = child["data"] as? [Any], entry.count == 3, let props = entry[1] as? [String: [String: Any]] else {
                throw HarnessError("a menu entry: \(child)")
            }
            if props["type"]?["data"] as? String == "separator" { return nil }
            return props["label"]?["data"] as? String ?? ""
        }
    }

    /// Clicks the row labelled `label` in the open menu, like a person: GTK's
    /// menu under Adwaita in Debian 12 draws 4 px of frame and padding at the
    /// top and bottom, 25 px per item and 1 px per separator (measured on its
    /// screenshot, in DejaVu Sans: `startPanel`); a menu of another height than that says the rows are not
    /// where this thinks, and the test fails rather than clicking blind.
    func clickMenuRow(_ label: String, item: String) throws {
        let rows = try menuRows(item: item)
        let menu = try openMenu()
        let items = rows.filter { $0 != nil }.count, separators = rows.count - items
        guard menu.h == 8 + 25 * items + separators else {
            throw HarnessError("the menu is \(menu.h) px high, not the measured 8 + 25 × \(items) + \(separators)")
        }
        guard let index = rows.firstIndex(of: label) else { throw HarnessError("no row \(label) in \(rows)") }
        let before = rows[..<index]
        let top = menu.y + 4 + 25 * before.filter { $0 != nil }.count + before.filter { $0 == nil }.count
        try click(x: menu.x + menu.w / 3, y: top + 12, button: 1)
    }

    /// When ICARE_SCREENSHOTS names a folder, the panel's corner (and what hangs from it) goes there as `name`.png.
    func panelScreenshot(_ name: String, width: Int, height: Int) throws {
        guard let dir = Screenshot.docsFolder else { return }
        try Screenshot.writeForDocs(name, in: dir, magick: ["import", "-window", "root", "-crop", "\(width)x\(height)+0+0", "+repage"],
                                    colours: nil, environment: environment)
    }
}
