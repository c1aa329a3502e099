import Testing
import Foundation
import TestSupport

/// Issue 29 on the real GNOME Shell 48.7 and 50.5 (the package in the Debian roots): GNOME's own
/// eyesight breaks turned on with the root's real `gsettings` while icared runs. icared's
/// `DesktopEyeBreaks` becomes true and `icarectl status` says so; and what GNOME itself then shows
/// (its BreakManager's state and its notifications, with the pointer moving as a person's does).
@Suite(.serialized) struct GnomeEyeBreaksInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func gnomesEyesightBreaksTurnedOnWithGsettings(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let rig = try GnomeClicksRig(release)
        defer { rig.stop() }
        _ = try rig.root.folder("config/icare")
        try "Interval = 20m\nBreakDuration = 20s\n"
            .write(to: rig.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)
        #expect(try rig.session.icareProperty("DesktopEyeBreaks") == "(<false>,)")
        let before = try rig.session.run(["icarectl", "status"])
        #expect(before.status == 0 && !before.stdout.contains("GNOME breaks"), "\(before)")

        // As GNOME Settings' Wellbeing panel sets them: short intervals so that GNOME's own break comes soon.
        let schema = "org.gnome.desktop.break-reminders"
        for args in [[schema + ".eyesight", "interval-seconds", "20"], [schema + ".eyesight", "duration-seconds", "10"],
                     [schema, "selected-breaks", "['eyesight']"]] {
            let r = try rig.session.run(["gsettings", "set"] + args)
            #expect(r.status == 0, "gsettings set \(args): \(r)")
        }
        let got = try rig.session.run(["gsettings", "get", schema, "selected-breaks"])
        #expect(got.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "['eyesight']", "\(got)")
        let turnedOn = Date()
        let seen = try waitUntil(timeout: 5, interval: 0.1) { try rig.session.icareProperty("DesktopEyeBreaks") == "(<true>,)" }
        let after = Date().timeIntervalSince(turnedOn)
        #expect(seen, "DesktopEyeBreaks stayed \((try? rig.session.icareProperty("DesktopEyeBreaks")) ?? "?")")
        let status = try rig.session.run(["icarectl", "status"])
        #expect(status.status == 0 && status.stdout.contains("GNOME breaks:") && status.stdout.contains("eyesight breaks are on too"),
                "icarectl status: \(status)")
        print("GNOME Shell \(release.gnomeShell): DesktopEyeBreaks true \(String(format: "%.2f", after)) s after gsettings; icarectl status:\n\(status.stdout)")

        // GNOME's side: its BreakManager follows the same key; with the pointer moving (an active user) its
        // eyesight break comes after 20 s. Record its states and every notification title it shows.
        var states: [String] = [], titles: Set<String> = []
        let watchUntil = Date().addingTimeInterval(45)
        var sign = 1
        while Date() < watchUntil {
            try rig.nudge(sign * 3, 0)
            sign = -sign
            let state = try rig.shell.eval("Main.breakManager.state")
            if states.last != state { states.append(state) }
            for t in try rig.shell.listedTitles().split(separator: "|") { titles.insert(t.trimmingCharacters(in: CharacterSet(charactersIn: " \""))) }
            let shown = try rig.shell.bannerTitle()
            if !shown.isEmpty { titles.insert(shown) }
            if states.contains("3") || states.contains("4"), titles.contains(where: { $0.contains("Break") || $0.contains("break") }) {
                _ = try rig.screenshot()
                rig.keepShot("gnome-eyesight-break")
                break
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
        print("GNOME Shell \(release.gnomeShell): BreakManager states \(states) (1 active, 2 idle, 3 in break, 4 break due); titles \(titles)")
        #expect(!states.isEmpty && !states.contains("0"), "GNOME's BreakManager: \(states)")
        #expect(try rig.session.icareProperty("DesktopEyeBreaks") == "(<true>,)")

        // Off again: icared follows.
        _ = try rig.session.run(["gsettings", "set", schema, "selected-breaks", "[]"])
        #expect(try waitUntil(timeout: 5, interval: 0.1) { try rig.session.icareProperty("DesktopEyeBreaks") == "(<false>,)" })
        print("GnomeEyeBreaksInRootTests on GNOME Shell \(release.gnomeShell): \(Int(Date().timeIntervalSince(began))) s")
    }
}
