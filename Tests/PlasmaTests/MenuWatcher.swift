import Foundation
import TestSupport

/// Reads the tray's open menu from the accessibility tree. Qt 5 leaves
/// popup windows (a QMenu: libdbusmenuqt's menu of an item) out of an
/// application's children, so the menu is not found by walking the tree; but
/// Qt announces it (`object:state-changed:showing` from a `popup menu`) to
/// whoever listens. A small python3 AT-SPI client listens from before the
/// click, keeps the last menu shown, and on each `read` line prints its rows
/// as one JSON line: label, enabled, place (separators left out).
final class MenuWatcher: @unchecked Sendable {
    private let process: Process
    private let input = Pipe(), output = Pipe()
    private let file: URL

    init(environment: [String: String], folder: URL) throws {
        file = folder.appendingPathComponent("menu-watcher.py")
        try Self.script.write(to: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = [file.path]
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try Subprocess.launch(p)
        process = p
        guard Subprocess.firstLine(of: output, timeout: 10) == "ready" else {
            Subprocess.kill9(p)
            throw HarnessError("the accessibility listener did not start")
        }
        // Qt learns of a new listener from the registry's signal: give it that moment.
        Thread.sleep(forTimeInterval: 1)
    }

    /// The rows of the menu showing now (empty when none shows).
    func rows() throws -> [Control] {
        guard process.isRunning else { throw HarnessError("the accessibility listener ended") }
        input.fileHandleForWriting.write(Data("read\n".utf8))
        guard let line = Subprocess.firstLine(of: output, timeout: 10),
              let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]] else {
            throw HarnessError("the accessibility listener gave no answer")
        }
        return json.map { d in
            func int(_ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? -1 }
            return Control(name: d["name"] as? String ?? "", x: int("x"), y: int("y"), w: int("w"), h: int("h"),
                           enabled: (d["enabled"] as? Bool) ?? false)
        }
    }

    func stop() {
        Subprocess.kill9(process)
        try? FileManager.default.removeItem(at: file)
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
                    out.append({'name': a.get_name(), 'enabled': a.get_state_set().contains(S.ENABLED),
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
