import Foundation
import TestSupport

extension RealServerRig {
    // MARK: dunst

    /// dunst's config: the context menu is a script standing in for dmenu (dunst runs what its `dmenu`
    /// setting names): it records the menu's lines, and answers with the line whose label is in the
    /// `choice` file, as a person picking it in dmenu would.
    func writeDunstConfig() throws {
        let menu = work.appendingPathComponent("menu.sh").path
        try """
        #!/bin/sh
        cat > '\(work.path)/menu.txt'
        choice=$(cat '\(work.path)/choice' 2>/dev/null)
        rm -f '\(work.path)/choice'
        [ -n "$choice" ] && grep -F "#$choice (" '\(work.path)/menu.txt' | head -n 1
        exit 0

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

    /// dunst's context menu for the bubble on screen (`dunstctl context`, what a person's key binding or
    /// `do_action` click opens), choosing `label` in it; returns the menu's lines. The pointer is not used
    /// here: a click that xdotool moves onto dunst's bubble under the test's Xvfb reaches the root window
    /// (XQueryPointer names no child there), though the same click from a shell reaches the bubble.
    func dunstChoose(_ label: String) throws -> [String] {
        let menu = work.appendingPathComponent("menu.txt").path
        try? FileManager.default.removeItem(atPath: menu)
        try label.write(to: work.appendingPathComponent("choice"), atomically: true, encoding: .utf8)
        _ = try dunstWindow()
        let r = try Subprocess.run(["dunstctl", "context"], environment: environment)
        // The script takes the choice once it has read the whole menu.
        let choice = work.appendingPathComponent("choice").path
        guard r.status == 0, waitUntil(timeout: 10, { !FileManager.default.fileExists(atPath: choice) }) else {
            throw HarnessError("dunst opened no menu (\(r)): \(log("server.log"))")
        }
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
