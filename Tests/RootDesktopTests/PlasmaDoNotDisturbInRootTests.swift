import Testing
import Foundation
import TestSupport

/// Plasma's own do-not-disturb switch on the real Plasma 6.3.6 (trixie) and 6.7.4 (forky) on X11, inside
/// the roots, flipped as a person flips it with a real pointer (xdotool): the Notifications item of the
/// system tray (among the hidden icons while nothing is unread, behind "Show hidden icons"), the "Do not
/// disturb" switch at the top of its popup, and "Until manually disabled" in the menu the switch opens;
/// then the switch clicked again. The installed icared pauses for it (`dnd`, from `kde`) and resumes when
/// it ends. Plasma 5.27's `PlasmaDoNotDisturbTests` fires the shortcut through kglobalaccel instead; in
/// the roots no kglobalacceld runs (see `PlasmaLauncherInRootTests`), so the popup's switch is the way.
@Suite(.serialized) struct PlasmaDoNotDisturbInRootTests {
    static let until = "Until manually disabled"

    /// icared paused for the desktop's do-not-disturb, said by Plasma's (`kde`) `Inhibited`.
    static func paused(_ plasma: RootPlasma) throws -> Bool {
        try plasma.state(becomes: "paused") && plasma.string("PauseReason") == "dnd"
            && plasma.string("DoNotDisturbSource") == "kde" && plasma.session.icareProperty("DoNotDisturb") == "(<true>,)"
    }

    static func resumed(_ plasma: RootPlasma) throws -> Bool {
        try plasma.state(becomes: "waiting") && plasma.session.icareProperty("DoNotDisturb") == "(<false>,)"
    }

    @Test(.timeLimit(.minutes(5)), arguments: DesktopRoot.Release.allCases)
    func plasmasDoNotDisturbSwitchPausesAndResumes(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let plasma = try RootPlasma(release)
        defer { plasma.stop() }
        let v = "Plasma \(release.plasma)"
        #expect(try plasma.state(becomes: "waiting"), "icared is not waiting at the start (\(v))")  // the bus activates it
        #expect(try plasma.inhibited() == false, "\(v) starts in do-not-disturb")
        let watcher = try RootMenuWatcher(plasma)
        defer { watcher.stop() }

        // On: the switch opens its menu (it turns on only with a choice), and the choice turns it on.
        let off = try plasma.doNotDisturbSwitch()
        #expect(!off.checked, "the switch is on before it was clicked (\(v)): \(off)")
        try plasma.click(off)
        var rows: [MenuRow] = []
        let menu = try waitUntil(timeout: 10, interval: 0.2) {
            rows = try watcher.rows()
            return rows.contains { $0.name == Self.until }
        }
        try #require(menu, "no '\(Self.until)' in a menu after a click on \(off) (\(v)): \(rows)")
        #expect(try plasma.inhibited() == false, "the switch turned on before a choice in its menu (\(v))")
        try plasma.choose(Self.until, in: rows)
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try plasma.inhibited() }, "Plasma's Inhibited stayed false (\(v))")
        #expect(try Self.paused(plasma), "icared did not pause for Plasma's switch (\(v)): \(plasma.icaredSays)")

        // Off: the switch, on now, clicked again.
        let on = try plasma.doNotDisturbSwitch()
        #expect(on.checked, "the switch does not show do-not-disturb on (\(v)): \(on)")
        try plasma.click(on)
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try !plasma.inhibited() }, "Plasma's Inhibited stayed true (\(v))")
        #expect(try Self.resumed(plasma), "icared did not resume when Plasma's switch went off (\(v)): \(plasma.icaredSays)")
        print("\(v): the tray's Do not disturb (\(off)) clicked on and off in \(PlasmaTrayInRootTests.elapsed(began))")
    }
}

extension RootPlasma {
    /// icared's State, PauseReason and DoNotDisturbSource now, for a message.
    var icaredSays: String {
        ["State", "PauseReason", "DoNotDisturbSource"].map { "\($0) \((try? string($0)) ?? "?")" }.joined(separator: ", ")
    }

    /// Plasma's own `Inhibited` on org.freedesktop.Notifications (what icared's KDE watcher reads).
    func inhibited() throws -> Bool {
        let answer = try session.call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                      "org.freedesktop.DBus.Properties.Get", ["org.freedesktop.Notifications", "Inhibited"])
        guard ["(<true>,)", "(<false>,)"].contains(answer) else { throw HarnessError("Inhibited is \(answer)") }
        return answer == "(<true>,)"
    }

    /// The showing "Do not disturb" switch of the Notifications popup, above the panel (not its label, when Qt names both).
    static func dndSwitch(in nodes: [GnomeShellAccessibility.Node]) -> GnomeShellAccessibility.Node? {
        let named = nodes.filter { $0.name == "Do not disturb" && $0.w > 0 && $0.h > 0 && $0.x >= 0 && $0.y >= 0 && $0.y + $0.h < height - 40 }
        return named.first { !["label", "static", "text"].contains($0.role) } ?? named.first
    }

    /// The "Do not disturb" switch, its popup opened with the pointer when it does not show: the tray's
    /// Notifications item clicked, in the panel or (while it is passive) among the hidden icons.
    func doNotDisturbSwitch() throws -> GnomeShellAccessibility.Node {
        var nodes = try session.accessibility.nodes(of: "plasmashell")
        if let found = Self.dndSwitch(in: nodes) { return found }
        func bell() -> GnomeShellAccessibility.Node? { nodes.first { ["push button", "button"].contains($0.role) && $0.name == "Notifications" } }
        if bell() == nil {
            let panel = try panelButtons()
            guard let arrow = panel.first(where: { $0.name == "Show hidden icons" }) else {
                throw HarnessError("neither Notifications nor Show hidden icons in Plasma \(root.release.plasma)'s tray: \(panel)")
            }
            try click(arrow)
            _ = try waitUntil(timeout: 10, interval: 0.3) {
                nodes = try session.accessibility.nodes(of: "plasmashell")
                return bell() != nil
            }
        }
        guard let item = bell() else {
            throw HarnessError("no Notifications item in Plasma \(root.release.plasma)'s tray: \(nodes.filter { !$0.name.isEmpty })")
        }
        try click(item)
        var found: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: 10, interval: 0.3) {
            nodes = try session.accessibility.nodes(of: "plasmashell")
            found = Self.dndSwitch(in: nodes)
            return found != nil
        }
        guard let found else {
            throw HarnessError("no Do not disturb after a click on \(item) (Plasma \(root.release.plasma)): \(nodes.filter { !$0.name.isEmpty })")
        }
        return found
    }
}
