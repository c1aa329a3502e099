import Testing
import Foundation
import TestSupport

/// The app opened from the real Plasma 6.3.6 and 6.7.4 on X11 (the package in the Debian roots) as a
/// person opens it: a click on the panel's Application Launcher (Kickoff) with a real pointer (xdotool's
/// XTEST on the root's Xvfb), "iCare" typed into its search, Return. Kickoff lists the installed entry
/// (its Name, GenericName and icon's pixels), starts its Exec line, and the window is the app's own:
/// KWin matches it to org.icare.Reminder.desktop, the task manager lists it with iCare's icon, and it shows
/// the state of the icared it activated. RootPlasma's session has startplasma-x11's XDG_MENU_PREFIX,
/// without which trixie's Kickoff lists no apps. Alt+F1 does nothing in this session: Plasma 6's
/// kglobalacceld, which startplasma starts, has no D-Bus activation file, so nothing grabs the key.
@Suite(.serialized) struct PlasmaLauncherInRootTests {
    static let typed = "iCare"

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theAppOpensFromKickoff(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let plasma = try RootPlasma(release)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        let desktop = "Plasma \(release.plasma)"
        let entry = try session.desktopEntry("org.icare.Reminder")
        let name = try #require(entry["Name"]), generic = try #require(entry["GenericName"])
        #expect(try session.nameHasOwner("org.icare.Reminder") == false, "icared runs before the app is opened")

        // The launcher's button clicked; the name typed into its search: the entry's Name and GenericName, and its icon.
        var launcher: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: 20, interval: 0.3) {
            launcher = try plasma.panelButtons().first { $0.name == "Application Launcher" }
            return launcher != nil
        }
        try plasma.click(try #require(launcher, "no Application Launcher in \(desktop)'s panel: \((try? plasma.panelButtons()) ?? [])"))
        var nodes: [GnomeShellAccessibility.Node] = []
        let opened = try waitUntil(timeout: 10, interval: 0.3) {
            nodes = try session.accessibility.nodes(of: "plasmashell")
            return nodes.contains { $0.role == "text" && $0.name == "Search" }
        }
        try #require(opened, "Kickoff did not open on \(desktop): \(nodes.filter { !$0.name.isEmpty })")
        // Opened, Kickoff gives its search field the keyboard on both releases: the name is typed straight away.
        let typed = try session.run(["xdotool", "type", "--delay", "60", Self.typed])
        try #require(typed.status == 0, "\(typed)")
        var result: (root: GnomeShellAccessibility.Node, below: [GnomeShellAccessibility.Node])?
        _ = try waitUntil(timeout: 10, interval: 0.3) {
            nodes = try session.accessibility.nodes(of: "plasmashell")
            result = GnomeShellAccessibility.subtrees(nodes) { $0.role == "list item" && $0.name == name }.first
            // The item can be in the tree a moment before its labels have their words (6.3.6: one label '').
            return result?.below.map(\.name) == [name, generic]
        }
        let item = try #require(result, "Kickoff on \(desktop) lists no '\(name)' for '\(Self.typed)': \(nodes.filter { !$0.name.isEmpty })")
        #expect(item.below.map(\.name) == [name, generic], "the result's words: \(item.below)")
        var teal = 0, pale = 0
        let drawn = try waitUntil(timeout: 5, interval: 0.3) {
            (teal, pale) = (try plasma.count(RootPlasma.iconTeal, in: item.root), try plasma.count(RootPlasma.iconPale, in: item.root))
            return teal > 30 && pale > 30
        }
        #expect(drawn, "the result at \(item.root) does not show the installed \(entry["Icon"] ?? "") icon: \(teal) teal, \(pale) pale pixels")

        // Return: Kickoff starts the entry's Exec line.
        let pressed = try session.run(["xdotool", "key", "Return"])
        try #require(pressed.status == 0, "\(pressed)")
        var ids: [String] = [], props = ""
        let shown = try waitUntil(timeout: 20, interval: 0.3) {
            ids = try session.run(["xdotool", "search", "--onlyvisible", "--classname", "icare"]).stdout.split(separator: "\n").map(String.init)
            guard ids.count == 1 else { return false }
            props = try session.run(["xprop", "-id", ids[0], "WM_CLASS", "_NET_WM_NAME", "_GTK_APPLICATION_ID", "_NET_WM_PID"]).stdout
            return props.contains("_NET_WM_NAME(UTF8_STRING) = \"\(name)\"")
        }
        try #require(shown, "no visible window of class icare titled \(name) after Return on \(desktop): \(ids) \(props)")
        #expect(props.contains("WM_CLASS(STRING) = \"icare\", \"icare\"") && entry["StartupWMClass"] == "icare", "\(props)")
        #expect(props.contains("_GTK_APPLICATION_ID(UTF8_STRING) = \"org.icare.Reminder\""), "\(props)")
        let pid = try #require(props.split(separator: "\n").first { $0.hasPrefix("_NET_WM_PID") }.flatMap { Int($0.split(separator: " ").last ?? "") })
        let process = try session.process(pid)
        #expect(process.executable == "/usr/bin/icare" && entry["Exec"] == "/usr/bin/icare", "the window's program: \(process)")
        #expect(process.parent == "plasmashell", "\(process)")

        // KWin matched the window to the installed entry; the task manager lists it with iCare's icon.
        let matched = try plasma.kwinDesktopFile(title: name)
        #expect(matched == "org.icare.Reminder", "KWin on \(desktop) matched the window to '\(matched)'")
        var task: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: 15, interval: 0.3) {
            task = try plasma.panelButtons().first { $0.name == name && $0.w >= 40 }
            return task != nil
        }
        let listed = try #require(task, "no \(name) in \(desktop)'s task manager: \((try? plasma.panelButtons()) ?? [])")
        #expect(try waitUntil(timeout: 10, interval: 0.3) { try plasma.count(RootPlasma.iconTeal, in: listed) > 30 },
                "the task manager's entry at \(listed) does not show iCare's icon")

        // The window shows icared's state, which the app's start activated.
        var labels: [GnomeShellAccessibility.Node] = []
        let home = try waitUntil(timeout: 15, interval: 0.3) {
            labels = try session.accessibility.nodes(of: "icare")
            return labels.contains { $0.name.hasPrefix("Next break at ") }
        }
        #expect(home, "the window shows no 'Next break at': \(labels.filter { !$0.name.isEmpty })")
        #expect(labels.contains { ["push button", "button"].contains($0.role) && $0.name == "Start break now" }, "\(labels.filter { !$0.name.isEmpty })")
        #expect(try session.nameHasOwner("org.icare.Reminder"), "the app did not activate icared")
        #expect(try session.icareProperty("State") == "(<'waiting'>,)")
        print("\(desktop): Kickoff listed \(item.root) (teal \(teal), pale \(pale)); window \(ids[0]) \(process); KWin's entry \(matched); "
              + "task manager \(listed); \(String(format: "%.1f s", Date().timeIntervalSince(began)))")
    }
}

extension RootPlasma {
    /// The desktop entry KWin matched the window titled `title` to (its `desktopFile`), found through
    /// KWin's own windows runner (`/WindowsRunner`, `org.kde.krunner1.Match`) and `getWindowInfo`.
    func kwinDesktopFile(title: String) throws -> String {
        let matches = try session.call("org.kde.KWin", "/WindowsRunner", "org.kde.krunner1.Match", [title])
        // ([('0_{uuid}', 'iCare', 'org.icare.Reminder', 100, 0.8, {...})],): the id's uuid, of the match named `title`.
        let strings = DesktopRootSession.strings(matches)
        guard let at = strings.firstIndex(of: title), at > 0, let brace = strings[at - 1].firstIndex(of: "{") else {
            throw HarnessError("KWin's windows runner has no window '\(title)': \(matches)")
        }
        let info = try session.call("org.kde.KWin", "/KWin", "org.kde.KWin.getWindowInfo", [String(strings[at - 1][brace...])])
        let words = DesktopRootSession.strings(info)
        guard let key = words.firstIndex(of: "desktopFile"), key + 1 < words.count else { throw HarnessError("getWindowInfo: \(info)") }
        return words[key + 1]
    }
}
