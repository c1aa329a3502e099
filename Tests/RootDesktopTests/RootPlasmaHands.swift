import Foundation
import TestSupport

/// A person's eyes and hands on the real Plasma 6 inside a root (`RootPlasma`, X11): the screen's
/// pixels (ImageMagick's `import` inside), a real pointer (xdotool's XTEST inside, on the root's
/// Xvfb), the accessibility tree read by the root's own libatspi, and the tray's open menu (see
/// `RootMenuWatcher`). The Plasma 5.27 suite's `PlasmaDesktop` does the same on Debian 12.
extension RootPlasma {
    /// The ring's colours (RingRenderer): blue counting down to the break, orange when it is due.
    static let blue: [UInt8] = [0x35, 0x84, 0xE4], orange: [UInt8] = [0xE6, 0x61, 0x00]
    /// Two colours of the installed icon org.icare.Reminder.svg: its teal arc and pupil ring, its pale disc.
    static let iconTeal: [UInt8] = [0x2A, 0x9D, 0x7C], iconPale: [UInt8] = [0xE8, 0xF4, 0xF0]
    static let width = 1280, height = 800

    /// The screen's pixels now.
    func pixels() throws -> Screenshot {
        let ppm = root.work.appendingPathComponent("screen.ppm").path
        let r = try session.run(["import", "-window", "root", "-depth", "8", "ppm:" + ppm])
        guard r.status == 0 else { throw HarnessError("import -window root: \(r)") }
        return try Screenshot(file: ppm)
    }

    /// How many pixels of `colour` are inside `node`'s place now.
    func count(_ colour: [UInt8], in node: GnomeShellAccessibility.Node) throws -> Int {
        try pixels().points(of: colour, xs: node.x..<(node.x + node.w), ys: node.y..<(node.y + node.h)).count
    }

    /// A press of pointer `button` (1 left, 3 right) at a point of the screen, after the pointer came to rest there.
    func click(x: Int, y: Int, button: Int = 1) throws {
        let r = try session.run(["xdotool", "mousemove", "\(x)", "\(y)", "sleep", "0.3", "click", "\(button)"])
        guard r.status == 0 else { throw HarnessError("xdotool inside the \(root.release) root: \(r)") }
    }

    func click(_ node: GnomeShellAccessibility.Node, button: Int = 1) throws {
        try click(x: node.centre.x, y: node.centre.y, button: button)
    }

    /// plasmashell's showing buttons in the panel along the bottom (the tray's items and the task manager's entries).
    func panelButtons() throws -> [GnomeShellAccessibility.Node] {
        try session.accessibility.nodes(of: "plasmashell").filter {
            ["push button", "button"].contains($0.role) && $0.y >= Self.height - 60
        }
    }

    /// The tray's button for iCare's item (its Title, "iCare"; an icon of the tray is narrower than 40 px,
    /// a task manager entry is not), waited for (bounded).
    func trayItem(timeout: TimeInterval = 20) throws -> GnomeShellAccessibility.Node {
        var found: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: timeout, interval: 0.3) {
            found = try panelButtons().first { $0.name == "iCare" && $0.w < 40 }
            return found != nil
        }
        guard let found else { throw HarnessError("no iCare in Plasma \(root.release.plasma)'s tray: \(try panelButtons())") }
        return found
    }

    /// Waits (bounded) until iCare's State is `state` (read with gdbus inside, on the root's session bus).
    func state(becomes state: String, timeout: TimeInterval = 15) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.2) { try session.icareProperty("State") == "(<'\(state)'>,)" }
    }

    /// Waits (bounded) until exactly one popup shows and `match` accepts it.
    func popup(timeout: TimeInterval = 30, _ match: (GnomeShellAccessibility.Banner) -> Bool) throws -> GnomeShellAccessibility.Banner {
        let (found, seen) = try waitForOne(timeout: timeout, interval: 0.3, { try popups() }, match)
        guard let found else {
            throw HarnessError("Plasma \(root.release.plasma) shows \(seen); icared's state: \((try? session.icareProperty("State")) ?? "?")")
        }
        return found
    }

    /// With ICARE_SCREENSHOTS set and on Plasma 6.7 (forky, or any with `always`), a part of the screen goes to docs as `name`.png,
    /// in at most `colours` colours when given, undithered (a window's flat colours and text: a third of the bytes, and
    /// no speckles on its background).
    func docsScreenshot(_ name: String, x: Int, y: Int, w: Int, h: Int, always: Bool = false, colours: Int? = nil) throws {
        guard always || root.release == .forky, let dir = Screenshot.docsFolder else { return }
        _ = try pixels()
        let x0 = max(0, x), y0 = max(0, y)
        let crop = "\(min(w, Self.width - x0))x\(min(h, Self.height - y0))+\(x0)+\(y0)"
        try Screenshot.writeForDocs(name, in: dir, magick: ["convert", root.work.appendingPathComponent("screen.ppm").path, "-crop", crop, "+repage"]
                                        + (colours == nil ? [] : ["+dither"]), colours: colours)
    }
}

/// A row of an open menu: its label, place, and whether it takes a press and is ticked.
typealias MenuRow = PopupMenuRow

extension RootPlasma {
    /// Clicks the row labelled `label` of an open menu.
    func choose(_ label: String, in rows: [MenuRow]) throws {
        guard let row = rows.first(where: { $0.name == label }) else { throw HarnessError("no row \(label) in \(rows)") }
        try click(x: row.x + row.w / 2, y: row.y + row.h / 2)
    }
}

/// The tray's open menu, from the accessibility tree inside the root: `PopupMenuWatcher`, its python3
/// the root's own, run as the root's user on the session's accessibility bus.
final class RootMenuWatcher: @unchecked Sendable {
    private let watcher: PopupMenuWatcher

    init(_ plasma: RootPlasma) throws {
        watcher = try PopupMenuWatcher(launcher: plasma.root.asUser + ["/usr/bin/python3"],
                                       environment: plasma.root.inside(plasma.session.environment),
                                       folder: plasma.root.work, where: " in the \(plasma.root.release) root")
    }

    /// The rows of the menu showing now (empty when none shows).
    func rows() throws -> [MenuRow] { try watcher.rows() }

    /// Right-clicks `item` and waits (bounded) for its menu's rows.
    func open(_ item: GnomeShellAccessibility.Node, on plasma: RootPlasma) throws -> [MenuRow] {
        try plasma.click(item, button: 3)
        guard let rows = try watcher.waitForMenu() else {
            throw HarnessError("no menu opened on Plasma \(plasma.root.release.plasma) after a right click on \(item)")
        }
        return rows
    }

    func stop() { watcher.stop() }
}

extension RootPlasma {
    /// The root's icared (activated by the bus) stops, and starts again with a reminder `seconds` away:
    /// its state file says so (as PlasmaDesktop.restartDue writes it for Debian 12's Plasma).
    func restartDue(in seconds: Double = 1) throws {
        if try session.nameHasOwner("org.icare.Reminder") {
            let answer = try session.call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                          "org.freedesktop.DBus.GetConnectionUnixProcessID", ["org.icare.Reminder"])
            let pid = (answer.split(separator: " ").last ?? "").filter(\.isNumber)
            _ = try session.run(["kill", "-TERM", pid])
            guard try waitUntil(timeout: 10, interval: 0.1, { try !session.nameHasOwner("org.icare.Reminder") }) else {
                throw HarnessError("icared (\(pid)) did not end on SIGTERM")
            }
        }
        let dir = try root.folder("home/.local/state/icare", mode: "700")
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000), next = now + Int64(seconds * 1_000_000)
        let text = "icare-engine=1\nclock=\(now)\nphase=waiting\nstart=\(next - 1_200_000_000)\nnext=\(next)\npause=none\n"
        let file = dir.appendingPathComponent("state")
        try text.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.ownerAccountID: DesktopRoot.uid, .groupOwnerAccountID: DesktopRoot.uid,
                                               .posixPermissions: 0o600], ofItemAtPath: file.path)
        _ = try session.icareProperty("State")  // activates it again
    }

    /// A uint64 property of iCare's, as a number.
    func number(_ property: String) throws -> UInt64 {
        let answer = try session.icareProperty(property)  // (<uint64 1234>,)
        guard let n = UInt64((answer.split(separator: " ").last ?? "").filter(\.isNumber)) else {
            throw HarnessError("\(property) is \(answer)")
        }
        return n
    }
}

/// A notification popup's body as plasmashell shows it: Qt gives its text no name, only the Text
/// interface (read as the 5.27 suite reads it), and its place on the screen.
struct PopupBody: CustomStringConvertible {
    let summary: String, text: String
    let x: Int, y: Int, w: Int, h: Int
    var description: String { "\"\(summary)\": \"\(text)\" at \(x),\(y) \(w)x\(h)" }
}

extension RootPlasma {
    /// The showing popups' bodies (the first text node under each `notification`).
    func popupBodies() throws -> [PopupBody] {
        let r = try session.run(["/usr/bin/python3", "-c", Self.bodyScript], timeout: 30)
        guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] else {
            throw HarnessError("reading the popups' bodies failed: \(r)")
        }
        return rows.map { d in
            func int(_ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? -1 }
            return PopupBody(summary: d["summary"] as? String ?? "", text: d["text"] as? String ?? "",
                             x: int("x"), y: int("y"), w: int("w"), h: int("h"))
        }
    }

    static let bodyScript = #"""
    import json, sys
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi
    S, R = Atspi.StateType, Atspi.Role
    out = []
    def walk(a, depth, note):
        if a is None or depth > 40:
            return
        try:
            if depth > 1 and not a.get_state_set().contains(S.SHOWING):
                return
            role = a.get_role()
            if role == R.NOTIFICATION:
                note = {'summary': a.get_name(), 'done': False}
            elif role == R.TEXT and note is not None and not note['done']:
                e = a.get_extents(Atspi.CoordType.SCREEN)
                out.append({'summary': note['summary'], 'text': Atspi.Text.get_text(a, 0, Atspi.Text.get_character_count(a)),
                            'x': e.x, 'y': e.y, 'w': e.width, 'h': e.height})
                note['done'] = True
            for i in range(a.get_child_count()):
                walk(a.get_child_at_index(i), depth + 1, note)
        except Exception:
            pass
    d = Atspi.get_desktop(0)
    for i in range(d.get_child_count()):
        app = d.get_child_at_index(i)
        if app is not None and app.get_name() == 'plasmashell':
            walk(app, 0, None)
    json.dump(out, sys.stdout)
    """#
}
