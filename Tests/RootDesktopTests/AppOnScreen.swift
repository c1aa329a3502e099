import Foundation
import TestSupport

/// The app's windows as a person meets them on a root's desktop: their elements read from the session's
/// accessibility bus (`icare`), placed on the screen by where the compositor says the window's surface is
/// (GTK 4 gives each element's place within its window's surface, on Wayland it knows no more), and
/// pressed with the desktop's own pointer (Mutter's RemoteDesktop on GNOME, XTEST through Xwayland on Plasma).
struct AppOnScreen {
    typealias Node = GnomeShellAccessibility.Node
    struct Rect { let x: Int, y: Int, w: Int, h: Int }
    /// The surface (shadows included) and the frame (the window itself) of a window, as the compositor has them.
    struct Placed {
        let surface: Rect, frame: Rect
        /// From eight numbers: the surface's x, y, width, height, then the frame's.
        init?(_ n: [Int]) {
            guard n.count == 8 else { return nil }
            surface = Rect(x: n[0], y: n[1], w: n[2], h: n[3])
            frame = Rect(x: n[4], y: n[5], w: n[6], h: n[7])
        }
    }
    let accessibility: GnomeShellAccessibility
    /// Where the window titled so is, or nil.
    let place: (String) throws -> Placed?
    let click: (Int, Int) throws -> Void

    /// The elements of the window titled `title` (its own node first) that are inside it: a carousel lays
    /// its other pages beside the one shown, outside the window.
    func window(_ title: String) throws -> [Node] {
        let nodes = try accessibility.nodes(of: "icare")
        guard let (root, below) = GnomeShellAccessibility.subtrees(nodes, { $0.role == "frame" && $0.name == title }).first else { return [] }
        return [root] + below.filter { $0.w > 0 && $0.x >= root.x && $0.x < root.x + root.w }
    }

    /// Waits (bounded) until the window titled `title` shows an element named `name` (of `role` when given).
    @discardableResult
    func waitFor(_ name: String, role: String? = nil, in title: String, timeout: TimeInterval = 30) throws -> Node {
        try waitFor("\(role ?? "element") '\(name)'", in: title, timeout: timeout) { $0.name == name && (role == nil || $0.role == role) }
    }

    /// Waits (bounded) until the window titled `title` shows an element that `match` takes; `what` names it for the failure.
    private func waitFor(_ what: String, in title: String, timeout: TimeInterval, _ match: (Node) -> Bool) throws -> Node {
        var seen: [Node] = []
        var found: Node?
        _ = try waitUntil(timeout: timeout, interval: 0.3) {
            seen = try window(title)
            found = seen.first(where: match)
            return found != nil
        }
        guard let found else { throw HarnessError("no \(what) in the window '\(title)'; it shows \(seen)") }
        return found
    }

    /// The point of the screen at the middle of `node` of the window titled `title`. GTK places elements
    /// within the window's frame (GTK 4.18) or its whole surface: the one of the window node's size.
    func centre(of node: Node, in title: String) throws -> (x: Int, y: Int) {
        guard let root = try window(title).first, let placed = try place(title) else { throw HarnessError("the compositor has no window '\(title)'") }
        let origin = [placed.frame, placed.surface].first { $0.w == root.w && $0.h == root.h }
        guard let origin else {
            throw HarnessError("the window '\(title)' is \(root.w)x\(root.h) to its accessibility, the compositor has \(placed)")
        }
        return (origin.x + node.x - root.x + node.w / 2, origin.y + node.y - root.y + node.h / 2)
    }

    /// Presses the control named `name` (a button of any role, not its label) of the window titled `title`
    /// with the pointer, once it shows.
    func press(_ name: String, in title: String) throws {
        let node = try waitFor("control '\(name)'", in: title, timeout: 30) {
            $0.name == name && !["label", "text", "frame", "panel", "filler"].contains($0.role)
        }
        let point = try centre(of: node, in: title)
        try click(point.x, point.y)
    }

    /// The welcome from its first page to Done, page by page with the pointer on Next, as a person goes
    /// through it; `picture(name)` is called on its first page and on its last. Returns the pages' titles.
    func goThroughTheWelcome(picture: (String) throws -> Void) throws -> [String] {
        let welcome = "Welcome to iCare"
        try waitFor("Every 20 minutes, look at something 20 feet (6 m) away for 20 seconds. Practised through the day, it relieves eye strain.",
                    role: "label", in: welcome, timeout: 60)
        try picture("welcome")
        var titles = [welcome]
        for title in ["Your breaks", "The ring", "Starting at login", "What iCare can see here"] {
            try press("Next", in: welcome)
            try waitFor(title, role: "label", in: welcome)
            titles.append(title)
        }
        try picture("welcome-desktop")
        try press("Done", in: welcome)
        guard try waitUntil(timeout: 15, interval: 0.3, { try window(welcome).isEmpty }) else {
            throw HarnessError("Done did not close the welcome: \(try window(welcome))")
        }
        return titles
    }

    /// The main window's Preferences, then the page "This desktop", with the pointer; the page's elements.
    func openThisDesktop() throws -> [Node] {
        try press("Preferences", in: "iCare")
        try waitFor("Break every", in: "Preferences")
        try press("This desktop", in: "Preferences")
        try waitFor("What iCare can see here", role: "label", in: "Preferences")
        return try window("Preferences")
    }

    /// The window's frame, a few pixels wider, as a crop of a screenshot for the docs (`WxH+X+Y`).
    func crop(_ title: String, margin: Int = 8, width: Int, height: Int) throws -> String {
        guard let frame = try place(title)?.frame else { throw HarnessError("the compositor has no window '\(title)'") }
        let x = max(0, frame.x - margin), y = max(0, frame.y - margin)
        return "\(min(frame.w + 2 * margin, width - x))x\(min(frame.h + 2 * margin, height - y))+\(x)+\(y)"
    }
}

extension GnomeClicksRig {
    /// The app as GNOME Shell shows it: places from Mutter (`get_buffer_rect`, `get_frame_rect`), clicks from
    /// Mutter's RemoteDesktop pointer.
    var app: AppOnScreen {
        AppOnScreen(accessibility: session.accessibility, place: { (title: String) throws -> AppOnScreen.Placed? in
            let text = try self.shell.eval("""
                global.get_window_actors().map(a => a.meta_window).filter(w => w.get_title() === '\(title)')
                  .map(w => { const b = w.get_buffer_rect(), f = w.get_frame_rect();
                              return [b.x, b.y, b.width, b.height, f.x, f.y, f.width, f.height].join(' '); })[0] ?? ''
                """)
            let numbers: [Int] = text.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: " ").compactMap { Int($0) }
            return AppOnScreen.Placed(numbers)
        }, click: { (x: Int, y: Int) throws in try self.click(x: x, y: y) })
    }
}

extension RootPlasma {
    /// The app as Plasma shows it: places from KWin (a script's `bufferGeometry` and `frameGeometry`,
    /// printed to kwin.log), clicks from xdotool's XTEST, which KWin takes through Xwayland.
    var app: AppOnScreen {
        AppOnScreen(accessibility: session.accessibility, place: { (title: String) throws in try self.windowPlace(title) },
                    click: { (x: Int, y: Int) throws in try self.click(x: x, y: y, button: 1) })
    }

    /// The window captioned `title`: its surface and its frame, as KWin has them (nil when it has none).
    func windowPlace(_ title: String) throws -> AppOnScreen.Placed? {
        let mark = "icare-test: place \(UUID().uuidString.prefix(8))"
        let script = """
            for (const w of workspace.windowList()) {
                if (String(w.caption) === "\(title)") {
                    const b = w.bufferGeometry, f = w.frameGeometry;
                    print("\(mark) " + [b.x, b.y, b.width, b.height, f.x, f.y, f.width, f.height].map(Math.round).join(" "));
                }
            }
            """
        let file = root.work.appendingPathComponent("place.js")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let answer = try session.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.loadScript", [file.path, String(mark)])
        _ = try session.call("org.kde.KWin", "/Scripting/Script\(answer.filter(\.isNumber))", "org.kde.kwin.Script.run")
        defer { _ = try? session.call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.unloadScript", [String(mark)]) }
        var line: Substring?
        _ = waitUntil(timeout: 5, interval: 0.1) {
            line = session.log("kwin.log").split(separator: "\n").last { $0.contains(mark) }
            return line != nil
        }
        guard let line, let tail = line.components(separatedBy: mark).last else { return nil }
        return AppOnScreen.Placed(tail.split(separator: " ").compactMap { Int($0) })
    }
}
