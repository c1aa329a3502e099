import Foundation
import TestSupport

extension RealServerRig {
    // MARK: dunst

    /// dunst's config: its own defaults for the pointer (left click dismisses, middle click `do_action`,
    /// right click dismisses all) and the real dmenu as its menu, behind a `tee` that keeps the menu's
    /// lines for the test to read.
    func writeDunstConfig() throws {
        let menu = work.appendingPathComponent("menu.sh").path
        try """
        #!/bin/sh
        tee '\(work.path)/menu.txt' | exec /usr/bin/dmenu -p dunst

        """.write(toFile: menu, atomically: true, encoding: .utf8)
        chmod(menu, 0o755)
        try """
        [global]
            font = DejaVu Sans 9
            width = 360
            origin = top-right
            offset = 10x10
            dmenu = \(menu)
            frame_width = 2
            frame_color = "#4a6a8a"

        """.write(to: work.appendingPathComponent("dunstrc"), atomically: true, encoding: .utf8)
    }

    /// `dunstctl count displayed`: the bubbles on screen.
    func dunstDisplayed() throws -> Int {
        let r = try Subprocess.run(["dunstctl", "count", "displayed"], environment: environment)
        guard r.status == 0, let n = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("dunstctl count displayed: \(r)")
        }
        return n
    }

    /// dunst's one bubble window, from the X server: where a person would click.
    func dunstWindow() throws -> Bubble {
        let search = try Subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "Dunst"], environment: environment)
        let ids = search.stdout.split(separator: "\n").map(String.init)
        guard ids.count == 1 else { throw HarnessError("dunst windows on screen: \(ids) \(search)") }
        guard let (x, y, w, h) = try windowGeometry(ids[0]) else { throw HarnessError("no geometry for dunst's window \(ids[0])") }
        return Bubble(x: x, y: y, w: w, h: h, labelBoxes: [], buttons: [], icon: false)
    }

    /// A real middle click on dunst's bubble: dunst's `do_action`, which invokes a lone action at once
    /// and otherwise opens the menu.
    func dunstMiddleClick() throws {
        let w = try dunstWindow()
        try click(x: w.x + w.w / 2, y: w.y + w.h / 2, button: 2)
    }

    /// What a person does for a bubble with several actions: a middle click opens dunst's menu (dmenu,
    /// across the top of the screen), they type the start of `label` and press Return. Returns the menu's lines.
    func dunstChoose(_ label: String) throws -> [String] {
        let menu = work.appendingPathComponent("menu.txt").path
        try? FileManager.default.removeItem(atPath: menu)
        try dunstMiddleClick()
        let found = try Subprocess.run(["timeout", "10", "xdotool", "search", "--sync", "--onlyvisible", "--class", "dmenu"],
                                       environment: environment)
        guard found.status == 0 else { throw HarnessError("dunst opened no menu (\(found)): \(log("server.log"))") }
        for keys in [["type", "--delay", "30", label], ["key", "Return"]] {
            let r = try Subprocess.run(["xdotool"] + keys, environment: environment)
            guard r.status == 0 else { throw HarnessError("xdotool failed: \(r)") }
        }
        guard waitUntil(timeout: 10, {
            (try? Subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "dmenu"], environment: environment).status) == 1
        }) else { throw HarnessError("dmenu stayed open") }
        return ((try? String(contentsOfFile: menu, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    // MARK: the accessibility tree

    /// Prints, as JSON, every top-level window showing on the accessibility bus: its place, its texts
    /// (labels), its buttons with their places, and whether an icon is drawn.
    static let atspiScript = #"""
    import json, sys
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi

    def showing(a):
        return a.get_state_set().contains(Atspi.StateType.SHOWING)

    def box(a):
        e = a.get_extents(Atspi.CoordType.SCREEN)
        return {'x': e.x, 'y': e.y, 'w': e.width, 'h': e.height}

    def walk(a, out):
        try:
            visit(a, out)
        except Exception:
            pass  # a node that went while the tree was read: the caller reads again

    def visit(a, out):
        if a is None or not showing(a):
            return
        role = a.get_role()
        if role == Atspi.Role.LABEL and a.get_name():
            out['labels'].append(dict(box(a), name=a.get_name()))
        elif role == Atspi.Role.PUSH_BUTTON:
            out['buttons'].append(dict(box(a), name=a.get_name() or ''))
        elif role in (Atspi.Role.ICON, Atspi.Role.IMAGE):
            b = box(a)
            if b['w'] > 1 and b['h'] > 1:
                out['icon'] = True
        for i in range(a.get_child_count()):
            walk(a.get_child_at_index(i), out)

    bubbles = []
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None:
            continue
        for j in range(app.get_child_count()):
            w = app.get_child_at_index(j)
            if w is None or not showing(w):
                continue
            out = dict(box(w), app=app.get_name(), labels=[], buttons=[], icon=False)
            walk(w, out)
            bubbles.append(out)
    json.dump(bubbles, sys.stdout)
    """#
}
