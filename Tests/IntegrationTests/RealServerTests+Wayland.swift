import Testing
import Foundation
import TestSupport

/// The Wayland servers, under a real headless sway (WaylandServerRig). There is
/// no pointer there (sway's headless backend has no input devices), so a person's
/// choices go through the server's own CLI, as a key binding would send them.
extension RealServerTests {
    /// mako: what it shows read with `makoctl list`, choices made with `makoctl invoke`.
    @Test func mako() throws {
        let rig = try WaylandServerRig(.mako, config: Self.config)
        defer { rig.stop() }
        let s = rig.service
        #expect(try s.busctl(["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                              "org.freedesktop.Notifications", "GetServerInformation"]).stdout.hasPrefix("ssss \"mako\""),
                "the name NotificationProfile knows mako by")
        func gone() throws -> Bool { try waitUntil(timeout: 10, interval: 0.1) { try rig.makoList().isEmpty } }

        // 1. The reminder: its words; Start, Snooze and Skip once each, and `default` (mako's left
        //    click) with no label. Snooze.
        try rig.restartDue()
        let reminder = try rig.makoOne { $0.summary == Self.reminderTitle }
        try rig.screenshot("mako-reminder")
        // What iCare says it can see here: mako's buttons and its do-not-disturb mode, which this suite proves.
        let seen = try s.capabilities(become: ["reminder-buttons": "works", "do-not-disturb": "works"])
        print("mako under sway: \(seen.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.state): \($0.value.words)" })")
        #expect(seen["reminder-buttons"]?.words.hasPrefix("mako ") == true && seen["do-not-disturb"]?.words == "Follows the do-not-disturb of mako.",
                "\(seen)")
        #expect(reminder.actions.filter { !$0.value.isEmpty }.values.sorted() == ["Skip", "Snooze 5 min", "Start"], "\(reminder)")
        #expect(reminder.actions["default"] == "", "a left click starts the break: \(reminder)")
        #expect(reminder.body.contains("20 feet (6 m)") && reminder.body.contains("10 seconds"), "\(reminder)")
        let snooze = try #require(reminder.actions.first { $0.value == "Snooze 5 min" }?.key)
        try rig.makoInvoke(reminder, snooze)
        #expect(try waitUntil { try s.string("State") == "snoozed" }, "log:\n\(s.log)")
        #expect(try gone(), "left on mako: \(rig.makoShown)")

        // 2. Skip.
        try rig.restartDue()
        let second = try rig.makoOne { $0.summary == Self.reminderTitle }
        try rig.makoInvoke(second, try #require(second.actions.first { $0.value == "Skip" }?.key))
        #expect(try waitUntil { try s.number("SkippedToday") == 1 }, "log:\n\(s.log)")
        #expect(try s.string("State") == "waiting")
        #expect(try gone(), "left on mako: \(rig.makoShown)")

        // 3. A left click (the `default` action): the break starts; the same notification counts
        //    down in words, with End break; End break.
        try rig.restartDue()
        let third = try rig.makoOne { $0.summary == Self.reminderTitle }
        try rig.makoInvoke(third)
        #expect(try waitUntil { try s.string("State") == "break" }, "log:\n\(s.log)")
        let countdown = try rig.makoOne { $0.summary.hasPrefix("Look far away · ") }
        #expect(countdown.id == third.id, "replaced in place: \(countdown), was \(third)")
        #expect(countdown.actions.filter { !$0.value.isEmpty }.values.sorted() == ["End break"], "\(countdown)")
        #expect(countdown.body == "Let your eyes rest on something in the distance.", "\(countdown)")
        let later = try rig.makoOne { $0.summary.hasPrefix("Look far away · ") && $0.summary != countdown.summary }
        try rig.screenshot("mako-countdown")
        try rig.makoInvoke(later, try #require(later.actions.first { $0.value == "End break" }?.key))
        #expect(try waitUntil { try s.number("SkippedToday") == 2 }, "log:\n\(s.log)")
        #expect(try gone(), "left on mako: \(rig.makoShown)")

        // 4. A break run to its end: "Break complete", which goes by itself.
        #expect(try s.call("StartBreak").status == 0)
        _ = try rig.makoOne { $0.summary.hasPrefix("Look far away · ") }
        let complete = try rig.makoOne(timeout: 15) { $0.summary == "Break complete" }
        #expect(complete.actions.isEmpty, "\(complete)")
        #expect(try s.number("CompletedToday") == 1)
        #expect(try gone(), "left on mako: \(rig.makoShown)")
        let history = try s.call("GetHistory", "tt", "0", NotificationTests.tMax).stdout
        #expect(history.contains("\"skipped\"") && history.contains("\"completed\""), "\(history)")
    }

    /// swaync: what it shows read from the accessibility tree, buttons pressed there, and
    /// `swaync-client --count` for what it still holds.
    @Test func swaync() throws {
        let rig = try WaylandServerRig(.swaync, config: Self.config)
        defer { rig.stop() }
        let s = rig.service
        #expect(try s.busctl(["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                              "org.freedesktop.Notifications", "GetServerInformation"]).stdout.hasPrefix("ssss \"SwayNotificationCenter\""),
                "the name NotificationProfile knows swaync by")
        func gone() throws -> Bool { try waitUntil(timeout: 10, interval: 0.1) { try rig.swayncCount() == 0 } }
        let title = Self.reminderTitle

        // 1. The reminder: the body (a button named with the summary) and Start, Snooze and Skip once each. Snooze.
        try rig.restartDue()
        let reminder = try rig.swayncBubble { $0.named.contains(title) && $0.named.count > 1 }
        try rig.screenshot("swaync-reminder")
        #expect(reminder.named == [title, "Start", "Snooze 5 min", "Skip"], "each button once: \(reminder)")
        try rig.swayncPress("Snooze 5 min")
        #expect(try waitUntil { try s.string("State") == "snoozed" }, "log:\n\(s.log)")
        #expect(try gone(), "left on swaync: \(rig.swayncShown)")

        // 2. Skip.
        try rig.restartDue()
        _ = try rig.swayncBubble { $0.named.contains(title) && $0.named.count > 1 }
        try rig.swayncPress("Skip")
        #expect(try waitUntil { try s.number("SkippedToday") == 1 }, "log:\n\(s.log)")
        #expect(try gone(), "left on swaync: \(rig.swayncShown)")

        // 3. A click on the body (the `default` action): the break starts; the countdown, in words,
        //    with End break; End break.
        try rig.restartDue()
        _ = try rig.swayncBubble { $0.named.contains(title) && $0.named.count > 1 }
        try rig.swayncPress(title)
        #expect(try waitUntil { try s.string("State") == "break" }, "log:\n\(s.log)")
        let countdown = try rig.swayncBubble { $0.named.contains { $0.hasPrefix("Look far away · ") } && $0.named.contains("End break") }
        #expect(countdown.named.count == 2, "\(countdown)")
        let seconds = try #require(countdown.named.first { $0.hasPrefix("Look far away · ") })
        _ = try rig.swayncBubble { $0.named.contains { $0.hasPrefix("Look far away · ") && $0 != seconds } && $0.named.contains("End break") }
        #expect(try rig.swayncCount() == 1, "the countdown goes down in place")
        try rig.screenshot("swaync-countdown")
        try rig.swayncPress("End break")
        #expect(try waitUntil { try s.number("SkippedToday") == 2 }, "log:\n\(s.log)")
        #expect(try gone(), "left on swaync: \(rig.swayncShown)")

        // 4. A break run to its end: "Break complete", which goes by itself.
        #expect(try s.call("StartBreak").status == 0)
        _ = try rig.swayncBubble { $0.named.contains { $0.hasPrefix("Look far away · ") } }
        _ = try rig.swayncBubble(timeout: 15) { $0.named == ["Break complete"] }
        #expect(try s.number("CompletedToday") == 1)
        #expect(try gone(), "left on swaync: \(rig.swayncShown)")
        let history = try s.call("GetHistory", "tt", "0", NotificationTests.tMax).stdout
        #expect(history.contains("\"skipped\"") && history.contains("\"completed\""), "\(history)")
    }
}
