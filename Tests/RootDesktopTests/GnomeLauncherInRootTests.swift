import Testing
import Foundation
import TestSupport

/// The app opened from the real GNOME Shell 48.7 and 50.5 (the package in the Debian roots) as a person
/// opens it: Super through Mutter's RemoteDesktop (the path a keyboard takes), "icare" typed, Return. The
/// search finds the installed entry (its Name and its icon's pixels), the shell starts its Exec line, and
/// the window is the app's own, matched to org.icare.Reminder.desktop and showing icared's state (GNOME
/// Shell 43's test of the same: `GnomeShellTests.theInstalledAppOpensFromTheOverviewsSearch`).
@Suite(.serialized) struct GnomeLauncherInRootTests {
    static let superKey = 0xffeb, returnKey = 0xff0d
    /// What a person types (lower-case letters' keysyms are their ASCII codes).
    static let typed = "icare"
    /// The installed icon's teal arc and pupil ring, and its pale disc (org.icare.Reminder.svg).
    static let teal: [UInt8] = [0x2A, 0x9D, 0x7C], pale: [UInt8] = [0xE8, 0xF4, 0xF0]

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theAppOpensFromTheOverviewsSearch(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let rig = try GnomeClicksRig(release)
        defer { rig.stop() }
        let shellName = "GNOME Shell \(release.gnomeShell)"
        // What the package installed, as the shell reads it.
        let entry = try rig.session.desktopEntry("org.icare.Reminder")
        let name = try #require(entry["Name"]), icon = try #require(entry["Icon"])
        let known = try rig.eval("""
            (() => { const a = imports.gi.Shell.AppSystem.get_default().lookup_app('org.icare.Reminder.desktop');
              return a ? [a.get_name(), a.get_app_info().get_filename(), a.get_app_info().get_icon()?.to_string()].join('|') : ''; })()
            """)
        #expect(known == "\(name)|/usr/share/applications/org.icare.Reminder.desktop|\(icon)", "\(shellName) knows org.icare.Reminder.desktop as '\(known)'")
        #expect(try rig.session.nameHasOwner("org.icare.Reminder") == false, "icared runs before the app is opened")

        // Super: the overview opens; the name typed: the search shows the entry's Name.
        try rig.key(Self.superKey)
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try rig.eval("Main.overview.visible") == "true" },
                "Super did not open \(shellName)'s overview")
        for letter in Self.typed.unicodeScalars { try rig.key(Int(letter.value)) }
        var seen: [GnomeShellAccessibility.Node] = []
        var result: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: 10, interval: 0.3) {
            seen = try rig.session.accessibility.nodes()
            result = seen.first { $0.role == "label" && $0.name == name && $0.w > 0 && $0.y > 40 }
            return result != nil
        }
        let found = try #require(result, "\(shellName)'s search for '\(Self.typed)' shows no '\(name)': \(seen.filter { !$0.name.isEmpty })")
        // Its icon: the themed org.icare.Reminder in the same result as that label, drawn with the installed SVG's colours.
        let boxes = try rig.resultIcon(icon, label: name)
        try #require(boxes.count == 8, "no \(icon) icon beside a '\(name)' label in \(shellName)'s overview: \(boxes)")
        let box = Array(boxes[0..<4]), label = Array(boxes[4..<8])
        #expect(abs(label[0] - found.x) <= 2 && abs(label[1] - found.y) <= 2, "the result's label is at \(label), AT-SPI reads \(found)")
        let shot = try rig.screenshot()
        rig.keepShot("launcher-search")
        let xs = box[0]..<(box[0] + box[2]), ys = box[1]..<(box[1] + box[3])
        let (teal, pale) = (shot.points(of: Self.teal, xs: xs, ys: ys).count, shot.points(of: Self.pale, xs: xs, ys: ys).count)
        #expect(teal > box[2] * box[3] / 20 && pale > box[2] * box[3] / 20,
                "the result's icon at \(box) is not the installed \(icon).svg: \(teal) teal and \(pale) pale pixels")

        // Return: the shell starts the entry's Exec line; the window is the app's, matched to its entry.
        try rig.key(Self.returnKey)
        var windows = ""
        let shown = try waitUntil(timeout: 20, interval: 0.3) {
            windows = try rig.windowList()
            return windows.contains("org.icare.Reminder|")
        }
        try #require(shown, "no window of org.icare.Reminder after Return in \(shellName)'s search: \(windows)\n\(rig.shell.shellLog.suffix(2000))")
        let window = try #require(windows.split(separator: ";").first { $0.hasPrefix("org.icare.Reminder|") }).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        try #require(window.count == 5, "\(windows)")  // gtk application id, title, GNOME's app for it, focused, pid
        #expect(window[1] == name, "the window's title: \(window)")
        #expect(window[2] == "org.icare.Reminder.desktop", "\(shellName) matched the window to \(window[2]), not the installed entry")
        // The new window takes the focus (GNOME's focused app is the entry's), as a launch a person asked for does.
        var focused = ""
        #expect(try waitUntil(timeout: 5, interval: 0.1) { focused = try rig.shell.focusedApp(); return focused == "org.icare.Reminder.desktop" },
                "\(shellName)'s focused app is '\(focused)', not iCare: \((try? rig.windowList()) ?? "")")
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try rig.eval("Main.overview.visible") == "false" }, "the overview stayed open")
        let process = try rig.session.process(try #require(Int(window[4])))
        #expect(process.executable == "/usr/bin/icare" && entry["Exec"] == "/usr/bin/icare", "the window's program: \(process); Exec=\(entry["Exec"] ?? "")")
        #expect(process.parent == "gnome-shell", "\(process)")
        #expect(process.environment["GIO_LAUNCHED_DESKTOP_FILE"] == "/usr/share/applications/org.icare.Reminder.desktop", "\(process)")

        // The window shows icared's state, which the app's start activated.
        var labels: [GnomeShellAccessibility.Node] = []
        let home = try waitUntil(timeout: 15, interval: 0.3) {
            labels = try rig.session.accessibility.nodes(of: "icare")
            return labels.contains { $0.name.hasPrefix("Next break at ") }
        }
        #expect(home, "the window shows no 'Next break at': \(labels.filter { !$0.name.isEmpty })")
        #expect(labels.contains { ["push button", "button"].contains($0.role) && $0.name == "Start break now" }, "\(labels.filter { !$0.name.isEmpty })")
        #expect(try rig.session.nameHasOwner("org.icare.Reminder"), "the app did not activate icared")
        #expect(try rig.session.icareProperty("State") == "(<'waiting'>,)")
        _ = try rig.screenshot()
        rig.keepShot("launcher-app")
        print("\(shellName): '\(Self.typed)' found \(found) with its icon at \(box) (teal \(teal), pale \(pale)); window \(window); "
              + "\(process); \(Int(Date().timeIntervalSince(began))) s")
    }
}

extension GnomeClicksRig {
    /// The boxes (x, y, w, h) of the mapped St.Icon drawing the themed `icon` in the overview, and of the
    /// label `label` in the same search result (the icon's nearest ancestor holding both); empty when none.
    func resultIcon(_ icon: String, label: String) throws -> [Int] {
        let text = try eval("""
            (() => { const St = imports.gi.St, box = a => [...a.get_transformed_position(), ...a.get_transformed_size()].map(Math.round);
              const all = (a, f, out = []) => { if (f(a)) out.push(a); a.get_children().forEach(c => all(c, f, out)); return out; };
              for (const i of all(Main.layoutManager.overviewGroup, a => a instanceof St.Icon && a.is_mapped() && String(a.gicon?.to_string?.()) === \(GnomeClicksInRootTests.js(icon)))) {
                for (let p = i.get_parent(), n = 0; p && n < 6; p = p.get_parent(), n++) {
                  const [l] = all(p, a => a instanceof St.Label && a.is_mapped() && a.text === \(GnomeClicksInRootTests.js(label)));
                  if (l) return [...box(i), ...box(l)].join(' '); } }
              return ''; })()
            """)
        return text.split(separator: " ").compactMap { Int($0) }
    }

    /// `Eval`'s value without JSON's quotes.
    func eval(_ code: String) throws -> String {
        try shell.eval(code).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// The windows, `;`-separated, each `|`-separated: gtk application id (or WM class), title, the app GNOME matched it to, focused, pid.
    func windowList() throws -> String {
        try eval("""
            global.get_window_actors().map(a => { const w = a.meta_window, app = imports.gi.Shell.WindowTracker.get_default().get_window_app(w);
              return [w.get_gtk_application_id() ?? w.get_wm_class(), w.get_title(), app?.get_id(), w.has_focus(), w.get_pid()].join('|'); }).join(';')
            """)
    }
}
