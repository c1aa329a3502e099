import Testing
import Foundation
import TestSupport

/// Acceptance: the real icared against real notification servers, headless,
/// checked as a person meets it — the words and buttons on screen read from
/// the accessibility tree (AT-SPI: the GTK servers put every bubble, label
/// and button there, with its place), or from the server's own tools
/// (dunst: `dunstctl` and its menu in the real dmenu), a real pointer (xdotool)
/// on the buttons (dunst: a middle click, then the choice typed into dmenu),
/// then the state and history, and no bubble left after each
/// cycle. Why AT-SPI and not screenshots: it gives the exact words and each
/// button's place without OCR, and it shows a bubble for as long as the
/// server keeps it mapped — the stale bubble of notification-daemon included.
/// A server that does not start fails the test.
///
/// With ICARE_SCREENSHOTS=<folder> each test also saves its reminder and
/// countdown (scripts/screenshots, for docs/screenshots).
@Suite struct RealServerTests {
    static let config = "BreakDuration = 10\nSnoozeDuration = 300\nSound = false\n"
    static let reminderTitle = "Time for an eye break"

    @Test func xfce4Notifyd() throws { try gtkServerCycles(.xfce4Notifyd) }

    @Test func notificationDaemon() throws { try gtkServerCycles(.notificationDaemon) }

    /// xfce4-notifyd and notification-daemon: bubbles and buttons in the accessibility tree.
    /// xfce4-notifyd's runs iCare installed into a temporary prefix (the icon a
    /// themed name, found through XDG_DATA_DIRS), notification-daemon's from the
    /// build tree (the icon the SVG's own file).
    func gtkServerCycles(_ server: RealServer) throws {
        let rig = try RealServerRig(server, config: Self.config, installed: server == .xfce4Notifyd)
        defer { rig.stop() }
        let s = rig.service
        let name = server.rawValue

        // 1. The reminder: its words, exactly one Start, Snooze and Skip; Snooze.
        try rig.restartDue()
        let reminder = try rig.bubble { $0.labels.contains(Self.reminderTitle) && !$0.named.isEmpty }
        #expect(reminder.named == ["Start", "Snooze 5 min", "Skip"], "each button once: \(reminder)")
        #expect(reminder.labels.contains { $0.contains("20 feet (6 m)") && $0.contains("10 seconds") }, "\(reminder)")
        // Installed, the icon is the themed name, which the server finds in the prefix's hicolor.
        if server == .xfce4Notifyd { #expect(reminder.icon, "the icon is drawn: \(reminder)") }
        try rig.screenshot("\(name)-reminder", reminder)
        try rig.click(try #require(reminder.button("Snooze 5 min")))
        #expect(try waitUntil { try s.string("State") == "snoozed" }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try rig.bubbles().isEmpty }, "left on screen: \(rig.onScreen)")

        // 2. The next reminder shows (nothing stale hides it); Skip.
        try rig.restartDue()
        let second = try rig.bubble { $0.labels.contains(Self.reminderTitle) && !$0.named.isEmpty }
        try rig.click(try #require(second.button("Skip")))
        #expect(try waitUntil { try s.number("SkippedToday") == 1 }, "log:\n\(s.log)")
        #expect(try s.string("State") == "waiting")
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try rig.bubbles().isEmpty }, "left on screen: \(rig.onScreen)")

        // 3. Start: the same bubble counts down, in words, with End break; End break.
        try rig.restartDue()
        let third = try rig.bubble { $0.labels.contains(Self.reminderTitle) && !$0.named.isEmpty }
        try rig.click(try #require(third.button("Start")))
        #expect(try waitUntil { try s.string("State") == "break" }, "log:\n\(s.log)")
        let countdown = try rig.bubble { $0.labels.contains { $0.hasPrefix("Look far away · ") } && !$0.named.isEmpty }
        #expect(countdown.named == ["End break"], "\(countdown)")
        #expect(countdown.labels.contains("Let your eyes rest on something in the distance."), "\(countdown)")
        let firstSeconds = countdown.labels.first { $0.hasPrefix("Look far away · ") }
        let later = try rig.bubble { $0.labels.contains { $0.hasPrefix("Look far away · ") && $0 != firstSeconds } && !$0.named.isEmpty }
        #expect(later.named == ["End break"], "the countdown goes down in place: \(later)")
        try rig.screenshot("\(name)-countdown", later)
        try rig.click(try #require(later.button("End break")))
        #expect(try waitUntil { try s.number("SkippedToday") == 2 }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try rig.bubbles().isEmpty }, "left on screen: \(rig.onScreen)")

        // 4. A break run to its end: "Break complete", which goes by itself.
        #expect(try s.call("StartBreak").status == 0)
        _ = try rig.bubble { $0.labels.contains { $0.hasPrefix("Look far away · ") } }
        let complete = try rig.bubble(timeout: 15) { $0.labels.contains("Break complete") }
        #expect(complete.named.isEmpty, "\(complete)")
        #expect(try s.number("CompletedToday") == 1)
        #expect(try waitUntil(timeout: 10, interval: 0.2) { try rig.bubbles().isEmpty }, "left on screen: \(rig.onScreen)")

        // 5. A click on the reminder's body.
        try rig.restartDue()
        let fifth = try rig.bubble { $0.labels.contains(Self.reminderTitle) && !$0.named.isEmpty }
        try rig.click(try #require(fifth.labelBoxes.first { $0.name == Self.reminderTitle }))
        try Self.settle(s)
        switch server {
        case .xfce4Notifyd:
            // It closes the bubble (dismissed): not a decision, the break stays due.
            #expect(try waitUntil(timeout: 10, interval: 0.2) { try rig.bubbles().isEmpty }, "\(rig.onScreen)")
            #expect(try s.string("State") == "due")
        default:
            // notification-daemon answers a click on the title with `default`, though none was offered: the break starts.
            #expect(try waitUntil { try s.string("State") == "break" }, "log:\n\(s.log)")
            let counting = try rig.bubble { $0.labels.contains { $0.hasPrefix("Look far away · ") } && !$0.named.isEmpty }
            try rig.click(try #require(counting.button("End break")))
            #expect(try waitUntil { try s.number("SkippedToday") == 3 }, "log:\n\(s.log)")
            #expect(try waitUntil(timeout: 10, interval: 0.2) { try rig.bubbles().isEmpty }, "left on screen: \(rig.onScreen)")
        }
        let history = try s.call("GetHistory", "tt", "0", NotificationTests.tMax).stdout
        #expect(history.contains("\"skipped\"") && history.contains("\"completed\""), "\(history)")
    }

    @Test func dunst() throws {
        let rig = try RealServerRig(.dunst, config: Self.config)
        defer { rig.stop() }
        let s = rig.service

        // The reminder; a middle click opens dunst's menu: Start, Snooze and Skip, each once. Snooze.
        try rig.restartDue()
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 1 }, "log:\n\(s.log)")
        try rig.screenshot("dunst-reminder", try rig.dunstWindow())
        let menu = try rig.dunstChoose("Snooze")
        let labels = menu.map { String($0.dropFirst().prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces) }
        #expect(labels.sorted() == ["Skip", "Snooze 5 min", "Start"], "each once, nothing else: \(menu)")
        #expect(menu.allSatisfy { $0.contains("(\(Self.reminderTitle))") }, "\(menu)")
        #expect(try waitUntil { try s.string("State") == "snoozed" }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 0 })

        // Skip.
        try rig.restartDue()
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 1 })
        _ = try rig.dunstChoose("Skip")
        #expect(try waitUntil { try s.number("SkippedToday") == 1 }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 0 })

        // A left click (dunst's default: close_current) dismisses the reminder; iCare keeps it due.
        try rig.restartDue()
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 1 })
        try rig.click(x: try rig.dunstWindow().x + 40, y: try rig.dunstWindow().y + 20)
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 0 })
        try Self.settle(s)
        #expect(try s.string("State") == "due" && s.number("SkippedToday") == 1, "log:\n\(s.log)")

        // Start, then the countdown: its one action, End break, is what a middle click does at once.
        try rig.restartDue()
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 1 })
        _ = try rig.dunstChoose("Start")
        #expect(try waitUntil { try s.string("State") == "break" }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 1 }, "the countdown shows")
        Thread.sleep(forTimeInterval: 1.5)
        try rig.screenshot("dunst-countdown", try rig.dunstWindow())
        try rig.dunstMiddleClick()
        #expect(try waitUntil { try s.number("SkippedToday") == 2 }, "log:\n\(s.log)")
        #expect(try waitUntil(timeout: 10, interval: 0.1) { try rig.dunstDisplayed() == 0 })
        let history = try s.call("GetHistory", "tt", "0", NotificationTests.tMax).stdout
        #expect(history.contains("\"skipped\""), "\(history)")
    }

    // The predicates ask for the buttons too: a server redrawing a bubble (each countdown second)
    // can be read between its texts and its buttons.

    /// icared has handled everything sent to it before.
    static func settle(_ s: ServiceHarness) throws { _ = try s.property("State") }
}
