import Testing
import Foundation
import TestSupport

/// iCare as installed, on a real headless GNOME Shell 43.9 with the real
/// AppIndicator extension: what a person sees (the accessibility tree, a
/// screenshot) and does (a pointer through Mutter's remote desktop). One
/// desktop for the suite (`GnomeDesktop`), so its tests run one at a time.
@Suite(.serialized) struct GnomeShellTests {
    static let oneBreak = "Interval = 15m\nBreakDuration = 10s\n"

    @Test func theReminderHasStartSnoozeAndSkipAndEachDoesWhatItSaysWhenClicked() throws {
        let desktop = try GnomeDesktop.shared()
        defer { desktop.stopIcared() }
        // Time scale 90: the 15 min interval passes in 10 s, the 5 min snooze in 3.3 s.
        try desktop.startIcared(config: Self.oneBreak)
        try desktop.waitForState("due")
        var reminder = try desktop.hoveredReminder()
        // GNOME draws buttons only while the pointer is over the banner; exactly these, each once.
        #expect(reminder.named == ["Start", "Snooze 5 min", "Skip"], "\(reminder)")
        try desktop.shell.screenshotForDocs("gnome-reminder", x: reminder.box.x - 4, y: reminder.box.y - 4,
                                            w: reminder.box.w + 8, h: reminder.box.h + 8)

        let snooze = try #require(reminder.button("Snooze 5 min"))
        try desktop.shell.pointer().click(x: snooze.centre.x, y: snooze.centre.y)
        try desktop.waitForState("snoozed", timeout: 5)

        try desktop.waitForState("due")
        reminder = try desktop.hoveredReminder()
        let skip = try #require(reminder.button("Skip"))
        try desktop.shell.pointer().click(x: skip.centre.x, y: skip.centre.y)
        try desktop.waitForState("waiting", timeout: 5)
        #expect(try desktop.service.number("SkippedToday") == 1)

        try desktop.waitForState("due")
        reminder = try desktop.hoveredReminder()
        let start = try #require(reminder.button("Start"))
        try desktop.shell.pointer().click(x: start.centre.x, y: start.centre.y)
        try desktop.waitForState("break", timeout: 5)
    }

    @Test func theCountdownUpdatesInPlaceAndTheEndOfTheBreakShowsAsABanner() throws {
        let desktop = try GnomeDesktop.shared()
        defer { desktop.stopIcared() }
        // A 20 s break: time to see the countdown, then to see its banner leave before the end.
        try desktop.startIcared(config: "Interval = 15m\nBreakDuration = 20s\n")
        try desktop.waitForState("due")
        let start = try #require(try desktop.hoveredReminder().button("Start"))
        try desktop.shell.pointer().click(x: start.centre.x, y: start.centre.y)
        try desktop.waitForState("break", timeout: 5)

        // One banner whose words change each second: the countdown replaces itself, it does not pile up.
        // (A read of the tree can miss the banner while it is being redrawn: never two, and one in most reads.)
        var summaries: Set<String> = [], seenOne = 0, reads = 0
        let deadline = Date().addingTimeInterval(3.5)
        while Date() < deadline {
            let banners = try desktop.shell.accessibility.banners()
            reads += 1
            #expect(banners.count <= 1, "\(banners)")
            if banners.count == 1 { seenOne += 1 }
            if let summary = banners.first?.texts.first(where: { $0.hasPrefix("Look far away · ") }) { summaries.insert(summary) }
            Thread.sleep(forTimeInterval: 0.4)
        }
        #expect(seenOne * 2 > reads, "the countdown showed in \(seenOne) of \(reads) reads")
        #expect(summaries.count >= 2, "the countdown did not change: \(summaries)")
        if let countdown = try desktop.shell.accessibility.banners().first {
            try desktop.shell.screenshotForDocs("gnome-countdown", x: countdown.box.x - 4, y: countdown.box.y - 4,
                                                w: countdown.box.w + 8, h: countdown.box.h + 8)
        }

        // The person closes the countdown (its ✕, shown while the pointer is over it) and looks away. GNOME keeps
        // a banner up while it updates, so "break complete" replacing it would be seen anyway; after a close it
        // is a notification of its own, and must still show as a banner.
        let countdown = try desktop.banner { $0.texts.contains { $0.hasPrefix("Look far away · ") } }
        try desktop.shell.pointer().move(x: countdown.box.centre.x, y: countdown.box.y + 20)
        let close = try #require(try desktop.banner { !$0.buttons.isEmpty }.buttons.first { $0.name.isEmpty }, "no ✕ on the countdown")
        try desktop.shell.pointer().click(x: close.centre.x, y: close.centre.y)
        try desktop.shell.pointer().move(x: 200, y: 600)
        #expect(try waitUntil(timeout: 5, interval: 0.2) { try desktop.shell.accessibility.banners().isEmpty }, "the countdown stayed")
        #expect(try desktop.service.string("State") == "break")
        let ended = try waitUntil(timeout: 20, interval: 0.3) {
            try desktop.shell.pointer().wiggle()
            return try desktop.shell.accessibility.banners().contains { $0.texts.contains("Break complete") }
        }
        #expect(ended, "no 'Break complete' banner; icared:\n\(desktop.service.log)")
        #expect(try desktop.service.number("CompletedToday") == 1)
    }

    @Test func aClickOnTheReminderItselfStartsTheBreak() throws {
        let desktop = try GnomeDesktop.shared()
        defer { desktop.stopIcared() }
        try desktop.startIcared(config: Self.oneBreak)
        try desktop.waitForState("due")
        let reminder = try desktop.hoveredReminder()
        // The body text, not a button: GNOME sends the `default` action.
        let body = try #require(reminder.labels.first { $0.name.hasPrefix("Look at something") }, "\(reminder)")
        try desktop.shell.pointer().click(x: body.centre.x, y: body.centre.y)
        try desktop.waitForState("break", timeout: 5)
    }
}
