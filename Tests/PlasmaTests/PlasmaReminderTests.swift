import Testing
import Foundation
import TestSupport

/// The installed icared's reminder and countdown in plasmashell's own
/// popups, on X11 and on Wayland: read from the accessibility tree, every
/// button and the body pressed with a real pointer.
@Suite(.serialized) struct PlasmaReminderTests {
    static let reminder = "Time for an eye break"

    /// The one reminder popup: its buttons are exactly Start, Snooze and Skip, once each.
    static func reminder(_ desk: PlasmaDesktop) throws -> PlasmaBubble {
        let b = try desk.bubble { $0.title == reminder }
        #expect(b.named.sorted() == ["Skip", "Snooze 5 min", "Start"], "\(b)")
        #expect(b.body.name.hasPrefix("Look at something 20 feet (6 m) away"), "\(b)")
        return b
    }

    @Test(arguments: HeadlessPlasma.Session.allCases)
    func snoozeSkipAndTheBodyEachPressedLikeAPerson(_ session: HeadlessPlasma.Session) throws {
        let desk = try PlasmaDesktop(session)
        defer { desk.stop() }

        // Snooze: the reminder goes, the break waits 5 minutes.
        try desk.restartDue()
        var b = try Self.reminder(desk)
        try desk.screenshot("plasma-\(session)-reminder", b)
        // What iCare says it can see on Plasma 5.27: the popup's buttons and Plasma's do-not-disturb, proven here.
        let seen = try desk.service.capabilities(become: ["reminder-buttons": "works", "do-not-disturb": "works"])
        #expect(seen["reminder-buttons"]?.words.hasPrefix("Plasma 5.27") == true
                && seen["do-not-disturb"]?.words == "Follows the do-not-disturb of Plasma.", "\(seen)")
        try desk.click(try #require(b.button("Snooze 5 min")))
        #expect(try desk.state(becomes: "snoozed"), "Snooze did not snooze: \(desk.service.log)")
        #expect(try desk.noBubble(), "the reminder stayed: \(desk.onScreen)")

        // Skip: a skipped record, a new interval.
        try desk.restartDue()
        b = try Self.reminder(desk)
        try desk.click(try #require(b.button("Skip")))
        #expect(try desk.state(becomes: "waiting"), "Skip did not skip: \(desk.service.log)")
        #expect(try desk.history().map(\.kind) == ["skipped"])
        #expect(try desk.noBubble(), "the reminder stayed: \(desk.onScreen)")

        // The body: Plasma sends the unlabelled `default`, which starts the break.
        try desk.restartDue()
        b = try Self.reminder(desk)
        try desk.click(b.body)
        #expect(try desk.state(becomes: "break"), "a click on the body did not start the break: \(desk.service.log)")
        _ = try desk.bubble { $0.title.hasPrefix("Look far away · ") }
    }

    @Test(arguments: HeadlessPlasma.Session.allCases)
    func startCountsDownInPlaceAndTheBreakEnds(_ session: HeadlessPlasma.Session) throws {
        let desk = try PlasmaDesktop(session)
        defer { desk.stop() }
        try desk.restartDue()
        let b = try Self.reminder(desk)
        try desk.click(try #require(b.button("Start")))
        #expect(try desk.state(becomes: "break"), "Start did not start the break: \(desk.service.log)")

        // One popup, in the reminder's place, its title counting down.
        var seen: [String] = []
        let counted = try waitUntil(timeout: 12, interval: 0.2) {
            let shown = try desk.screen().bubbles
            guard shown.count == 1 else { return false }
            if seen.last != shown[0].title { seen.append(shown[0].title) }
            return seen.filter { $0.hasPrefix("Look far away · ") }.count >= 3
        }
        #expect(counted, "the countdown did not count in one popup: \(seen)")
        let countdown = try desk.bubble { $0.title.hasPrefix("Look far away · ") }
        #expect(countdown.named == ["End break"], "\(countdown)")
        #expect(countdown.y + countdown.h == b.y + b.h, "the countdown is not where the reminder was: \(countdown) \(b)")
        try desk.screenshot("plasma-\(session)-countdown", countdown)
        let seconds = seen.compactMap { Int($0.split(separator: " ").dropLast().last ?? "") }
        #expect(seconds == seconds.sorted(by: >) && Set(seconds).count == seconds.count, "not counting down: \(seen)")

        // The end: a completed record, "Break complete" in the same place.
        #expect(try desk.state(becomes: "waiting", timeout: 20), "the break did not end: \(desk.service.log)")
        #expect(try desk.history().map(\.kind) == ["completed"])
        let done = try desk.bubble { $0.title == "Break complete" }
        #expect(done.body.name.hasPrefix("Well done."), "\(done)")
    }

    /// plasmashell restarts during a break (a crash, an update): the countdown goes on in the new one.
    /// Plasma refuses a Notify identical to the last one within a second
    /// (`org.freedesktop.Notifications.Error.ExcessNotificationGeneration`); that refusal must not end it.
    @Test(arguments: HeadlessPlasma.Session.allCases)
    func theCountdownGoesOnAfterPlasmashellRestarts(_ session: HeadlessPlasma.Session) throws {
        let desk = try PlasmaDesktop(session, config: "BreakDuration = 60s\n")
        defer { desk.stop() }
        try desk.restartDue()
        let b = try Self.reminder(desk)
        try desk.click(try #require(b.button("Start")))
        _ = try desk.bubble { $0.title.hasPrefix("Look far away · ") }

        // Twice: whether icared's first Notify to the new plasmashell repeats the last one within a second
        // depends on when in the second plasmashell comes back.
        for round in 1...2 {
            try desk.plasma.killPlasmashell()
            try desk.plasma.startPlasmashell()
            #expect(try desk.service.string("State") == "break", "the break ended while plasmashell restarted: \(desk.service.log)")
            var seen: [String] = []
            let counting = try waitUntil(timeout: 8, interval: 0.2) {
                let shown = try desk.screen().bubbles.map(\.title).filter { $0.hasPrefix("Look far away · ") }
                if shown.count == 1, seen.last != shown[0] { seen.append(shown[0]) }
                return seen.count >= 3
            }
            #expect(counting, "restart \(round): the countdown froze: \(seen) on screen \(desk.onScreen)\nicared:\n\(desk.service.log)")
        }
    }
}
