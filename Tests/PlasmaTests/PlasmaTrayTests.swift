import Testing
import Foundation
import TestSupport

/// The installed icared's ring in Plasma's system tray (kded5's watcher,
/// plasmashell's host), on X11 and on Wayland: the drawn ring seen in the
/// screen's pixels, its menu opened with a right click and used with the
/// pointer, each row's label and enabled state read from the accessibility
/// tree after every change.
@Suite(.serialized) struct PlasmaTrayTests {
    static let start = "Start break now", snooze = "Snooze 5 min", skip = "Skip this break"
    static let pause30 = "Pause for 30 min", pause60 = "Pause for 1 hour", pauseUntil = "Pause until resumed", resume = "Resume"

    /// The tray's button for the item (its Title, "iCare"), from the accessibility tree.
    static func item(_ desk: PlasmaDesktop) throws -> Control {
        var found: Control?
        _ = try waitUntil(timeout: 15, interval: 0.2) {
            found = try desk.screen().tray.first { $0.name == "iCare" }
            return found != nil
        }
        guard let found else { throw HarnessError("no iCare in the tray (\(desk.session)): \(desk.onScreen)\nicared:\n\(desk.service.log)") }
        return found
    }

    /// Whether the item's place in the tray shows the ring in `colour` (more than 30 of its pixels).
    static func ringShows(_ desk: PlasmaDesktop, _ item: Control, _ colour: [UInt8], timeout: TimeInterval = 10) throws -> Bool {
        try waitUntil(timeout: timeout, interval: 0.3) {
            try desk.pixels().points(of: colour, xs: item.x..<(item.x + item.w), ys: item.y..<(item.y + item.h)).count > 30
        }
    }

    /// Opens the item's menu with a right click and waits (bounded) until the rows say `enabled`
    /// (label → whether it takes a press); fails with what they said.
    static func menu(_ desk: PlasmaDesktop, _ item: Control, _ enabled: [String: Bool],
                     _ context: String) throws -> [Control] {
        var rows = try desk.openMenu(at: item.centre)
        let matches = try waitUntil(timeout: 5, interval: 0.2) {
            rows = try desk.menuRows()
            return enabled.allSatisfy { label, on in rows.first { $0.name == label }?.enabled == on }
        }
        #expect(matches, "\(context) (\(desk.session)): want \(enabled.sorted { $0.key < $1.key }), the menu shows \(rows)")
        return rows
    }

    @Test(arguments: HeadlessPlasma.Session.allCases)
    func theRingIsInTheTrayAndItsMenuStartsPausesAndResumes(_ session: HeadlessPlasma.Session) throws {
        let desk = try PlasmaDesktop(session)
        defer { desk.stop() }
        try desk.restartDue()
        #expect(try desk.state(becomes: "due"))
        let item = try Self.item(desk)
        #expect(item.y >= desk.plasma.height - 44, "the item is not in the panel: \(item)")

        // Due: the full orange ring, drawn by icared, although the installed theme has its eye icon.
        #expect(try Self.ringShows(desk, item, PlasmaDesktop.orange), "no orange ring in the tray at \(item) (\(session)): the static icon?")

        // The menu of a due break; Start starts it.
        var rows = try Self.menu(desk, item, [Self.start: true, Self.snooze: true, Self.skip: true, Self.pause30: true, Self.resume: false],
                                 "a due break")
        if let menuTop = rows.map(\.y).min(), let menuLeft = rows.map(\.x).min() {
            let x = min(menuLeft, item.x) - 10, y = menuTop - 10
            try desk.screenshot("plasma-\(session)-tray-menu", x: x, y: y, w: desk.plasma.width - x, h: desk.plasma.height - y)
        }
        try desk.chooseRow(Self.start, in: rows)
        #expect(try desk.state(becomes: "break"), "the menu's Start did not start the break: \(desk.service.log)")

        // During the break only Skip of the three; it skips.
        rows = try Self.menu(desk, item, [Self.start: false, Self.snooze: false, Self.skip: true], "during a break")
        try desk.chooseRow(Self.skip, in: rows)
        #expect(try desk.state(becomes: "waiting"), "the menu's Skip did not skip: \(desk.service.log)")
        #expect(try Self.ringShows(desk, item, PlasmaDesktop.blue), "no blue ring while waiting (\(session))")

        // Waiting: Start is back (it was off during the break); pause for 30 minutes.
        rows = try Self.menu(desk, item, [Self.start: true, Self.snooze: false, Self.skip: false, Self.pause30: true, Self.resume: false],
                             "waiting, after a break")
        #expect(rows.contains { $0.name == "Today: 0 completed, 1 skipped" }, "the tally: \(rows)")
        let before = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        try desk.chooseRow(Self.pause30, in: rows)
        #expect(try desk.state(becomes: "paused"), "the menu's pause did not pause: \(desk.service.log)")
        let until = try desk.service.number("PausedUntil")
        #expect(until >= before + 1_790_000_000 && until <= before + 1_900_000_000, "PausedUntil \(until)")
        #expect(try waitUntil(timeout: 10, interval: 0.3) {
            try desk.pixels().points(of: PlasmaDesktop.blue, xs: item.x..<(item.x + item.w), ys: item.y..<(item.y + item.h)).isEmpty
        }, "the ring stayed blue while paused (\(session))")

        // Paused: only Resume; it resumes.
        rows = try Self.menu(desk, item, [Self.start: false, Self.pause30: false, Self.pause60: false, Self.pauseUntil: false, Self.resume: true],
                             "paused")
        try desk.chooseRow(Self.resume, in: rows)
        #expect(try desk.state(becomes: "waiting"), "the menu's Resume did not resume: \(desk.service.log)")

        // Waiting again: Start and the pauses are back on, Resume off.
        rows = try Self.menu(desk, item, [Self.start: true, Self.pause30: true, Self.pause60: true, Self.pauseUntil: true, Self.resume: false],
                             "waiting, after a pause")
        try desk.chooseRow(Self.start, in: rows)
        #expect(try desk.state(becomes: "break"), "the menu's Start did not start a break: \(desk.service.log)")
    }

    /// Snooze and Skip, greyed while a snooze runs, come back when it ends and the break is due
    /// again (icared 60 times faster: the 5-minute snooze takes 5 s); a left click on the ring shows
    /// the status while snoozed and starts the break once it is due.
    @Test(arguments: HeadlessPlasma.Session.allCases)
    func snoozeAndSkipComeBackWhenTheSnoozeEndsAndALeftClickShowsOrStarts(_ session: HeadlessPlasma.Session) throws {
        let desk = try PlasmaDesktop(session)
        defer { desk.stop() }
        try desk.restartDue(["--time-scale", "60"])
        #expect(try desk.state(becomes: "due"))
        let item = try Self.item(desk)

        var rows = try Self.menu(desk, item, [Self.start: true, Self.snooze: true, Self.skip: true], "a due break")
        try desk.chooseRow(Self.snooze, in: rows)
        #expect(try desk.state(becomes: "snoozed"), "the menu's Snooze did not snooze: \(desk.service.log)")
        rows = try Self.menu(desk, item, [Self.start: true, Self.snooze: false, Self.skip: false], "snoozed")
        // Out of the way: a click on the item closes its menu.
        try desk.click(item)
        #expect(try waitUntil(timeout: 5, interval: 0.2) { try desk.menuRows().isEmpty }, "the menu stayed open")
        // Nothing due: a left click shows the status and today's tally in a popup.
        try desk.click(item)
        let status = try desk.bubble { $0.title.hasPrefix("Snoozed until ") }
        #expect(status.body.name.hasPrefix("Today: 0 completed, 0 skipped"), "\(status)")

        #expect(try desk.state(becomes: "due", timeout: 20), "the snooze did not end: \(desk.service.log)")
        rows = try Self.menu(desk, item, [Self.start: true, Self.snooze: true, Self.skip: true], "due again after the snooze")
        try desk.click(item)
        #expect(try waitUntil(timeout: 5, interval: 0.2) { try desk.menuRows().isEmpty }, "the menu stayed open")

        // A left click on the ring is Activate: the due break starts.
        #expect(try desk.state(becomes: "due"))
        try desk.click(item)
        #expect(try desk.state(becomes: "break"), "a left click on the ring did not start the due break: \(desk.service.log)")
    }
}
