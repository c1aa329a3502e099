import Testing
import Foundation
import TestSupport

/// iCare's package (ICARE_DEB) on the real Plasma 6.3.6 (trixie) and 6.7.4 (forky) on X11, inside the
/// roots, used as a person uses it: the ring in the system tray found in the screen's pixels and its
/// menu opened and used with a real pointer (xdotool), the reminder's buttons and body clicked, and
/// the app's window in the task manager with iCare's own icon. What changes is read from the installed
/// icared on the root's session bus; what shows, from the accessibility tree and the pixels.
@Suite(.serialized) struct PlasmaTrayInRootTests {
    static let pause30 = "Pause for 30 min", resume = "Resume", start = "Start break now"

    /// The docs' name for a picture of Plasma 6.7.
    static func picture(_ what: String) -> String { "plasma67-\(what)" }

    static func elapsed(_ since: Date) -> String { String(format: "%.1f s", Date().timeIntervalSince(since)) }

    /// Opens the item's menu and waits (bounded) until its rows say `enabled` (label → takes a press).
    static func menu(_ watcher: RootMenuWatcher, _ plasma: RootPlasma, _ item: GnomeShellAccessibility.Node,
                     _ enabled: [String: Bool], _ context: String) throws -> [MenuRow] {
        var rows = try watcher.open(item, on: plasma)
        let matches = try waitUntil(timeout: 5, interval: 0.2) {
            rows = try watcher.rows()
            return enabled.allSatisfy { label, on in rows.first { $0.name == label }?.enabled == on }
        }
        #expect(matches, "\(context) (Plasma \(plasma.root.release.plasma)): want \(enabled.sorted { $0.key < $1.key }), the menu shows \(rows)")
        return rows
    }

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theRingIsInTheTrayAndItsMenuPausesAndResumes(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let plasma = try RootPlasma(release)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        #expect(try session.icareProperty("State") == "(<'waiting'>,)")  // the bus activates the installed icared
        let item = try plasma.trayItem()
        #expect(item.y >= RootPlasma.height - 60 && item.x > RootPlasma.width / 2, "the item is not in the panel's tray: \(item)")

        // Waiting: the blue ring drawn by icared (its IconPixmap), not the installed org.icare.Reminder icon nor a generic one.
        #expect(try waitUntil(timeout: 15, interval: 0.3) { try plasma.count(RootPlasma.blue, in: item) > 30 },
                "no blue ring in Plasma \(release.plasma)'s tray at \(item)")
        #expect(try plasma.count(RootPlasma.iconTeal, in: item) == 0, "the tray shows the static icon, not the ring")
        // What iCare says it can see here, as this suite proves it: the tray, Plasma's popups with buttons, its do-not-disturb.
        let seen = try session.capabilities(become: ["ring": "works", "reminder-buttons": "works", "do-not-disturb": "works"])
        #expect(seen["ring"]?.words == "In the panel's tray." && seen["reminder-buttons"]?.words.hasPrefix("Plasma \(release.plasma)") == true
                && seen["do-not-disturb"]?.words == "Follows the do-not-disturb of Plasma.", "Plasma \(release.plasma): \(seen)")

        let watcher = try RootMenuWatcher(plasma)
        defer { watcher.stop() }
        var rows = try Self.menu(watcher, plasma, item, [Self.start: true, "Snooze 5 min": false, "Skip this break": false,
                                                         Self.pause30: true, Self.resume: false], "waiting")
        #expect(rows.contains { $0.name.hasPrefix("Next break at ") }, "\(rows)")
        if let top = rows.map(\.y).min(), let left = rows.map(\.x).min() {
            try plasma.docsScreenshot(Self.picture("tray-menu"), x: left - 10, y: top - 10, w: RootPlasma.width, h: RootPlasma.height)
        }
        let before = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        try plasma.choose(Self.pause30, in: rows)
        #expect(try plasma.state(becomes: "paused"), "the menu's \(Self.pause30) did not pause (Plasma \(release.plasma))")
        let until = try plasma.number("PausedUntil")
        #expect(until >= before + 1_790_000_000 && until <= before + 1_900_000_000, "PausedUntil \(until), asked at \(before)")
        #expect(try waitUntil(timeout: 10, interval: 0.3) { try plasma.count(RootPlasma.blue, in: item) == 0 },
                "the ring stayed blue while paused (Plasma \(release.plasma))")

        // Paused: only Resume takes a press; it resumes, and the blue ring comes back.
        rows = try Self.menu(watcher, plasma, item, [Self.start: false, Self.pause30: false, Self.resume: true], "paused")
        try plasma.choose(Self.resume, in: rows)
        #expect(try plasma.state(becomes: "waiting"), "the menu's Resume did not resume (Plasma \(release.plasma))")
        #expect(try waitUntil(timeout: 10, interval: 0.3) { try plasma.count(RootPlasma.blue, in: item) > 30 },
                "no blue ring after Resume (Plasma \(release.plasma))")
        print("Plasma \(release.plasma): the tray's ring and menu in \(Self.elapsed(began))")
    }

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theReminderStartsWithItsButtonAndWithItsBody(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let plasma = try RootPlasma(release)
        defer { plasma.stop() }
        _ = try plasma.root.folder("config/icare")
        try "BreakDuration = 10s\n".write(to: plasma.root.work.appendingPathComponent("config/icare/config"), atomically: true, encoding: .utf8)

        // Start: the reminder becomes the countdown.
        try plasma.restartDue()
        let reminder = try plasma.popup { $0.texts.contains("Time for an eye break") }
        let words = try plasma.popupBodies()
        #expect(words.count == 1 && words[0].summary == "Time for an eye break"
                && words[0].text.hasPrefix("Look at something 20 feet (6 m) away"), "the reminder's body: \(words)")
        #expect(Set(reminder.named).isSuperset(of: ["Start", "Snooze 5 min", "Skip"]), "\(reminder)")
        try plasma.docsScreenshot(Self.picture("reminder"), x: reminder.box.x - 6, y: reminder.box.y - 6,
                                  w: reminder.box.w + 12, h: reminder.box.h + 12)
        try plasma.click(try #require(reminder.button("Start")))
        #expect(try plasma.state(becomes: "break"), "Start did not start the break (Plasma \(release.plasma))")
        let countdown = try plasma.popup { $0.texts.contains { $0.hasPrefix("Look far away · ") } }
        #expect(countdown.named.contains("End break"), "\(countdown)")
        try plasma.docsScreenshot(Self.picture("countdown"), x: countdown.box.x - 6, y: countdown.box.y - 6,
                                  w: countdown.box.w + 12, h: countdown.box.h + 12)
        try plasma.click(try #require(countdown.button("End break")))
        #expect(try plasma.state(becomes: "waiting"), "End break did not end it (Plasma \(release.plasma))")

        // The body: Plasma sends the unlabelled `default`, which starts the break.
        try plasma.restartDue()
        let again = try plasma.popup { $0.texts.contains("Time for an eye break") }
        _ = again
        let bodies = try plasma.popupBodies()
        let body = try #require(bodies.first { $0.text.hasPrefix("Look at something") }, "no body in \(bodies)")
        try plasma.click(x: body.x + body.w / 2, y: body.y + body.h / 2)
        #expect(try plasma.state(becomes: "break"), "a click on the body did not start the break (Plasma \(release.plasma))")
        _ = try plasma.popup { $0.texts.contains { $0.hasPrefix("Look far away · ") } }
        print("Plasma \(release.plasma): the reminder's Start, End break and body in \(Self.elapsed(began))")
    }

    @Test(.timeLimit(.minutes(10)), arguments: DesktopRoot.Release.allCases)
    func theAppsWindowShowsItsIconInTheTaskManager(_ release: DesktopRoot.Release) throws {
        let began = Date()
        let plasma = try RootPlasma(release)
        defer { plasma.stop() }
        let session = try #require(plasma.session)
        _ = try session.icareProperty("State")
        try session.start(["/usr/bin/icare"], log: "icare.log")
        var task: GnomeShellAccessibility.Node?
        _ = try waitUntil(timeout: 30, interval: 0.3) {
            task = try plasma.panelButtons().first { $0.name == "iCare" && $0.w >= 40 }
            return task != nil
        }
        let panel = (try? plasma.panelButtons()) ?? []
        let entry = try #require(task, "no iCare in Plasma \(release.plasma)'s task manager: \(panel)\n\(session.log("icare.log"))")
        let window = try session.run(["xdotool", "search", "--classname", "icare"])
        #expect(window.status == 0 && !window.stdout.isEmpty, "no X11 window of class icare: \(window)")
        // The installed org.icare.Reminder icon: its teal arc and its pale disc, in the entry's place.
        var teal = 0, pale = 0
        let shows = try waitUntil(timeout: 15, interval: 0.3) {
            let shot = try plasma.pixels()
            let xs = entry.x..<(entry.x + entry.w), ys = entry.y..<(entry.y + entry.h)
            teal = shot.points(of: RootPlasma.iconTeal, xs: xs, ys: ys).count
            pale = shot.points(of: RootPlasma.iconPale, xs: xs, ys: ys).count
            return teal > 30 && pale > 30
        }
        #expect(shows, "the task manager's entry at \(entry) does not show iCare's icon (teal \(teal), pale \(pale) pixels)")
        // A launcher of the default panel whose program is not installed shows the generic icon: none of those colours.
        if let generic = try plasma.panelButtons().first(where: { $0.name.hasSuffix(".desktop") }) {
            #expect(try plasma.count(RootPlasma.iconTeal, in: generic) == 0, "the generic entry \(generic) has teal pixels too")
        }
        try plasma.docsScreenshot(Self.picture("taskbar"), x: 0, y: RootPlasma.height - 60, w: 420, h: 60)
        print("Plasma \(release.plasma): the app's icon in the task manager in \(Self.elapsed(began))")
    }
}
