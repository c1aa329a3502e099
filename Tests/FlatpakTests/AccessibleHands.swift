import Foundation
import TestSupport

/// The sandboxed app's window as a screen reader and a person meet it: an accessibility bus on the rig's
/// session bus (at-spi-bus-launcher; flatpak gives the sandbox its own proxy of that bus), the app's
/// elements read from it (python3 with gir1.2-atspi-2.0), and a real pointer click (xdotool on Xvfb) at
/// the middle of the element's place in its window.
final class AccessibleHands: @unchecked Sendable {
    struct Element: CustomStringConvertible {
        let window: String, role: String, name: String
        let x: Int, y: Int, w: Int, h: Int
        var description: String { "\(role) '\(name)'" }
    }

    let rig: FlatpakRig
    let display: String
    private var launcher: Process?
    private let script: String

    init(_ rig: FlatpakRig, display: String) throws {
        self.rig = rig
        self.display = display
        script = rig.home.appendingPathComponent("atspi-hands.py").path
        try Self.source.write(toFile: script, atomically: true, encoding: .utf8)
        launcher = try Subprocess.start(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"], environment: rig.environment)
        guard waitUntil(timeout: 10, interval: 0.05, { (try? rig.nameHasOwner("org.a11y.Bus")) == true }) else {
            stop()
            throw HarnessError("at-spi-bus-launcher did not take org.a11y.Bus")
        }
        // Reading the desktop starts the registry, before the app starts (GTK registers with it then).
        let r = try python(["count"])
        guard r.status == 0 else { stop(); throw HarnessError("the accessibility registry did not answer: \(r)") }
    }

    private func python(_ args: [String]) throws -> ProcessResult {
        try Subprocess.run(["/usr/bin/python3", script] + args, environment: rig.environment.merging(["DISPLAY": display]) { $1 }, timeout: 60)
    }

    /// Every showing element of the app's windows, with its place in its window.
    func elements() throws -> [Element] {
        let r = try python(["tree"])
        guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] else {
            throw HarnessError("reading the accessibility tree failed: \(r)")
        }
        return rows.map { e in
            func int(_ k: String) -> Int { (e[k] as? NSNumber)?.intValue ?? -1 }
            return Element(window: e["window"] as? String ?? "", role: e["role"] as? String ?? "", name: e["name"] as? String ?? "",
                           x: int("x"), y: int("y"), w: int("w"), h: int("h"))
        }
    }

    /// Waits until the window named `window` shows an element named `name` (of `role`, when given) inside its frame.
    @discardableResult
    func waitFor(_ name: String, role: String? = nil, in window: String, timeout: TimeInterval = 20) throws -> Element {
        var seen: [Element] = []
        var found: Element?
        _ = try waitUntil(timeout: timeout, interval: 0.2) {
            seen = try elements().filter { $0.window == window }
            let frame = seen.first { $0.role == "frame" }
            found = seen.first { e in
                e.name == name && (role == nil || e.role == role) && e.w > 0 && e.x >= 0 && e.x < (frame?.w ?? Int.max)
            }
            return found != nil
        }
        guard let found else { throw HarnessError("no '\(name)' in '\(window)'; it shows \(seen)") }
        return found
    }

    /// A pointer click at the middle of `element`, in its X window.
    func click(_ element: Element) throws {
        let ids = try Subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^\(element.window)$"], environment: ["DISPLAY": display])
        guard let id = ids.stdout.split(separator: "\n").first else { throw HarnessError("no X window named \(element.window): \(ids)") }
        let r = try Subprocess.run(["xdotool", "mousemove", "--window", String(id), "\(element.x + element.w / 2)", "\(element.y + element.h / 2)",
                                    "click", "1"], environment: ["DISPLAY": display])
        guard r.status == 0 else { throw HarnessError("xdotool click failed: \(r)") }
    }

    func stop() {
        if let launcher { Subprocess.killGroup(launcher) }
        launcher = nil
    }

    static let source = #"""
    import json, sys
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi

    desktop = Atspi.get_desktop(0)

    def walk(a, window, out):
        try:
            if a is None or not a.get_state_set().contains(Atspi.StateType.VISIBLE):
                return
            try:
                e = a.get_extents(Atspi.CoordType.WINDOW)
                out.append({'window': window, 'role': a.get_role_name(), 'name': a.get_name() or '',
                            'x': e.x, 'y': e.y, 'w': e.width, 'h': e.height})
            except Exception:
                pass
            for i in range(a.get_child_count()):
                walk(a.get_child_at_index(i), window, out)
        except Exception:
            pass

    if sys.argv[1] == 'count':
        print(desktop.get_child_count())
    else:
        out = []
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and app.get_name() == 'icare':
                for j in range(app.get_child_count()):
                    w = app.get_child_at_index(j)
                    walk(w, w.get_name() or '', out)
        json.dump(out, sys.stdout)
    """#
}
