import Foundation

/// A row of an open popup menu as AT-SPI reads it: its label, its place (screen pixels), whether it
/// takes a press (ENABLED) and whether it is ticked (CHECKED).
public struct PopupMenuRow: CustomStringConvertible {
    public let name: String
    public let x: Int, y: Int, w: Int, h: Int
    public let enabled: Bool, checked: Bool
    public var centre: (x: Int, y: Int) { (x + w / 2, y + h / 2) }
    public var description: String { "\(name)\(enabled ? "" : " (disabled)")" }
}

/// Reads a Qt application's open popup menu from the accessibility tree. Qt 5 and Qt 6 leave a popup
/// (libdbusmenuqt's QMenu: Plasma's menu of a tray item) out of the application's children, so it is
/// not found by walking the tree; but Qt announces it (`object:state-changed:showing` from a
/// `popup menu`) to whoever listens. A small python3 AT-SPI client listens from before the click,
/// keeps the last menu shown, and on each `read` line prints its rows as one JSON line (separators
/// left out). Used by the Plasma 5.27 suite on this machine and by the Plasma 6 suites in the roots.
public final class PopupMenuWatcher: @unchecked Sendable {
    private let process: Process
    private let input = Pipe(), output = Pipe()

    /// `launcher`: what runs python3 (`["/usr/bin/python3"]` here; the root's user launcher and its
    /// python3 inside a root); `folder`: where the script is written, readable by whoever runs it.
    public init(launcher: [String], environment: [String: String], folder: URL, where place: String = "") throws {
        let file = folder.appendingPathComponent("menu-watcher.py")
        try Self.script.write(to: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: launcher[0])
        p.arguments = Array(launcher.dropFirst()) + [file.path]
        p.environment = environment
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try Subprocess.launch(p)
        process = p
        guard Subprocess.firstLine(of: output, timeout: 20) == "ready" else {
            Subprocess.kill9(p)
            throw HarnessError("the accessibility listener did not start\(place)")
        }
        // Qt learns of a new listener from the registry's signal: give it that moment.
        Thread.sleep(forTimeInterval: 1)
    }

    /// The rows of the menu showing now (empty when none shows).
    public func rows() throws -> [PopupMenuRow] {
        guard process.isRunning else { throw HarnessError("the accessibility listener ended") }
        input.fileHandleForWriting.write(Data("read\n".utf8))
        guard let line = Subprocess.firstLine(of: output, timeout: 10),
              let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]] else {
            throw HarnessError("the accessibility listener gave no answer")
        }
        return json.map { d in
            func int(_ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? -1 }
            return PopupMenuRow(name: d["name"] as? String ?? "", x: int("x"), y: int("y"), w: int("w"), h: int("h"),
                                enabled: (d["enabled"] as? Bool) ?? false, checked: (d["checked"] as? Bool) ?? false)
        }
    }

    /// Waits (bounded) for a menu to show, after the click that opens it; its rows, or nil when none showed.
    public func waitForMenu(timeout: TimeInterval = 10) throws -> [PopupMenuRow]? {
        var rows: [PopupMenuRow] = []
        guard try waitUntil(timeout: timeout, interval: 0.2, {
            rows = try self.rows()
            return !rows.isEmpty
        }) else { return nil }
        return rows
    }

    /// Ends the listener: it quits when its input closes. Not SIGKILL first: inside a root that would
    /// end only the launcher outside, and python3, holding the output pipe, would keep Foundation waiting.
    public func stop() {
        try? input.fileHandleForWriting.close()
        if !waitUntil(timeout: 5, interval: 0.05, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }

    static let script = #"""
    import json, sys
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi, GLib
    S, R = Atspi.StateType, Atspi.Role
    ROWS = (R.MENU_ITEM, R.CHECK_MENU_ITEM, R.RADIO_MENU_ITEM, R.MENU)
    menus = []

    def on_event(event):
        try:
            if event.source.get_role() == R.POPUP_MENU and event.detail1 == 1:
                menus.append(event.source)
        except Exception:
            pass

    def rows():
        for menu in reversed(menus):
            try:
                # libatspi keeps names and states it has read, and Qt does not announce every change of a
                # row: each read asks the application again, for the menu and for each row.
                menu.clear_cache()
                if not menu.get_state_set().contains(S.SHOWING):
                    continue
                out = []
                for i in range(menu.get_child_count()):
                    a = menu.get_child_at_index(i)
                    if a is None:
                        continue
                    a.clear_cache()
                    if a.get_role() not in ROWS:
                        continue
                    e = a.get_extents(Atspi.CoordType.SCREEN)
                    st = a.get_state_set()
                    out.append({'name': a.get_name(), 'enabled': st.contains(S.ENABLED), 'checked': st.contains(S.CHECKED),
                                'x': e.x, 'y': e.y, 'w': e.width, 'h': e.height})
                return out
            except Exception:
                continue
        return []

    def on_input(channel, condition):
        line = sys.stdin.readline()
        if not line:
            Atspi.event_quit()
            return False
        print(json.dumps(rows()), flush=True)
        return True

    listener = Atspi.EventListener.new(on_event)
    listener.register('object:state-changed:showing')
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN, on_input)
    print('ready', flush=True)
    Atspi.event_main()
    """#
}
