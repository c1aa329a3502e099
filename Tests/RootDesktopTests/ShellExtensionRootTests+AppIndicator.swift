import Testing
import Foundation
import TestSupport

/// With the AppIndicator extension enabled too: one iCare ring in the top
/// bar. icared's own status item is withdrawn while the extension owns
/// org.icare.Reminder.ShellRing and comes back (drawn by the AppIndicator extension)
/// when the extension is disabled.
extension ShellExtensionSteps {
    /// What the AppIndicator extension's watcher lists.
    func watcherItems() throws -> [String] {
        let answer = try rig.session.call("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", "org.freedesktop.DBus.Properties.Get",
                                          ["org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
        return DesktopRootSession.strings(answer)
    }

    /// The rings of the waiting colour in the top bar, from a fresh screenshot, and the statusArea's keys.
    func ringsShown() throws -> (rings: [ClosedRange<Int>], keys: [String]) {
        let shot = try rig.screenshot()
        let keys = try rig.evalObject("Object.keys(Main.panel.statusArea).sort()") as? [String] ?? []
        return (ShellExtensionRig.rings(of: ShellExtensionRig.Look.waiting.rgb, in: shot), keys)
    }

    func expectOneRing(extensionOn: Bool, _ what: String) throws {
        var seen: (rings: [ClosedRange<Int>], keys: [String]) = ([], []), items: [String] = []
        let ok = try waitUntil(timeout: 8, interval: 0.3) {
            items = try watcherItems()
            seen = try ringsShown()
            let ours = seen.keys.contains(Self.uuid), indicators = seen.keys.filter { $0.hasPrefix("appindicator-") }
            return seen.rings.count == 1 && ours == extensionOn && items.count == (extensionOn ? 0 : 1)
                && indicators.count == (extensionOn ? 0 : 1)
        }
        rig.keepShot("appindicator-" + what.replacingOccurrences(of: " ", with: "-"))
        #expect(ok, "\(what): \(seen.rings.count) rings in the top bar at x \(seen.rings); statusArea \(seen.keys); watcher \(items)")
    }

    func oneRingWithTheAppIndicatorExtension() throws {
        try rig.extensions("EnableExtension", ShellExtensionRig.appIndicator)
        #expect(try waitUntil(timeout: 10, interval: 0.2) {
            try rig.gnomeExtensions(["info", ShellExtensionRig.appIndicator]).stdout.contains("State: ACTIVE")
        }, "the AppIndicator extension: \(String(describing: try? rig.gnomeExtensions(["info", ShellExtensionRig.appIndicator])))")
        #expect(try rig.session.waitForName("org.kde.StatusNotifierWatcher", timeout: 10))
        try expectOneRing(extensionOn: true, "both enabled")
        try rig.extensions("DisableExtension")
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try !rig.session.nameHasOwner("org.icare.Reminder.ShellRing") })
        // What the app reads (ShellRingOffer; AppShellRingTests' fake has this shape): enabled false, state 2.
        let info = try rig.extensions("GetExtensionInfo")
        #expect(info.contains("'enabled': <false>") && info.contains("'state': <2.0>"), "GetExtensionInfo disabled: \(info)")
        try expectOneRing(extensionOn: false, "extension disabled")
        try rig.extensions("EnableExtension")
        try expectOneRing(extensionOn: true, "enabled again")
        try rig.extensions("DisableExtension", ShellExtensionRig.appIndicator)
    }

    /// The menu's Preferences: the Shell starts the installed app (org.icare.Reminder.desktop) on its own Wayland
    /// display, then calls its `preferences` action; both windows show (their titles, from the Shell's window list).
    func preferencesFromTheMenu() throws {
        try rig.choose("Preferences")
        var titles: [String] = []
        let shown = try waitUntil(timeout: 20, interval: 0.3) {
            titles = try rig.evalObject("global.get_window_actors().map(a => a.meta_window.get_title() || '')") as? [String] ?? []
            return titles.contains("iCare") && titles.contains("Preferences")
        }
        rig.keepShot("preferences")
        let onBus = (try? rig.session.nameHasOwner("org.icare.Reminder.Window")) ?? false
        #expect(shown, "after Preferences in the menu the Shell has the windows \(titles); the app on the bus: \(onBus)\n\(rig.shellLog.suffix(1500))")
    }

    /// Nothing in the Shell's whole log from or about the extension: no JS error, no warning naming it.
    /// From the zip, one line is due: the Shell saying the user's copy is the one it loads.
    func noErrorsInTheShellLog() throws {
        let log = rig.shellLog
        var lines = log.split(separator: "\n").filter {
            $0.contains(Self.uuid) || $0.contains("icare") || $0.contains("iCare")
        }
        if fromZip {
            let userCopy = rig.root.work.appendingPathComponent("data/gnome-shell/extensions/\(Self.uuid)").path
            let notice = "Extension \(Self.uuid) already installed in \(userCopy). /usr/share/gnome-shell/extensions/\(Self.uuid) will not be loaded"
            #expect(lines.contains { $0.hasSuffix(notice) }, "the Shell did not say it loads the zip's copy:\n\(lines.joined(separator: "\n"))")
            lines.removeAll { $0.hasSuffix(notice) }
        }
        #expect(lines.isEmpty, "the Shell's log about the extension:\n\(lines.joined(separator: "\n"))")
        #expect(try rig.extensions("GetExtensionErrors") == "(@as [],)")
    }
}
