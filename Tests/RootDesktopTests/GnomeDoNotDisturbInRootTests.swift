import Testing
import Foundation
import TestSupport

/// GNOME's own "Do Not Disturb" switch on the real GNOME Shell 48.7 and 50.5 (the package in the Debian
/// roots), flipped as a person flips it: a real pointer (Mutter's RemoteDesktop) clicks the top bar to
/// open the menu that holds the switch, then clicks the switch where it is drawn. On 48 the switch is in
/// the clock's date menu, below the message list (as on 43, `DoNotDisturbTests`); on 49 and later it is
/// a quick-settings toggle in the system menu at the right of the top bar, and the date menu has none.
/// Flipped on, icared pauses (`dnd`, source `gnome`); flipped off, it waits again.
@Suite(.serialized) struct GnomeDoNotDisturbInRootTests {
    @Test(.timeLimit(.minutes(5)), arguments: DesktopRoot.Release.allCases)
    func gnomesDoNotDisturbSwitchClickedPausesAndResumesIcared(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let rig = try GnomeClicksRig(release)
        defer { rig.stop() }
        let menu = Self.menu(release)
        if release != .trixie {
            #expect(try rig.shell.eval("\(Self.switchJS("dateMenu")) === null") == "true", "GNOME Shell \(release.gnomeShell) has the switch in the date menu")
        }
        _ = try rig.session.icareProperty("Version")
        #expect(try rig.waitForState("waiting", timeout: 10), "icared: \(rig.state())")
        #expect(try rig.switchChecked(menu) == false, "the switch in \(menu) before any click")
        #expect(try Self.showBanners(rig) == "true")
        #expect(try rig.session.icareProperty("DoNotDisturb") == "(<false>,)")

        for (on, state) in [(true, "paused"), (false, "waiting")] {
            let at = try rig.clickDoNotDisturb(in: menu)
            #expect(try rig.waitForState(state), "the switch clicked at \(at) (\(on ? "on" : "off")): \(rig.state())")
            #expect(try rig.switchChecked(menu) == on, "the switch in the shell after the click at \(at)")
            #expect(try Self.showBanners(rig) == "\(!on)", "show-banners after the click at \(at)")
            #expect(try rig.session.icareProperty("DoNotDisturb") == "(<\(on)>,)")
            if on {
                #expect(try rig.session.icareProperty("PauseReason") == "(<'dnd'>,)")
                #expect(try rig.session.icareProperty("DoNotDisturbSource") == "(<'gnome'>,)")
            }
            print("GNOME Shell \(release.gnomeShell): Do Not Disturb in \(menu) clicked \(on ? "on" : "off") at \(at): \(rig.state())")
        }
        print("GnomeDoNotDisturbInRootTests on GNOME Shell \(release.gnomeShell): \(Int(Date().timeIntervalSince(began))) s")
    }

    /// The top bar's menu (`Main.panel.statusArea`) that holds the switch: the clock's on 48, the system menu's on 50.
    static func menu(_ release: DesktopRoot.Release) -> String { release == .trixie ? "dateMenu" : "quickSettings" }

    /// The switch in `menu`, found by its label as a person reads it: the button whose label is "Do Not Disturb"
    /// (48's `dnd-button` beside the message list's label, 50's quick toggle); null when there is none.
    static func switchJS(_ menu: String) -> String {
        """
        (() => { let found = null;
          const walk = a => { if (!found && a instanceof imports.gi.St.Button && a.label_actor?.text === 'Do Not Disturb') found = a;
                              a.get_children().forEach(walk); };
          walk(Main.panel.statusArea.\(menu).menu.actor); return found; })()
        """
    }

    /// `gsettings get org.gnome.desktop.notifications show-banners` inside the root.
    static func showBanners(_ rig: GnomeClicksRig) throws -> String {
        let r = try rig.session.run(["gsettings", "get", "org.gnome.desktop.notifications", "show-banners"])
        guard r.status == 0 else { throw HarnessError("gsettings get show-banners: \(r)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension GnomeClicksRig {
    /// Whether the shell has the switch in `menu` on (its `checked`).
    fileprivate func switchChecked(_ menu: String) throws -> Bool? {
        switch try shell.eval("\(GnomeDoNotDisturbInRootTests.switchJS(menu))?.checked ?? null") {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// As a person does: a click on `menu`'s button in the top bar, a click on the middle of its "Do Not
    /// Disturb" switch once the menu has opened in place (no fade or slide left), then Escape. Returns the switch's box.
    fileprivate func clickDoNotDisturb(in menu: String) throws -> (x: Int, y: Int, w: Int, h: Int) {
        let button = "Main.panel.statusArea.\(menu)", popup = "\(button).menu"
        guard let top = try box(button) else { throw HarnessError("no \(menu) in the top bar on GNOME Shell \(release.gnomeShell)") }
        try click(x: top.x + top.w / 2, y: top.y + top.h / 2)
        // 50's toggles still grow a few pixels after the menu's fade and slide: the same box twice.
        let found = try steadyBox(timeout: 5, { try box(GnomeDoNotDisturbInRootTests.switchJS(menu)) }, until: {
            try shell.eval("\(popup).isOpen && \(popup).actor.opacity === 255 && \(popup).actor.scale_x === 1") == "true"
        })
        guard let b = found else {
            throw HarnessError("no Do Not Disturb switch drawn in \(menu) on GNOME Shell \(release.gnomeShell) after a click at \(top): "
                + "open \((try? shell.eval("\(popup).isOpen")) ?? "?")\n\(shell.shellLog.suffix(2000))")
        }
        try click(x: b.x + b.w / 2, y: b.y + b.h / 2)
        try key(GnomeShellHand.escape)
        guard try waitUntil(timeout: 3, interval: 0.1, { try shell.eval("\(popup).isOpen") == "false" }) else {
            throw HarnessError("\(menu) stayed open after Escape on GNOME Shell \(release.gnomeShell)")
        }
        return b
    }
}
