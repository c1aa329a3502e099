import Foundation

/// What GNOME Shell shows, read from its accessibility tree (AT-SPI, with
/// `toolkit-accessibility` on before the shell starts) by a python3 client
/// (gir1.2-atspi-2.0): every showing node with its role, name, place and
/// state. St's buttons have no actions, so tests find things here and click
/// them with the pointer (`GnomeShellHand`).
public struct GnomeShellAccessibility: Sendable {
    public struct Node: Sendable, CustomStringConvertible {
        public let depth: Int, role: String, name: String, x: Int, y: Int, w: Int, h: Int
        public let sensitive: Bool, checked: Bool
        public var centre: (x: Int, y: Int) { (x + w / 2, y + h / 2) }
        public var description: String { "\(role) '\(name)' \(x),\(y) \(w)x\(h)\(sensitive ? "" : " insensitive")\(checked ? " checked" : "")" }
    }

    /// A notification banner (or the message list's entry): its texts and its named buttons.
    public struct Banner: Sendable, CustomStringConvertible {
        public let box: Node
        public let labels: [Node], buttons: [Node]
        public var texts: [String] { labels.map(\.name) }
        public var named: [String] { buttons.map(\.name).filter { !$0.isEmpty } }
        public func button(_ name: String) -> Node? { buttons.first { $0.name == name } }
        public var description: String { "banner \(texts) buttons \(named) at \(box.x),\(box.y) \(box.w)x\(box.h)" }
    }

    let environment: [String: String]
    /// What the python3 reader runs under (e.g. a desktop root's `exec PID --user --`); empty: the host's python3.
    let launcher: [String]

    public init(environment: [String: String], launcher: [String] = []) {
        self.environment = environment
        self.launcher = launcher
    }

    /// Every showing node of the shell (or of another program on the session's
    /// accessibility bus, by its AT-SPI name: `icare` for the app), in tree
    /// order. GTK 4.8 marks its widgets visible but never showing, so for
    /// another program the visible ones count. The app's places are within
    /// its window (GTK 4 says 0,0 for a place on the screen).
    public func nodes(of program: String = "gnome-shell") throws -> [Node] {
        let state = program == "gnome-shell" ? "SHOWING" : "VISIBLE"
        let r = try Subprocess.run(launcher + ["/usr/bin/python3", "-c", Self.script, program, state], environment: environment, timeout: 30)
        guard r.status == 0, let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] else {
            throw HarnessError("reading the accessibility tree failed: \(r)")
        }
        func int(_ d: [String: Any], _ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? -1 }
        return rows.map {
            Node(depth: int($0, "d"), role: $0["role"] as? String ?? "", name: $0["name"] as? String ?? "",
                 x: int($0, "x"), y: int($0, "y"), w: int($0, "w"), h: int($0, "h"),
                 sensitive: ($0["sensitive"] as? Bool) ?? false, checked: ($0["checked"] as? Bool) ?? false)
        }
    }

    /// The names of the programs on the session's accessibility bus.
    public func programs() throws -> [String] {
        let script = "import gi\ngi.require_version('Atspi', '2.0')\nfrom gi.repository import Atspi\n"
            + "d = Atspi.get_desktop(0)\nprint('\\n'.join((d.get_child_at_index(i).get_name() or '') for i in range(d.get_child_count())))\n"
        let r = try Subprocess.run(launcher + ["/usr/bin/python3", "-c", script], environment: environment, timeout: 30)
        guard r.status == 0 else { throw HarnessError("listing the accessibility bus's programs failed: \(r)") }
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// The nodes below each node that `isRoot` picks (until the tree climbs back to its depth).
    public static func subtrees(_ nodes: [Node], _ isRoot: (Node) -> Bool) -> [(root: Node, below: [Node])] {
        var found: [(root: Node, below: [Node])] = []
        var i = 0
        while i < nodes.count {
            guard isRoot(nodes[i]) else { i += 1; continue }
            let root = nodes[i]
            var j = i + 1
            while j < nodes.count && nodes[j].depth > root.depth { j += 1 }
            found.append((root, Array(nodes[(i + 1)..<j])))
            i = j
        }
        return found
    }

    /// The notifications showing now.
    public func banners() throws -> [Banner] {
        Self.subtrees(try nodes()) { $0.role == "notification" }.map { root, below in
            Banner(box: root, labels: below.filter { $0.role == "label" && !$0.name.isEmpty },
                   buttons: below.filter { $0.role == "push button" })
        }
    }

    static let script = #"""
import json, sys
import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi

out = []
# GTK 4 knows no place on the screen (on Wayland nothing does): its elements are placed within their window.
coords = Atspi.CoordType.WINDOW if sys.argv[1] == 'icare' else Atspi.CoordType.SCREEN
def visit(a, depth):
    try:
        if a is None:
            return
        states = a.get_state_set()
        if depth > 1 and not states.contains(getattr(Atspi.StateType, sys.argv[2])):
            return
        try:
            e = a.get_extents(coords)
            place = (e.x, e.y, e.width, e.height)
        except Exception:
            place = (-1, -1, -1, -1)  # no Component: an application's root
        out.append({'d': depth, 'role': a.get_role_name(), 'name': a.get_name() or '',
                    'x': place[0], 'y': place[1], 'w': place[2], 'h': place[3],
                    'sensitive': states.contains(Atspi.StateType.SENSITIVE),
                    'checked': states.contains(Atspi.StateType.CHECKED)})
        for i in range(a.get_child_count()):
            visit(a.get_child_at_index(i), depth + 1)
    except Exception:
        pass  # a node that went while the tree was read: the caller reads again

desktop = Atspi.get_desktop(0)
for i in range(desktop.get_child_count()):
    app = desktop.get_child_at_index(i)
    if app is not None and app.get_name() == sys.argv[1]:
        visit(app, 0)
json.dump(out, sys.stdout)
"""#
}
