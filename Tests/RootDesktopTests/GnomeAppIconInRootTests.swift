import Testing
import Foundation
import TestSupport

/// Issue 29 on the real GNOME Shell 48.7 and 50.5 (the package in the Debian roots): the app's icon
/// (`org.icare.Reminder`, installed by the package into the hicolor theme) seen in a picture — the reminder
/// banner's icon in a screenshot, compared pixel by pixel with the installed SVG rendered at that size
/// (and, as a check of the comparison, not matching the symbolic icon).
@Suite(.serialized) struct GnomeAppIconInRootTests {
    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theAppsIconInTheDash(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let rig = try GnomeClicksRig(release, variables: ["ICARE_TIME_SCALE": "90"])
        defer { rig.stop() }
        // The app pinned to the dash, as GNOME Settings or a right click does it, and the overview opened.
        let pinned = try rig.session.run(["gsettings", "set", "org.gnome.shell", "favorite-apps", "['org.icare.Reminder.desktop']"])
        try #require(pinned.status == 0, "\(pinned)")
        _ = try rig.shell.eval("Main.overview.show()")
        Thread.sleep(forTimeInterval: 2)
        // The dash's largest mapped St.Icon, and what it draws.
        let text = try rig.shell.eval("""
            (() => { const found = []; const walk = a => { if (a instanceof imports.gi.St.Icon && a.is_mapped())
                found.push([...a.get_transformed_position(), ...a.get_transformed_size()].map(Math.round).concat([a.icon_size, String(a.gicon?.to_string?.() ?? a.icon_name)]).join(';'));
              a.get_children().forEach(walk); }; walk(Main.overview.dash); return found.join('|'); })()
            """).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        let icons = text.split(separator: "|").map { $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0.count >= 6 && $0[5].contains("org.icare.Reminder") }
        let best = try #require(icons.max { (Int($0[2]) ?? 0) < (Int($1[2]) ?? 0) }, "no iCare icon in the dash: \(text)")
        let (x, y, w, h) = (Int(best[0]) ?? 0, Int(best[1]) ?? 0, Int(best[2]) ?? 0, Int(best[3]) ?? 0)
        let shot = try rig.screenshot()
        rig.keepShot("dash-icon")
        try #require(w >= 16 && w == h, "the dash's icon: \(icons)")
        let background = shot.pixel(x, y)  // the icon's corner is transparent: the banner behind it
        func rendered(_ file: String) throws -> Screenshot {
            let svg = rig.root.work.appendingPathComponent("icon.svg").path, ppm = rig.root.work.appendingPathComponent("icon.ppm").path
            let r = try rig.session.run(["cat", file])
            try #require(r.status == 0, "\(file) in the root: \(r)")
            try r.stdout.write(toFile: svg, atomically: true, encoding: .utf8)
            let bg = "rgb(\(background[0]),\(background[1]),\(background[2]))"
            let c = try Subprocess.run(["sh", "-c", "rsvg-convert -w \(w) -h \(h) '\(svg)' | convert - -background '\(bg)' -flatten ppm:'\(ppm)'"])
            try #require(c.status == 0, "rendering \(file): \(c)")
            return try Screenshot(file: ppm)
        }
        func difference(_ icon: Screenshot) -> Double {
            var sum = 0
            for j in 0..<h { for i in 0..<w { sum += zip(shot.pixel(x + i, y + j), icon.pixel(i, j)).map { abs(Int($0) - Int($1)) }.reduce(0, +) } }
            return Double(sum) / Double(w * h * 3)
        }
        let apps = "/usr/share/icons/hicolor/scalable/apps/"
        let own = difference(try rendered(apps + "org.icare.Reminder.svg"))
        let symbolic = difference(try rendered("/usr/share/icons/hicolor/symbolic/apps/org.icare.Reminder-symbolic.svg"))
        print("GNOME Shell \(release.gnomeShell): the dash's icon \(best) at \(x),\(y) \(w)×\(h); mean difference per channel "
              + "from org.icare.Reminder.svg \(String(format: "%.1f", own)), from the symbolic one \(String(format: "%.1f", symbolic)); "
              + "\(Int(Date().timeIntervalSince(began))) s")
        #expect(own < 12, "the dash's icon is not the installed org.icare.Reminder.svg: mean difference \(own) per channel")
        #expect(symbolic > own * 2, "the comparison does not tell the icons apart: \(own) and \(symbolic)")
    }
}
