import Foundation
import TestSupport

/// swaync 0.7.3's `swaync-client` counts notifications (`-c`) but neither lists
/// them nor invokes their actions, so the words and buttons are read from the
/// accessibility tree (swaync is GTK; the tree is its user's, hence the reader
/// runs as sway's user), and a button is pressed through its accessible
/// `click` action, as a screen reader or switch access presses it: the same
/// GtkButton `clicked` a pointer gives (verified on 0.7.3: Start sends
/// ActionInvoked "start", the body sends "default").
extension WaylandServerRig {
    /// `swaync-client --count`: the notifications swaync holds (on screen or in its panel).
    func swayncCount() throws -> Int {
        let r = try ctl(["swaync-client", "--count"])
        guard let n = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw HarnessError("swaync-client --count: \(r)") }
        return n
    }

    private func script(_ name: String, _ text: String) throws -> String {
        let path = sway.directory.appendingPathComponent(name).path
        if !FileManager.default.fileExists(atPath: path) {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o644)
        }
        return path
    }

    /// The bubbles showing now (on swaync: the body is a button named with the summary).
    func swayncBubbles() throws -> [Bubble] {
        let path = try script("atspi-bubbles.py", RealServerRig.atspiScript)
        return try RealServerRig.parseBubbles(try Subprocess.run(try asSwaysUser(["/usr/bin/python3", path]), environment: environment, timeout: 20))
    }

    var swayncShown: String { (try? swayncBubbles()).map { "\($0)" } ?? "(unreadable)" }

    /// Waits (bounded) for exactly one bubble that satisfies `match`.
    func swayncBubble(timeout: TimeInterval = 10, _ match: (Bubble) -> Bool) throws -> Bubble {
        var seen: [Bubble] = []
        let found = try waitUntil(timeout: timeout, interval: 0.2) {
            seen = try swayncBubbles()
            return seen.count == 1 && match(seen[0])
        }
        guard found else { throw HarnessError("swaync shows: \(seen)\nicared:\n\(service.log)\nswaync:\n\(serverLog)") }
        return seen[0]
    }

    /// Presses the showing button named `name` (its accessible `click`).
    func swayncPress(_ name: String) throws {
        let path = try script("atspi-press.py", Self.pressScript)
        let r = try Subprocess.run(try asSwaysUser(["/usr/bin/python3", "-W", "ignore", path, name]), environment: environment, timeout: 20)
        guard r.status == 0 else { throw HarnessError("pressing \(name) failed: \(r)\non screen: \(swayncShown)") }
    }

    static let pressScript = #"""
    import sys
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi

    def find(a, name):
        if a is None:
            return None
        if a.get_role() == Atspi.Role.PUSH_BUTTON and a.get_name() == name and a.get_state_set().contains(Atspi.StateType.SHOWING):
            return a
        for i in range(a.get_child_count()):
            found = find(a.get_child_at_index(i), name)
            if found is not None:
                return found
        return None

    button = find(Atspi.get_desktop(0), sys.argv[1])
    if button is None:
        sys.exit('no button ' + sys.argv[1])
    action = button.get_action_iface()
    names = [action.get_action_name(i) for i in range(action.get_n_actions())]
    if 'click' not in names:
        sys.exit('no click on ' + sys.argv[1] + ': ' + str(names))
    action.do_action(names.index('click'))
    """#
}
