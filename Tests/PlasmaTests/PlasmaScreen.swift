import Foundation
import TestSupport

/// Something a person sees on Plasma's screen and may press: its words, its
/// place (screen pixels), and whether it takes a press (AT-SPI's ENABLED).
struct Control: CustomStringConvertible {
    let name: String
    let x: Int, y: Int, w: Int, h: Int
    let enabled: Bool
    var centre: (x: Int, y: Int) { (x + w / 2, y + h / 2) }
    var description: String { "\(name)\(enabled ? "" : " (disabled)")" }
}

/// One of plasmashell's notification popups: the title (where iCare puts
/// the countdown), the body's text and place, the buttons under it.
struct PlasmaBubble: CustomStringConvertible {
    let title: String
    let body: Control
    /// The action buttons, without the header's own (Close; Configure for an app with a desktop entry).
    let buttons: [Control]
    let x: Int, y: Int, w: Int, h: Int
    var named: [String] { buttons.map(\.name) }
    func button(_ name: String) -> Control? { buttons.first { $0.name == name } }
    var description: String { "bubble \"\(title)\" \"\(body.name)\" \(named) at \(x),\(y) \(w)x\(h)" }
}

/// What plasmashell shows now, read from the accessibility tree: its
/// notification popups and the panel's buttons (the tray's items among them).
/// An open menu is not in the tree (see PopupMenuWatcher).
struct PlasmaScreen: CustomStringConvertible {
    let bubbles: [PlasmaBubble]
    let tray: [Control]
    var description: String { "bubbles \(bubbles), tray \(tray.map(\.name))" }

    static func parse(_ r: ProcessResult) throws -> PlasmaScreen {
        guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("reading the accessibility tree failed: \(r)")
        }
        func control(_ d: [String: Any]) -> Control {
            func int(_ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? -1 }
            return Control(name: d["name"] as? String ?? "", x: int("x"), y: int("y"), w: int("w"), h: int("h"),
                           enabled: (d["enabled"] as? Bool) ?? false)
        }
        let bubbles = (json["bubbles"] as? [[String: Any]] ?? []).map { b in
            let frame = control(b["frame"] as? [String: Any] ?? [:])
            return PlasmaBubble(title: b["title"] as? String ?? "", body: control(b["body"] as? [String: Any] ?? [:]),
                                buttons: (b["buttons"] as? [[String: Any]] ?? []).map(control),
                                x: frame.x, y: frame.y, w: frame.w, h: frame.h)
        }
        return PlasmaScreen(bubbles: bubbles, tray: (json["tray"] as? [[String: Any]] ?? []).map(control))
    }

    /// Reads plasmashell's part of the tree: each showing window holding a
    /// notification (its title, its body text, its buttons below the header), the
    /// push buttons in the panel along the bottom (the tray's items among them).
    static let script = #"""
    import json, sys
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi
    S, R = Atspi.StateType, Atspi.Role
    PANEL_TOP = int(sys.argv[1])

    def has(a, s):
        return a.get_state_set().contains(s)

    def control(a, name=None):
        e = a.get_extents(Atspi.CoordType.SCREEN)
        return {'x': e.x, 'y': e.y, 'w': e.width, 'h': e.height, 'enabled': has(a, S.ENABLED),
                'name': a.get_name() if name is None else name}

    def showing(a, out, depth=0):
        if a is None or depth > 40 or not has(a, S.SHOWING):
            return
        out.append(a)
        for i in range(a.get_child_count()):
            showing(a.get_child_at_index(i), out, depth + 1)

    def text(a):
        return Atspi.Text.get_text(a, 0, Atspi.Text.get_character_count(a))

    out = {'bubbles': [], 'tray': []}
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None or app.get_name() != 'plasmashell':
            continue
        for j in range(app.get_child_count()):
            try:
                nodes = []
                showing(app.get_child_at_index(j), nodes)
                if not nodes:
                    continue
                window = nodes[0]
                notes = [a for a in nodes if a.get_role() == R.NOTIFICATION]
                if notes:
                    texts = [a for a in nodes if a.get_role() == R.TEXT]
                    body = control(texts[0], text(texts[0])) if texts else control(notes[0], '')
                    # The header (a tool bar and, beside it, the app's name, Configure and Close) is Plasma's own.
                    bars = [control(a) for a in nodes if a.get_role() == R.TOOL_BAR]
                    def in_header(c):
                        return any(b['y'] <= c['y'] + c['h'] // 2 < b['y'] + b['h'] for b in bars)
                    buttons = [c for c in (control(a) for a in nodes if a.get_role() == R.PUSH_BUTTON) if not in_header(c)]
                    out['bubbles'].append({'title': notes[0].get_name(), 'body': body, 'buttons': buttons,
                                           'frame': control(window)})
                elif control(window)['y'] >= PANEL_TOP:
                    out['tray'] += [control(a) for a in nodes if a.get_role() == R.PUSH_BUTTON]
            except Exception:
                pass  # a window that went while the tree was read: the caller reads again
    json.dump(out, sys.stdout)
    """#
}
